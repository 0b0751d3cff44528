-- The 2004 API: pre_get fills the idr's node cache, get_new takes from it
-- alone and says EAGAIN when it runs short.
local idr = require "idr"

-- A fresh idr has no cached node: -EAGAIN is visible.
local t = idr.new()
local id, msg, code = t:get_new("a")
assert(id == nil and code == "EAGAIN" and code == idr.EAGAIN)
assert(msg == "no node cached: call pre_get and retry")
assert(#t == 0 and t:validate())
assert(select(3, t:get_new_above("a", 100)) == "EAGAIN")

-- pre_get, then get_new works, from the cache.
assert(t:cache_count() == 0)
assert(t:pre_get() == true)
local cached = t:stats().cached
assert(cached > 0 and t:cache_count() == cached)
assert(t:get_new("a") == 0)
assert(t:stats().cached == cached - 1 and t:cache_count() == cached - 1)
-- In the same leaf no node is needed.
assert(t:get_new("b") == 1)
assert(t:get_new_above("c", 10) == 10)
assert(t:find(10) == "c" and t:find(1) == "b")

-- The retry loop of the article, written in Lua.
local function get_new(idr_, v, above)
	while true do
		if not idr_:pre_get() then
			return nil, "not enough memory", "ENOMEM"
		end
		local nid, m, c = idr_:get_new_above(v, above or 0)
		if c ~= "EAGAIN" then
			return nid, m, c
		end
	end
end

-- Another "thread" drains the cache between pre_get and get_new: here
-- idr_alloc, which takes cached nodes too.  A run of IDs, each new leaf
-- a whole node: an ID asked for alone would take a keyed block or a
-- packed leaf from malloc instead, and the cache would stay full.
local l = idr.new()
local again = 0
local function racy_get_new(v, above)
	assert(l:pre_get())
	while l:stats().cached > 0 do
		assert(l:alloc("thief", l:stats().highest + 1))
	end
	local nid, _, c = l:get_new_above(v, above)
	if c ~= "EAGAIN" then
		return nid
	end
	again = again + 1
	-- The thief is slow the second time round.
	assert(l:pre_get())
	nid, _, c = l:get_new_above(v, above)
	assert(c == nil)
	return nid
end
l:alloc("first")
local got = racy_get_new("mine", 200000)
assert(again == 1 and got == 200000 and l:find(got) == "mine")
assert(l:validate())

-- A failed get_new changes nothing.
local before = l:dump()
local nodes = #l
l:destroy()
l = idr.new()
assert(select(3, l:get_new_above("x", 5000)) == "EAGAIN")
assert(l:is_empty() and l:stats().nodes == 0)
assert(before ~= l:dump() and nodes > 0)

-- The loop copes with deep trees and high starting IDs.
local d = idr.new()
for i = 0, 30, 3 do
	local nid = get_new(d, "v" .. i, 1 << i)
	assert(nid == 1 << i, nid)
end
assert(#d == 11 and d:validate())

-- ENOSPC: no ID at or above the start.
local s = idr.new()
assert(get_new(s, "top", 2147483647) == 2147483647)
id, msg, code = get_new(s, "more", 2147483647)
assert(id == nil and code == "ENOSPC")
assert(msg == "no free id at or above 2147483647")
assert(get_new(s, "low") == 0)

-- The two APIs mix on one idr; reserved (nil) entries work too.
local m = idr.new()
assert(m:alloc("new API") == 0)
assert(m:pre_get())
assert(m:get_new() == 1 and m:get_new(nil) == 2)
assert(#m == 3 and m:find(1) == nil)
assert(m:alloc("x") == 3)
-- Removed nodes go back to the cache, which get_new can use.  (Whole
-- nodes: the 2004 API's; a lone ID's packed blocks go back to malloc.)
assert(m:pre_get())
assert(m:get_new_above("far", 100000) == 100000)
local c0 = m:stats().cached
m:remove(100000)
assert(m:stats().cached > c0)
assert(m:get_new_above("again", 100000) == 100000)
assert(m:validate())

-- get_new_above requires its start; get_new takes none.
assert(not pcall(m.get_new_above, m, "x"))
