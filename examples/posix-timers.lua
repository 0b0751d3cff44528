-- posix-timers.lua - stale timer IDs, caught two ways.
--
-- A process creates a POSIX timer, deletes it, and later calls
-- timer_settime() with the old ID: by then the ID may belong to a new
-- timer.  The kernel's POSIX timers (2.6 era) caught this with a trick:
-- the idr hands out small IDs, the caller puts a counter in the high bits
-- of the ID it gives to user space, keeps that full ID in the timer
-- object, and after a lookup (which ignores the high bits) compares the
-- two.  Part 1 plays that trick by hand on a tagged idr, whose plain
-- find ignores the bits above id_bits.  Part 2 lets the idr keep the
-- generations: alloc_tagged, find_tagged and check.
--
-- Run: LUA_CPATH_5_4='build/?.so;;' lua5.4 examples/posix-timers.lua

local idr = require "idr"

local ID_BITS = 16

print("== part 1: a counter in the high bits, compared after the lookup")

local timers = idr.new { tagged = { id_bits = ID_BITS } }
local counter = 0

local function timer_create(name)
	local timer = { name = name }
	local id = assert(timers:alloc(timer))
	counter = counter + 1
	timer.full_id = counter << ID_BITS | id
	return timer.full_id
end

-- find() ignores the high bits; the timer's own copy of the ID decides.
local function timer_lookup(full_id)
	local timer = timers:find(full_id)
	if timer == nil or timer.full_id ~= full_id then
		return nil
	end
	return timer
end

local function show(what, full_id, timer)
	print(string.format("%-26s %-8d (id %d, counter %d) -> %s", what,
		full_id, full_id & (1 << ID_BITS) - 1, full_id >> ID_BITS,
		timer and timer.name or "EINVAL: no such timer"))
end

local a = timer_create("alarm")
show("timer_create(alarm)", a, timer_lookup(a))
timers:remove(a) -- remove() ignores the high bits too
print("timer_delete(alarm)")
local b = timer_create("watchdog")
show("timer_create(watchdog)", b, timer_lookup(b))
show("timer_settime(old alarm)", a, timer_lookup(a))
print(string.format("find(%d) alone returns the %s timer: the same slot",
	a, timers:find(a).name))

print()
print("== part 2: the idr keeps the generations (alloc_tagged, check)")

local tagged = idr.new { tagged = { id_bits = ID_BITS } }

local function say(what, tid)
	local id, gen = tagged:untag(tid)
	local v, msg, err = tagged:find_tagged(tid)
	print(string.format("%-26s %-8d (id %d, generation %d) -> %s", what,
		tid, id, gen, v and v.name or (msg .. " (" .. err .. ")")))
end

local x = assert(tagged:alloc_tagged { name = "alarm" })
say("alloc_tagged(alarm)", x)
print("remove_tagged(" .. x .. ") -> " .. tagged:remove_tagged(x).name)
local y = assert(tagged:alloc_tagged { name = "watchdog" })
say("alloc_tagged(watchdog)", y)
say("find_tagged(old alarm)", x)
print("check(" .. y .. ") -> " .. tostring(tagged:check(y)))
local ok, msg, err = tagged:check(x)
print(string.format("check(%d) -> %s, %q, %s", x, ok, msg, err))
