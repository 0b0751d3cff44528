-- The node reader: t:top(), t:child(), t:next_child(), t:slot(),
-- t:nodes_under() and t:census(), the tree a node at a time as plain
-- tables; idr.BITS, idr.SLOTS and idr.EVENTS.  A node table kept while the tree changes is found again
-- (or refused as stale), never followed as a pointer; misuse raises.
local idr = require "idr"

local function raises(text, f, ...)
	local ok, err = pcall(f, ...)
	assert(not ok, "no error; expected: " .. text)
	err = tostring(err)
	assert(err:find(text, 1, true), "got: " .. err .. "; expected: " .. text)
end

assert(idr.BITS == 6 and idr.SLOTS == 64)
assert(idr.IDA_BITMAP_BITS == idr.SLOTS * 64)
assert(idr.EVENTS[1] == "visit" and #idr.EVENTS >= 26)

-- An empty tree has no top.
local t = idr.new()
assert(t:top() == nil)
local c = t:census()
assert(c.nodes == 0 and c.ids == 0 and c.retired == 0 and c.height == 0)

-- Two levels: IDs 0..99.
for i = 0, 99 do t:alloc(i) end
local top = t:top()
assert(top.depth == 0 and top.level == 1)
assert(top.first == 0 and top.last == 4095 and top.slots == 64)
assert(top.present == 3 and top.full == 1, top.present)
assert(top.packed == 0)
local fields = 0
for _ in pairs(top) do fields = fields + 1 end
assert(fields == 8, "eight fields: a hash part of eight")
assert(t:census().nodes == 3 and t:census().ids == 100)
-- Three: 5000 (reserved) and 70000.
t:alloc(nil, 5000)
t:alloc(true, 70000)
top = t:top()
assert(top.level == 2 and top.last == 262143 and top.present == 1 | 2 | 1 << 17)
-- 5000 and 70000, lone IDs, are in keyed blocks: a block each, no L1 node
-- and leaf; the top they made is packed.
assert(top.packed > 0)
assert(t:census().nodes == 6, t:census().nodes)
assert(t:census().nodes == t:stats().nodes and t:census().ids == 102)
assert(t:census().height == 3)

-- child: the node below a slot, or nil (an empty slot, a leaf).
local l1 = t:child(top, 0)
assert(l1.depth == 1 and l1.level == 1 and l1.first == 0 and l1.last == 4095)
assert(t:child(top, 2) == nil)
local leaf = t:child(l1, 1)
assert(leaf.level == 0 and leaf.first == 64 and leaf.present == (1 << 36) - 1)
assert(t:child(leaf, 0) == nil, "a leaf has no child")
-- next_child: the first child at or after a slot, and its slot.
local s, n = t:next_child(top, 2)
assert(s == 17 and n.first == 69632 and n.level == 1)
assert(t:next_child(top, 18) == nil)
assert(t:next_child(top, 64) == nil, "slots: none left")
assert(t:next_child(leaf, 0) == nil)

-- slot: what a slot holds.
local sl = t:slot(leaf, 3)
assert(sl.slot == 3 and sl.first == 67 and sl.last == 67)
assert(sl.present and sl.full and sl.value == 67 and not sl.reserved)
assert(sl.retired == false and sl.gen == nil and sl.bits == nil)
sl = t:slot(leaf, 40)
assert(not sl.present and not sl.full and sl.value == nil and not sl.reserved)
local _, l5000 = t:next_child(top, 1)
local _, lf = t:next_child(l5000, 0)
sl = t:slot(lf, 5000 - lf.first)
assert(sl.present and sl.reserved and sl.value == nil)
sl = t:slot(top, 1)
assert(sl.first == 4096 and sl.last == 8191 and sl.present and not sl.full)
assert(sl.value == nil and sl.reserved == nil, "an interior slot")

-- nodes_under: a subtree's nodes, counted in C, as idr_stats() counts
-- them: the keyed block of 70000 is one node, its run of keys none.
assert(t:nodes_under(l1) == 3 and t:nodes_under(top) == 6)
assert(t:nodes_under(l5000) == 1 and l5000.keyed == 1)
assert(t:nodes_under(top) == t:stats().nodes)
-- Counted no further than asked: past @most, more than @most, cut short.
assert(t:nodes_under(top, 6) == 6 and t:nodes_under(top, 0) == 1)
assert(t:nodes_under(top, 2) > 2 and t:nodes_under(top, 2) < 6)
raises("most must be 0 or more", t.nodes_under, t, top, -1)
local _, block = t:next_child(top, 17)
assert(block.keyed == 1 and block.packed >= 1 and block.level == 1)
local _, run = t:next_child(block, 0)
assert(run.keyed == 1 and run.level == 0 and run.first == 69952)
assert(t:nodes_under(block) == 1 and top.keyed == nil)
assert(t:nodes_under(leaf) == 1)

-- The same reader on an IDA: leaves hold bitmaps of IDA_BITMAP_BITS IDs.
local a = idr.ida()
for _ = 1, 5000 do a:alloc() end
local at = a:top()
assert(at.level == 0 and at.first == 0 and at.last == 64 * 4096 - 1)
assert(a:slot(at, 0).bits == 4096 and a:slot(at, 1).bits == 904)
assert(a:slot(at, 1).first == 4096 and a:slot(at, 1).last == 8191)
assert(a:slot(at, 1).value == nil and a:slot(at, 2).bits == 0)
assert(a:census().ids == 5000 and a:nodes_under(at) == 1)

-- A tagged idr: each leaf slot's generation; retired slots counted.
local g = idr.new { tagged = { id_bits = 30, retire = true } }
local id = g:alloc_tagged("x")
g:remove_tagged(id)
g:remove_tagged(g:alloc_tagged("y"))
local gl = g:top()
assert(g:slot(gl, 0).retired and g:slot(gl, 0).gen == 2)
assert(not g:slot(gl, 0).reserved and g:slot(gl, 0).present)
assert(g:census().retired == 1 and g:census().retired == g:stats().retired)

-- A node kept while the tree changed: found again by its level and
-- first ID, and read as it is now; gone, it is refused.
local big = idr.new()
for i = 0, 200 do big:alloc(i) end
local keep = big:child(big:top(), 3)
assert(keep.first == 192 and keep.present == (1 << 9) - 1)
big:remove(195)
assert(big:slot(keep, 3).present == false, "read as the tree is now")
assert(big:slot(keep, 2).value == 194)
big:alloc(nil, 100000)	-- grows a level: the leaf is one level deeper
assert(big:slot(keep, 2).value == 194)
assert(big:next_child(big:top(), 0) == 0)
for i = 192, 200 do big:remove(i) end
raises("stale node: the tree has no node L0 at ID 192 now",
	big.slot, big, keep, 0)
raises("stale node", big.child, big, keep, 0)
raises("stale node", big.nodes_under, big, keep)
-- A destroyed tree raises, as every method does.
big:destroy()
raises("attempt to use a destroyed idr", big.top, big)
raises("attempt to use a destroyed idr", big.slot, big, keep, 0)

-- Misuse: a clear error, never a crash.
raises("bad argument #2 to 'child' (64 out of range [0, 63])",
	function() return t:child(top, 64) end)
raises("bad argument #2 to 'child' (-1 out of range [0, 63])",
	function() return t:child(top, -1) end)
raises("bad argument #2 to 'next_child' (65 out of range [0, 64])",
	function() return t:next_child(top, 65) end)
raises("bad argument #2 to 'slot' (number expected, got no value)",
	function() return t:slot(top) end)
raises("number has no integer representation",
	function() return t:slot(top, 1.5) end)
raises("bad argument #1 to 'child' (table expected, got number)",
	function() return t:child(5, 1) end)
raises("bad argument #1 to 'slot' (node expected (a table from t:top() " ..
	"or t:child() with an integer level))",
	function() return t:slot({}, 1) end)
raises("with an integer first",
	function() return t:slot({ level = 0, first = -1 }, 1) end)
raises("with an integer level",
	function() return t:slot({ level = 1.5, first = 0 }, 1) end)
raises("stale node", function() return t:slot({ level = 9, first = 0 }, 1) end)
raises("stale node",
	function() return t:slot({ level = 0, first = math.maxinteger }, 1) end)
raises("stale node", function() return t:slot({ level = 0, first = 1 }, 1) end)
raises("idr or ida expected, got table",
	function() return t.top({}) end)
-- A node table of another tree names a place: read there, if any.
assert(t:slot(a:top(), 0).present)
-- Random tables, never a crash.
math.randomseed(28)
local values = { 0, 1, -1, 63, 64, 4095, 1 << 40, math.maxinteger,
	math.mininteger, 0.5, "7", {}, true }
for _ = 1, 2000 do
	local node = { level = values[math.random(#values)],
		first = values[math.random(#values)] }
	local m = ({ "child", "next_child", "slot", "nodes_under" })[math.random(4)]
	pcall(t[m], t, node, values[math.random(#values)])
end
assert(t:validate() and #t == 102)
