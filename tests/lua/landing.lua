-- landing.lua - lands a finalizer inside a method, for the re-entry
-- tests (test_reentry.lua, test_diff_reentry.lua):
--
--   local inside = dofile(dir .. "/landing.lua")
--   assert(inside(make, gc, body [, sweep]))
--
-- make() makes the object; body(t, st) sets st.phase to "inside" just
-- before the method and to "after" just after it; gc(t, st) is what the
-- finalizer does when it runs inside.  Returns whether it landed.

-- One try: garbage with a __gc, then @pad allocations, then the body.
-- Returns the phase the finalizer ran in ("after" if it has not run
-- yet).  Two collections first, so that the last try's garbage and
-- what its finalizers kept are both gone.
local function try(pad, make, gc, body)
	collectgarbage("collect")
	collectgarbage("collect")
	local t, st = make(), { phase = "before" }
	local ran = "after"
	setmetatable({}, { __gc = function()
		ran = st.phase
		if ran == "inside" then gc(t, st) end
	end })
	for _ = 1, pad do local _ = {} end
	body(t, st)
	return ran
end

-- With a pause of 0 and the smallest step, the incremental collector
-- takes a step at nearly every allocation, so each padding allocation
-- moves the finalizer about one allocation earlier: bisect for the least
-- padding at which it no longer runs "after".  The debt earlier tries
-- left the collector can move the landing by an allocation or two, so
-- the paddings from a few below that one are tried until one lands
-- inside, or (@sweep) until the landings inside are over, each one
-- allocation earlier in the method: @body asserts at each.  (Counting on
-- chance instead, as test_reentry.lua once did, hit nothing when earlier
-- scripts in the same state had grown the heap.)
return function(make, gc, body, sweep)
	local mode = collectgarbage("incremental", 1, 100, 1)
	local lo, hi = -1, 0
	while try(hi, make, gc, body) == "after" do
		lo, hi = hi, 2 * hi + 1
	end
	while hi - lo > 1 do
		local mid = (lo + hi) // 2
		if try(mid, make, gc, body) == "after" then lo = mid else hi = mid end
	end
	local landed = false
	for pad = math.max(0, hi - 4), hi + 64 do
		if try(pad, make, gc, body) == "inside" then
			landed = true
			if not sweep then break end
		elseif landed then
			break
		end
	end
	collectgarbage("incremental", 200, 100, 13)	-- Lua's defaults again
	collectgarbage(mode)
	collectgarbage("collect")
	return landed
end
