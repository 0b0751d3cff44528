-- bench/replay.lua OUT.html [IDS] [OPS] - the replay page of OPS
-- operations (random removes and allocs, each a frame with its events) on
-- a tree of IDS IDs, written to OUT.html; prints its size and the time
-- taken to record and write it.  make bench runs it, then opens the page
-- in Chromium (bench/replay-load).
local idr = require "idr"

local out, ids, ops = arg[1], tonumber(arg[2] or 100000),
	tonumber(arg[3] or 1000)
math.randomseed(42)
local t = idr.new {}
local rec = idr.recorder { title = "bench: " .. ops .. " operations on " ..
	ids .. " IDs" }
local clock = os.clock()
for i = 1, ids do t:alloc(i) end
rec:frame { tree = t, command = "(" .. ids .. " allocs)" }
for i = 1, ops do
	local cmd, evs, r
	-- Two removes an alloc: the tree thins out, and changes shape.
	if i % 3 ~= 0 then
		local id = math.random(0, ids - 1)
		cmd = "remove " .. id
		evs, r = t:events(t.remove, t, id)
	else
		cmd = "alloc op" .. i
		evs, r = t:events(t.alloc, t, "op" .. i)
	end
	rec:frame { tree = t, command = cmd, output = tostring(r) .. "\n",
		events = evs }
end
local recorded = os.clock() - clock
local page = rec:html()
local f = assert(io.open(out, "w"))
assert(f:write(page))
assert(f:close())
print(string.format("replay page: %d frames, %d node rows stored, " ..
	"%.2f MB (%d bytes); recorded in %.2f s, written in %.2f s",
	rec:count(), #rec.rows, #page / 1e6, #page, recorded,
	os.clock() - clock - recorded))
