-- save-load.lua - keep trees in a file and build them again: t:save,
-- idr.save, idr.load (the format of idrsh's save and load).
-- Run: LUA_CPATH_5_4='build/?.so;;' lua5.4 examples/save-load.lua
local idr = require "idr"

-- A tagged idr of timer handles: one was freed and its slot reused.
local timers = idr.new { tagged = { id_bits = 8 } }
local a = timers:alloc_tagged("timer A")
timers:remove_tagged(a)
local b = timers:alloc_tagged("timer B")
-- A plain idr whose values hold any bytes, and an IDA.
local names = idr.new { base = 1 }
names:alloc("tab\there, \"quotes\", caf\u{e9}, \0 and \xff")
names:alloc(nil)                               -- a reserved ID
local ida = idr.ida()
for _ = 1, 5 do ida:alloc() end

local path = os.tmpname()
assert(idr.save(path, { timers = timers, names = names, ida = ida }, "timers"))
local f = io.open(path)
io.write(f:read("a"))
f:close()

-- Loaded, they answer as before: the stale handle is still stale.
local current, trees, name = idr.load(path)
print("current:", name, current == trees.timers)
print("handle a:", select(3, trees.timers:check(a)))
print("handle b:", trees.timers:find_tagged(b))
print("next tag:", trees.timers:alloc_tagged("timer C"), timers:alloc_tagged("timer C"))
print("same value:", trees.names:find(1) == names:find(1))
print("ida:", #trees.ida, trees.ida:alloc())

-- A file cut short loads nothing, and says where it ends.
print(idr.load_text("idr-save 1\ntree x idr\nid 5\n", "cut.idr"))
os.remove(path)
