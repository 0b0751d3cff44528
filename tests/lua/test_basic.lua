-- The idr object: allocation, lookup, removal, replacement, the module.
local idr = require "idr"

assert(idr._VERSION == "idr 0.2.0")
for _, e in ipairs { "ENOSPC", "EAGAIN", "ENOMEM", "ENOENT", "ESTALE",
		"EINVAL", "EUCLEAN" } do
	assert(idr[e] == e)
end
assert(idr.IDA_BITMAP_BITS == 4096)
assert(type(idr.new) == "function" and type(idr.ida) == "function")
-- require sets no global (idrsh puts idr, trees and t in scope itself).
if rawget(_G, "trees") == nil then
	assert(rawget(_G, "idr") == nil)
end

-- The lowest free ID, from 0.
local t = idr.new()
assert(tostring(t):match("^idr %(0x%x+%)$"))
assert(t:is_empty() and #t == 0 and t:count() == 0)
assert(t:alloc("a") == 0)
assert(t:alloc("b") == 1)
assert(t:alloc("c") == 2)
assert(#t == 3 and not t:is_empty())
assert(t:find(0) == "a" and t:find(1) == "b" and t:find(2) == "c")
assert(t:find(3) == nil and t:find(4294967295) == nil)
assert(t:remove(1) == "b")
assert(t:find(1) == nil and #t == 2)
assert(t:alloc("d") == 1, "the freed ID is the lowest")
assert(t:find(1) == "d")

-- remove: the value, or nil, message and ENOENT if nothing was there.
local v, msg, code = t:remove(77)
assert(v == nil and msg == "no such id 77" and code == idr.ENOENT)
assert(#t == 3)

-- Ranges: [start, end), end <= 0 means no limit.
assert(t:alloc("x", 100, 200) == 100)
assert(t:alloc("y", 100, 200) == 101)
assert(t:alloc("z", 150) == 150)
assert(t:alloc("w", 150, 0) == 151)
assert(t:alloc("w", 150, -1) == 152)
v, msg, code = t:alloc("x", 100, 101)
assert(v == nil and msg == "no free id in [100, 101)" and code == "ENOSPC")
v, msg, code = t:alloc("x", 5, 5)
assert(v == nil and msg == "no free id in [5, 5)" and code == "ENOSPC")
assert(t:alloc("top", 2147483647) == 2147483647)
v, msg, code = t:alloc("x", 2147483647)
assert(v == nil and msg == "no free id at or above 2147483647")
assert(code == "ENOSPC")
assert(t:find(2147483647) == "top")
-- No ID is below the base: the message starts there, unless the range
-- asked for lies below it.
local top = idr.new { base = 2147483647 }
assert(top:alloc("only") == 2147483647)
assert(select(2, top:alloc("x")) == "no free id at or above 2147483647")
assert(select(2, top:alloc("x", 5, 0)) == "no free id at or above 2147483647")
assert(select(2, top:alloc("x", 5, 9)) == "no free id in [5, 9)")
assert(t:validate() == true)

-- Values: anything; nil reserves the ID (counted, found as nil).
local u = idr.new()
local tbl, fn, co = {}, print, coroutine.create(print)
assert(u:alloc(tbl) == 0 and u:alloc(fn) == 1 and u:alloc(co) == 2)
assert(u:alloc(false) == 3 and u:alloc(1.5) == 4 and u:alloc(u) == 5)
assert(u:alloc(nil) == 6 and u:alloc() == 7)
assert(#u == 8)
assert(u:find(0) == tbl and u:find(1) == fn and u:find(2) == co)
assert(u:find(3) == false and u:find(4) == 1.5 and u:find(5) == u)
assert(u:find(6) == nil and u:find(7) == nil)
local id, w = u:get_next(3)
assert(id == 3 and w == false, "false is a value, not a reservation")
id, w = u:get_next(6)
assert(id == nil and w == nil, "reserved IDs are skipped")
-- find tells a reserved ID (one nil) from a free one (nil, msg, ENOENT).
assert(select("#", u:find(6)) == 1)
v, msg, code = u:find(8)
assert(v == nil and msg == "no such id 8" and code == "ENOENT")
-- pairs{ reserved = true } visits reserved IDs too, their value nil.
local seen = {}
for i, x in u:pairs { reserved = true } do
	seen[#seen + 1] = i .. "=" .. tostring(x)
end
assert(table.concat(seen, " ", 6) == "5=" .. tostring(u) .. " 6=nil 7=nil")
-- Removing a reserved ID returns its nil value, and frees it.
v, msg = u:remove(6)
assert(v == nil and msg == nil and #u == 7)
assert(u:alloc("again") == 6)

-- replace: the old value; nil, message, ENOENT if the ID is free.
assert(u:replace(0, "new") == tbl and u:find(0) == "new")
assert(u:replace(7, "filled") == nil and u:find(7) == "filled")
assert(u:replace(7, nil) == "filled" and u:find(7) == nil and #u == 8)
assert(select("#", u:replace(7, nil)) == 1)
v, msg, code = u:replace(100, "x")
assert(v == nil and msg == "no such id 100" and code == "ENOENT")
assert(u:find(100) == nil and #u == 8)

-- get_next: the first non-nil entry at or above the ID.
local g = idr.new()
g:alloc("a", 10)
g:alloc(nil, 20)
g:alloc("c", 30)
assert(select(1, g:get_next(0)) == 10)
assert(select(2, g:get_next(11)) == "c")
assert(g:get_next(31) == nil)
assert(select("#", g:get_next(31)) == 1)

-- base: the lowest ID handed out.
local b = idr.new { base = 1 }
assert(b:alloc("one") == 1 and b:alloc("two") == 2)
assert(b:alloc("x", 0, 2) == nil)
assert(b:find(0) == nil)
assert(select(3, b:remove(0)) == "ENOENT")
assert(b:alloc("ten", 10) == 10 and b:find(10) == "ten")
assert(idr.new { base = 2147483647 }:alloc("z") == 2147483647)

-- alloc_cyclic: from the cursor, wrapping to start.
local c = idr.new()
assert(c:alloc_cyclic("a") == 0 and c:alloc_cyclic("b") == 1)
c:remove(0)
assert(c:alloc_cyclic("c") == 2, "not reused at once")
assert(c:get_cursor() == 3)
assert(c:alloc_cyclic("d", 0, 4) == 3)
assert(c:alloc_cyclic("e", 0, 4) == 0, "wrapped")
v, msg, code = c:alloc_cyclic("f", 0, 4)
assert(v == nil and msg == "no free id in [0, 4)" and code == "ENOSPC")
assert(c:get_cursor() == 1, "a failure leaves the cursor")
c:set_cursor(100)
assert(c:alloc_cyclic("g") == 100 and c:get_cursor() == 101)
assert(c:alloc_cyclic("h", 50, 60) == 50)

-- alloc_u32: [start, max], up to 2^32 - 1.
local w32 = idr.new()
assert(w32:alloc_u32("a", 4294967295, 4294967295) == 4294967295)
assert(w32:find(4294967295) == "a")
assert(w32:alloc_u32("b", 2147483648) == 2147483648)
assert(w32:alloc_u32("c") == 0)
v, msg, code = w32:alloc_u32("d", 4294967295, 4294967295)
assert(v == nil and msg == "no free id in [4294967295, 4294967295]")
assert(code == "ENOSPC")
assert(w32:alloc_u32("e", 10, 9) == nil)
assert(select(2, w32:get_next(2147483648)) == "b")
assert(w32:remove(4294967295) == "a")
assert(w32:validate())

-- Numbers that are integers in another guise are accepted.
local n = idr.new()
assert(n:alloc("s", "7") == 7 and n:alloc("f", 8.0) == 8)
assert(n:find("7") == "s" and n:find(8.0) == "f")

-- destroy: everything goes, later use raises, destroying twice is fine.
local d = idr.new()
d:alloc("a")
d:destroy()
d:destroy()
assert(tostring(d) == "idr (destroyed)")
