-- Every method delivers or drops its events when it returns, count and
-- #a included: none wait in the buffer for the next method.
local idr = require "idr"

local a = idr.ida()
for i = 0, 199 do assert(a:alloc(i * idr.IDA_BITMAP_BITS) == i * idr.IDA_BITMAP_BITS) end

-- A trace function hears of each count, as of any other method.
local ops = {}
a:trace(function(ev) if ev.event == "op" then ops[#ops + 1] = ev.op end end)
assert(a:count() == 200 and #a == 200)
assert(table.concat(ops, " ") == "ida_count ida_count", table.concat(ops, " "))
a:trace(nil)

-- keep_events: the last operation is the count, not the one before it.
a:keep_events(true)
a:exists(0)
a:count()
local last = a:last_events()
assert(#last > 0 and last[1].op == "ida_count", last[1] and last[1].op)

-- ...and many counts hold no buffer that grows with them.
local function rss_kb()
	local f = io.open("/proc/self/statm")
	if not f then return nil end
	local pages = f:read("n") and f:read("n")
	f:close()
	return pages * 4
end
local before = rss_kb()
for _ = 1, 2000 do a:count() end
local after = rss_kb()
if before then
	assert(after - before < 16 * 1024, ("count grew memory by %d kB"):format(after - before))
end
a:keep_events(false)
a:destroy()
