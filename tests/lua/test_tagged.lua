-- Generation-tagged IDs: tagged = (generation << id_bits) | id; a stale
-- tag is refused with ESTALE, one never handed out with ENOENT.
local idr = require "idr"

local t = idr.new { tagged = { id_bits = 16 } }
local a = t:alloc_tagged("a")
assert(a == 0, "generation 0 at first")
local b = t:alloc_tagged("b")
assert(b == 1)
assert(t:check(a) == true and t:find_tagged(a) == "a")
assert(select("#", t:untag(a)) == 2)

-- Free and reuse the slot: a new generation, the old tag is stale.
assert(t:remove_tagged(a) == "a")
local ok, msg, code = t:check(a)
assert(ok == nil and code == "ESTALE" and code == idr.ESTALE and msg)
assert(msg == "stale tagged id 0")
local a2 = t:alloc_tagged("a2")
assert(a2 == (1 << 16) | 0, a2)
local id, gen = t:untag(a2)
assert(id == 0 and gen == 1)
assert(t:check(a2) and t:find_tagged(a2) == "a2")
ok, msg, code = t:find_tagged(a)
assert(ok == nil and code == "ESTALE" and msg == "stale tagged id 0")
-- A stale remove changes nothing.
local before = t:dump()
ok, msg, code = t:remove_tagged(a)
assert(ok == nil and code == "ESTALE" and msg)
assert(t:dump() == before and t:find_tagged(a2) == "a2" and #t == 2)

-- Plain calls ignore the tag bits, as the seed describes.
assert(t:find(a2) == "a2" and t:find(a) == "a2" and t:find(0) == "a2")

-- ENOENT: a slot that is free and was never handed out with this tag.
ok, msg, code = t:check(5)
assert(ok == nil and code == "ENOENT" and msg == "no such tagged id 5")
assert(select(3, t:find_tagged(5)) == "ENOENT")
assert(select(3, t:remove_tagged(5)) == "ENOENT")
assert(select(3, t:check((1 << 16) | 5)) == "ESTALE")
-- Emptied, a tagged tree keeps its leaf and so each slot's generation.
t:remove(0)
t:remove(1)
assert(t:is_empty() and t:stats().nodes == 1)
assert(select(3, t:check(a2)) == "ESTALE")
assert(select(3, t:check(b)) == "ESTALE")
local b2 = t:alloc_tagged("b2", 1)
assert(select(2, t:untag(b2)) == 1, "slot 1's own next generation")
assert(b2 ~= b and t:check(b2))

-- Reserved tagged IDs: nil values.
local r = t:alloc_tagged(nil)
assert(t:check(r) and t:find_tagged(r) == nil)
assert(select("#", t:find_tagged(r)) == 1)
assert(t:remove_tagged(r) == nil and select(3, t:check(r)) == "ESTALE")

-- Ranges are untagged IDs, below 2^id_bits.
local s = idr.new { tagged = { id_bits = 4 } }
for i = 0, 15 do assert(s:alloc_tagged(i) & 15 == i) end
ok, msg, code = s:alloc_tagged("x")
assert(ok == nil and code == "ENOSPC")
assert(select(3, s:alloc_tagged("x", 16)) == "ENOSPC")
assert(select(3, s:alloc("x")) == "ENOSPC")
-- The message names the IDs the call could have had, not "at or above".
assert(msg == "no free id in [0, 16)", msg)
assert(select(2, s:alloc("x", 3, 99)) == "no free id in [3, 16)")
assert(select(2, s:alloc_cyclic("x")) == "no free id in [0, 16)")
assert(select(2, s:alloc_u32("x")) == "no free id in [0, 15]")
assert(select(2, s:alloc_u32("x", 2, 9)) == "no free id in [2, 9]")
assert(s:validate())

-- Generations wrap without retire: 31 - 28 = 3 bits, 8 generations.
local w = idr.new { tagged = { id_bits = 28 } }
local first = w:alloc_tagged("g0")
local tags = { first }
for i = 1, 8 do
	w:remove_tagged(tags[#tags])
	tags[#tags + 1] = w:alloc_tagged("g" .. i)
end
assert(tags[9] == first, "wrapped to the same tag")
assert(select(2, w:untag(tags[8])) == 7)

-- With retire, a slot whose generations are used up is never reused.
local x = idr.new { tagged = { id_bits = 29, retire = true } }
for g = 0, 3 do
	local tid = x:alloc_tagged("v")
	assert(x:untag(tid) == 0 and select(2, x:untag(tid)) == g)
	assert(x:remove_tagged(tid) == "v")
end
assert(x:alloc_tagged("next") & ((1 << 29) - 1) == 1, "0 is retired")
local st = x:stats()
assert(st.retired == 1 and st.ids == 1 and #x == 1)
assert(x:path(0)["end"] == "retired")
assert(select(3, x:check(0)) == "ESTALE")
assert(select(3, x:replace(0, "x")) == "ENOENT")
assert(x:find(0) == nil)
assert(x:dump():find("retire"))
assert(x:validate())

-- tagged = true takes 16 ID bits; the tag is in the dump.
local y = idr.new { tagged = true }
local big = y:alloc_tagged("v", 65535)
assert(big == 65535)
assert(select(3, y:alloc_tagged("v", 65536)) == "ENOSPC")
assert(y:dump():find("tagged: 16 ID bits", 1, true))
assert(y:dump():find("65535:v@g0", 1, true))

-- A base and tags together.
local z = idr.new { base = 10, tagged = { id_bits = 8 } }
local zt = z:alloc_tagged("z")
assert(zt == 10 and z:find_tagged(zt) == "z")
z:remove_tagged(zt)
local zt2 = z:alloc_tagged("z2")
assert(zt2 == (1 << 8) | 10 and z:find(zt2) == "z2")
assert(select(3, z:check(5)) == "ENOENT", "below the base")

-- Plain allocation on a tagged idr hands out plain IDs, and replace and
-- remove on them keep the values table in step.
local p = idr.new { tagged = { id_bits = 10 } }
assert(p:alloc("plain") == 0)
local pt = (0 << 10) | 0
assert(p:check(pt) and p:find_tagged(pt) == "plain")
assert(p:replace((3 << 10) | 0, "replaced") == "plain")
assert(p:find_tagged(pt) == "replaced")
for id2, v in pairs(p) do assert(id2 == 0 and v == "replaced") end
assert(p:remove(0) == "replaced" and p:is_empty())
assert(select(3, p:check(pt)) == "ESTALE")

-- A value that cannot be stored gives its fresh tagged ID back with the
-- generation it had: with 1 generation bit and retire, ID 0 is still
-- handed out twice (0, then 1 << 30) before it retires.  The store is
-- made to fail by calling alloc_tagged just below Lua's C-stack limit
-- (each pcall is one C level): there the store's own pcall overflows,
-- after the C allocation.  oom.lua does the same with a memory error.
local function at_depth(n, f)
	if n == 0 then return pcall(f) end
	return select(2, pcall(at_depth, n - 1, f))
end
local function handed_out_0(tree)
	local times = 0
	for _ = 1, 4 do
		local tid = tree:alloc_tagged("again")
		if not tid or tree:untag(tid) ~= 0 then break end
		times = times + 1
		assert(tree:remove_tagged(tid) == "again")
	end
	return times
end
local rolled_back = false
for n = 1, 400 do
	local tree = idr.new { tagged = { id_bits = 30, retire = true } }
	local allocs = idr.mem().allocs
	local stored, err = at_depth(n, function()
		return tree:alloc_tagged("v")
	end)
	if stored == false and tostring(err):find("stack overflow") and
	    idr.mem().allocs > allocs then
		-- The C allocation happened, then the store failed.
		assert(tree:is_empty() and tree:validate())
		assert(handed_out_0(tree) == 2, "a failed store burnt a generation")
		rolled_back = true
		break
	end
end
assert(rolled_back, "no depth made the store fail")

-- unalloc gives an ID back as if never handed out: no generation burnt,
-- unlike remove; its value comes back, a free ID is ENOENT.
local u = idr.new { tagged = { id_bits = 4 } }
local keep = u:alloc_tagged("keep")
assert(u:alloc("v") == 1 and u:unalloc(1) == "v" and #u == 1)
assert(u:alloc_tagged("again") == 1, "generation 0 still")
assert(u:remove(1) == "again" and u:alloc_tagged("z") == (1 << 4) | 1)
local none, why, errno = u:unalloc(9)
assert(none == nil and why == "no such id 9" and errno == "ENOENT")
assert(u:find_tagged(keep) == "keep")

-- tagged_id: the tagged ID alloc_tagged gave a live ID, the next one's
-- for a free ID, the generation taken modulo 2^gen_bits (4 bits of ID,
-- 27 of generation: a counter set to 2^27 + 3 tags as 3).
local tw = idr.new { tagged = { id_bits = 4 } }
local handed = {}
for i = 1, 5 do handed[i] = tw:alloc_tagged(i) end
tw:remove_tagged(handed[2])
local again = tw:alloc_tagged("again")
assert(again == (1 << 4) | 1 and tw:tagged_id(1) == again)
assert(tw:tagged_id(0) == handed[1] and tw:tagged_id(4) == handed[5])
tw:remove_tagged(handed[3])
assert(tw:tagged_id(2) == (1 << 4) | 2, "a free slot: its next tag")
assert(tw:alloc_tagged("next", 2) == tw:tagged_id(2))
assert(tw:set_gen(9, (1 << 27) + 3) and tw:tagged_id(9) == 3 << 4 | 9)
assert(not pcall(tw.tagged_id, tw, 16), "past 2^id_bits - 1")
assert(not pcall(tw.tagged_id, tw, -1))
local not_tagged = select(2, pcall(idr.new().tagged_id, idr.new(), 0))
assert(not_tagged:find("not a tagged idr"), not_tagged)

-- path_text calls a tag current only at a live ID: a free slot's
-- generation is its next ID's, a slot with no leaf has the seed's.
local paths = idr.new { tagged = { id_bits = 8 } }
paths:alloc_tagged("a")
local free_path = paths:path_text(5)
assert(free_path:find("the slot is free, at generation 0: no tag of it " ..
	"is live; its next ID gets tag 0", 1, true), free_path)
assert(not free_path:find("current"), free_path)
assert(paths:path_text(0):find("tag 0 is current", 1, true))
assert(paths:path_text(1 << 8):find("tag 1 is not current (stale, or " ..
	"never handed out)", 1, true))
-- A retired slot is neither free nor leafless.
local worn = idr.new { tagged = { id_bits = 28, retire = true } }
for _ = 1, 8 do worn:remove(worn:alloc_tagged("w")) end
local retired = worn:path_text(0)
assert(retired:find("the slot is retired, at generation 8", 1, true),
	retired)
assert(paths:path_text(200):find("no leaf holds the slot: no tag of it is " ..
	"live; a new leaf starts at the seed, generation 0", 1, true))

-- A tagged idr keeps a leaf it emptied: the dump shows it, with no IDs.
local kept = idr.new { tagged = { id_bits = 8 } }
kept:remove_tagged(kept:alloc_tagged("a"))
local shown = kept:dump()
assert(shown:find("L0 0..63  0/64\n", 1, true), shown)
assert(shown:find("(no IDs: the leaf keeps its generations)", 1, true), shown)
