-- The IDA: IDs without values, one bit each.
local idr = require "idr"

local a = idr.ida()
assert(tostring(a):match("^ida %(0x%x+%)$"))
assert(a:is_empty() and #a == 0 and a:count() == 0)
assert(a:alloc() == 0 and a:alloc() == 1 and a:alloc() == 2)
assert(#a == 3 and not a:is_empty())
assert(a:exists(1) and not a:exists(3))
assert(a:free(1) == true and not a:exists(1))
local ok, msg, code = a:free(1)
assert(ok == nil and code == "ENOENT" and msg == "id 1 is not allocated")
assert(a:alloc() == 1, "lowest free")

-- [min, max], max inclusive.
assert(a:alloc(100) == 100 and a:alloc(100) == 101)
assert(a:alloc(50, 50) == 50)
ok, msg, code = a:alloc(50, 50)
assert(ok == nil and code == "ENOSPC" and msg == "no free id in [50, 50]")
assert(select(3, a:alloc(10, 5)) == "ENOSPC")
-- Above INT_MAX means INT_MAX, as in C.
assert(a:alloc(2147483647, 4294967295) == 2147483647)
assert(select(3, a:alloc(2147483647)) == "ENOSPC")
assert(select(3, a:alloc(2147483648)) == "ENOSPC")
assert(a:exists(2147483647) and not a:exists(4294967295))
assert(select(3, a:free(4294967295)) == "ENOENT")

-- Across bitmaps.
local bits = idr.IDA_BITMAP_BITS
local b = idr.ida()
for i = 0, bits do assert(b:alloc() == i) end
assert(#b == bits + 1 and b:validate())
assert(b:stats().aux_nodes == 2, "two bitmaps")
assert(b:free(bits))
assert(b:stats().aux_nodes == 1, "an empty bitmap is freed")
assert(b:alloc(bits * 10 + 7) == bits * 10 + 7)
assert(b:validate())

-- find_first.
assert(b:find_first() == 0)
assert(b:find_first(bits) == bits * 10 + 7)
ok, msg, code = b:find_first(bits * 10 + 8)
assert(ok == nil and code == "ENOENT")
assert(msg == "no id in [" .. (bits * 10 + 8) .. ", 2147483647]")
assert(select(3, b:find_first(5, 4)) == "ENOENT")
assert(b:find_first(5, 5) == 5)
ok, msg, code = b:find_first(2147483648)
assert(ok == nil and code == "EINVAL" and msg)
assert(select(3, idr.ida():find_first()) == "ENOENT")

-- pairs: the allocated IDs, in order; safe while freeing.
local c = idr.ida()
for _, i in ipairs { 5, 1, 9000, 3, 2147483647 } do c:alloc(i, i) end
local got = {}
for i in pairs(c) do got[#got + 1] = i end
assert(table.concat(got, ",") == "1,3,5,9000,2147483647")
got = {}
for i in c:pairs() do
	got[#got + 1] = i
	c:free(i)
	c:free(9000)
end
assert(table.concat(got, ",") == "1,3,5,2147483647")
assert(c:is_empty() and c:validate())

-- Dense: about a bit per ID.
local d = idr.ida()
for _ = 1, 20000 do d:alloc() end
local st = d:stats()
assert(st.ids == 20000 and st.lowest == 0 and st.highest == 19999)
assert(st.bytes < 20000, "far below a byte per ID: " .. st.bytes)
assert(d:validate())

-- Views.
local v = idr.ida()
v:alloc()
v:alloc(5000)
local text = v:dump()
assert(text:find("^ida: 2 IDs"))
assert(text:find("0..4095:1", 1, true) and text:find("4096..8191:1", 1, true))
assert(v:dot():find("^digraph ida {"))
local p = v:path(5000)
assert(p["end"] == "found" and p.ida == true and p.index == 1)
assert(p.bit == 5000 - 4096 and p.value == nil)
assert(v:path(5001)["end"] == "free-slot")
assert(v:path(1 << 30)["end"] == "above-top")
assert(idr.ida():path(0)["end"] == "empty")
assert(v:path_text(5000):find("bitmap 1, bit 904"))
assert(v:stats_text():find("bitmaps: 2"))
assert(v:validate() == true)

-- destroy: everything freed, later use raises; __close.
v:destroy()
v:destroy()
assert(tostring(v) == "ida (destroyed)")
assert(not pcall(v.alloc, v))
