-- bench/diff.lua - what idrsh's 'mark', 'alloc', 'diff' cost on a sparse
-- tree (issue 28): N random IDs in [0, 2^31), a mark of it, one alloc,
-- then the diff as 'diff' prints it (40 lines at most), each against the
-- time building the tree took; and the mark's bytes against the tree's.
-- Informative only: no figure is a failure.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 bench/diff.lua [N [RUNS]]

local idr = require "idr"

local N = math.tointeger(tonumber(arg[1] or "")) or 1000000
local RUNS = math.tointeger(tonumber(arg[2] or "")) or 5

local here = arg[0]:match("^(.*)/[^/]*$") or "."
local median_ms = dofile(here .. "/median.lua")(RUNS)

local tree = idr.new()
math.randomseed(28)
local c0 = os.clock()
local n = 0
while n < N do
	local id = math.random(0, (1 << 31) - 1)
	if tree:alloc_u32(true, id, id) then n = n + 1 end
end
local build_ms = (os.clock() - c0) * 1000

local function row(name, ms, note)
	print(string.format("%-22s %10.1f %8.2f%%  %s", name, ms,
		ms / build_ms * 100, note or ""))
end

print(string.format("\n%-22s %10s %9s", "mark + diff, " .. N .. " IDs",
	"ms", "of build"))
print(string.format("%-22s %10.1f", "build", build_ms))
-- What a mark holds: its bytes and the values' references (Lua's heap).
collectgarbage("collect")
local k0 = collectgarbage("count")
local snap = tree:mark()
collectgarbage("collect")
local mark_bytes = (collectgarbage("count") - k0) * 1024
row("mark", median_ms(function() snap = tree:mark() end))
local text
row("alloc + diff", median_ms(function()
	local id = tree:alloc(true)
	text = tree:diff_text(snap)
	tree:remove(id)
end), select(2, text:gsub("\n", "")) .. " lines")
local bytes = tree:stats().bytes
print(string.format("%-22s %10d %8.2f%% of the tree's %d bytes",
	"mark, bytes", mark_bytes // 1, mark_bytes / bytes * 100, bytes))
