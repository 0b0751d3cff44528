-- Stepping and diffs: t:event_text() draws an event's node with the
-- changed cell marked, t:mark() / t:diff() / t:diff_text() say what
-- changed.  The texts of a grow-and-shrink story must match
-- tests/golden/step.txt and tests/golden/diff.txt byte for byte.
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local G = require "golden"

local function golden(name, got)
	assert(got == G.want(name .. ".txt", got), name .. " differs; got:\n" .. got)
end

-- {======================== step ========================

local out = {}
local function say(...) out[#out + 1] = table.concat { ... } end

-- Each stepped operation: its title, then every event drawn.
local function steps(t, title, fn, ...)
	say("== " .. title .. "\n")
	local text, a, b = t:step_text(fn, ...)
	say(text)
	return a, b
end

local t = idr.new()
steps(t, "alloc into an empty tree: the first leaf", t.alloc, t, "a")
steps(t, "alloc at 70: the tree grows a level", t.alloc, t, "b", 70)
for _ = 1, 62 do t:alloc("v") end
steps(t, "alloc takes 63, the last free slot of leaf 0..63",
	t.alloc, t, "c")
steps(t, "alloc: 0..63 is full, the search goes right", t.alloc, t, "d")
steps(t, "remove 63: leaf 0..63 has room again", t.remove, t, 63)
steps(t, "remove 64 and 70: leaf 64..127 goes, the tree shrinks",
	function()
		t:remove(64)
		return t:remove(70)
	end)
t:alloc("x")
steps(t, "alloc from 5: leaf 0..63 is full, no room: the tree grows",
	t.alloc, t, "e", 5)
golden("step", table.concat(out))

-- A keyed block and a packed node's copy, told as what the operation's
-- events show together (marks.lua), not as a leaf slot and a new node.
out = {}
local k = idr.new()
k:alloc_u32("a", 1000000)
k:alloc_u32("b", 5000000)
steps(k, "a third lone ID far off: the packed top moves, a new block",
	k.alloc_u32, k, "e", 7000000)
steps(k, "a lone ID beside the first: the block is copied",
	k.alloc_u32, k, "c", 1000200)
steps(k, "a neighbour of 1000000: the block splits into a node",
	k.alloc_u32, k, "d", 1000001)
steps(k, "remove 5000000: its block is gone", k.remove, k, 5000000)
k:alloc_u32("f", 6999990)
steps(k, "find 6999990: a lookup through a keyed block", k.find, k, 6999990)
steps(k, "remove 6999990: the key is taken out in place", k.remove, k,
	6999990)
local told = table.concat(out)
golden("step_keyed", told)

-- A row is the node as it was just after its event: the block the split
-- replaces holds runs 9 and 12, as its copy and the new node do once
-- their leaves hang; the new node is empty when made; the slot of L2
-- that the new node takes held the block all along.
local function row_at(at)
	return assert(told:sub(at):match("\n[^\n]*\n  ([-+#.]+)\n"), at)
end
local function slots(list)
	local cells = {}
	for i = 1, 64 do cells[i] = "-" end
	for _, s in ipairs(list) do cells[s + 1] = "+" end
	return table.concat(cells)
end
local split = told:find("== a neighbour of 1000000", 1, true)
local function in_split(pattern)
	return row_at(assert(told:find(pattern, split), pattern))
end
assert(in_split("visit: the way down goes through keyed block L1 999424") ==
	slots { 9, 12 })
assert(in_split("node%-new: a node L1 999424") == slots {})
assert(in_split("node%-free: the keyed block L1 999424") == slots { 9, 12 })
assert(in_split("visit: the way down goes through L2 786432") ==
	slots { 52 })
-- In place: the block keeps its runs 62 and 63 until the key goes.
local kept = told:find("== remove 6999990", 1, true)
assert(row_at(told:find("visit: the way down goes through keyed block",
	kept, true)) == slots { 62, 63 })
assert(told:find("6999990 leaves the keyed block's sorted keys", kept,
	true))
for _, want in ipairs {
	"node%-new: node L3 0..16777215 was packed with no room left: a copy",
	"node%-free: the old block of node L3 0..16777215 leaves the tree",
	"node%-new: a new keyed block L1 6995968..7000063 joins the tree",
	"slot%-set: ID 7000000 joins the keyed block's sorted keys",
	"node%-new: a copy of keyed block L1 999424..1003519 is made",
	"node%-new: a node L1 999424..1003519 is made, with leaves, to " ..
		"take the keyed block's IDs",
	"slot%-set: leaf slot 1 %(ID 1000001%) now holds an entry",
	"slot%-clear: ID 5000000 leaves the keyed block's sorted keys",
	"node%-free: keyed block L1 4997120..5001215 holds no key now",
} do
	assert(told:find(want), want)
end
assert(not told:find("leaf slot 0 %(ID 7000000%)"), told)

-- The same text from idr.event_text() and t:event_text(); a cell per
-- slot; the changed cell marked under its column.
local five = idr.new()
local evs = five:events(five.alloc, five, "f", 5)
assert(evs[#evs].event == "done" and evs[#evs].result == 5)
local full = evs[#evs - 1]
assert(full.event == "full" and full.slot == 5)
assert(five:event_text(full) == idr.event_text(full))
local lines = {}
for l in idr.event_text(full):gmatch("[^\n]+") do lines[#lines + 1] = l end
assert(#lines == 5, #lines)
assert(lines[5]:find("^  kernel: "), lines[5])
assert(#lines[3] == 2 + 64 and lines[3]:sub(3 + 5, 3 + 5) == "#")
assert(lines[4]:find("^  %s%s%s%s%s%^ slot 5 %(ID 5%)$"), lines[4])
-- Node-less events: the sentence and the kernel's step; unknown ones
-- have no words (tests/lua/test_words.lua).
assert(idr.event_text { event = "malloc", nodes = 2, height = 1 } ==
	"malloc: 2 nodes allocated for this operation\n  kernel: " ..
	"radix_tree_node_alloc() -> kmem_cache_alloc(radix_tree_node_cachep)\n")
assert(not pcall(idr.event_text, { event = "later", name = "x", height = 1 }))
assert(idr.event_text { event = "op", op = "find", id = 7, start = 0 } ==
	"op: find begins (id 7)\n  kernel: idr_find() -> radix_tree_lookup(): " ..
	"called\n")
assert(idr.event_text { event = "done", op = "alloc", result = -28,
	errno = "ENOSPC" }:find("^done: alloc is over: it fails with ENOSPC\n"))
assert(not pcall(idr.event_text, "full"))
-- step_text hands fn's results back.
local text, id = five:step_text(five.alloc, five, "g")
assert(id == 0 and text:find("^step 1, op: alloc begins %(start 0, end 0%)\n" ..
	"  kernel: [^\n]*\nstep 2, visit: "), text)

-- }======================================================

-- {======================== diff ========================

out = {}
local d = idr.new()
for i = 1, 5 do d:alloc("v" .. i) end
local m = d:mark()

-- A mark is a compact snapshot: its facts as fields, its nodes as bytes.
assert(type(m) == "userdata" and m.kind == "idr" and m.count == 5)
assert(m.height == 1 and m.nodes == 1 and m.entries == true)
assert(m.values == 5 and m.bytes > 0 and m.bytes < 1000)
assert(m.nonsense == nil and tostring(m):find("^idr mark %(1 nodes"))
assert(not pcall(function() m.count = 1 end))

say("== no change\n", d:diff_text(m))
assert(#d:diff(m) == 0)
d:remove(2)
d:replace(3, "new value")
d:alloc("far", 5000)
d:alloc(nil, 6)
say("== remove, replace, alloc far away: the tree grows\n", d:diff_text(m))
say("== the same, three lines at most\n",
	d:diff_text(m, { max_lines = 3 }))

-- The structured list, in order: height, nodes in walk order, IDs.  ID
-- 5000 is a keyed block's: one node, its run of keys none.
local list = d:diff(m)
local kinds = {}
for i, c in ipairs(list) do kinds[i] = c.change end
assert(table.concat(kinds, " ") == "height node-new node-new bits " ..
	"node-new removed replaced added added",
	table.concat(kinds, " "))
assert(list[5].level == 1 and list[5].first == 4096 and list[5].keyed)
assert(list[1].from == 1 and list[1].to == 3)
local bits = list[4]
assert(bits.level == 0 and bits.first == 0 and bits.last == 63)
assert(#bits.present_cleared == 1 and bits.present_cleared[1] == 2)
assert(#bits.present_set == 1 and bits.present_set[1] == 6)
assert(list[7].id == 3 and list[7].from == "v4" and list[7].to == "new value")
-- A reserved ID is an ID: added, with a nil value.
assert(list[8].id == 6 and list[8].value == nil)
assert(list[9].id == 5000 and list[9].value == "far")

local m2 = d:mark()
d:remove(5000)
say("== remove 5000: the tree shrinks back\n", d:diff_text(m2))

-- An interior node's bits: a leaf filled, then opened.
local f = idr.new()
f:alloc("x", 100)
local m3 = f:mark()
for _ = 0, 63 do f:alloc("y") end
say("== fill leaf 0..63 under a two-level top\n", f:diff_text(m3))

-- An IDA: IDs, no values; runs of IDs take one line.
local a = idr.ida()
local ma = a:mark()
for _ = 1, 5000 do a:alloc() end
a:free(7)
assert(ma.kind == "ida" and ma.count == 0 and ma.height == 0)
say("== an IDA: 4999 IDs taken\n", a:diff_text(ma))

-- Past max_entries the mark keeps the shape only, and says so.
local big = idr.new()
for i = 1, 300 do big:alloc(i) end
local mb = big:mark { max_entries = 100 }
assert(mb.entries == false and mb.count == 300 and mb.values == 0)
big:remove(0)
say("== more entries than the mark keeps\n", big:diff_text(mb))
golden("diff", table.concat(out))

-- A big change stays a screenful: 40 lines, then how many more.
local huge = idr.new()
for _ = 1, 20000 do huge:alloc(true) end
local mh = huge:mark()
for i = 0, 19999, 2 do huge:remove(i) end
local shown = huge:diff_text(mh)
local n = select(2, shown:gsub("\n", ""))
assert(n == 42, n)
assert(shown:find("\n  %.%.%. and %d+ more changes not shown"), shown)
assert(#huge:diff(mh) > 10000)
local all = huge:diff_text(mh, { max_lines = 0 })
assert(select(2, all:gsub("\n", "")) > 10000)

-- A mark of another tree, or no mark, is a misuse.
local ok, err = pcall(d.diff, d, ma)
assert(not ok and err:find("the mark is of another tree"), err)
ok, err = pcall(d.diff_text, d, { nodes = {} })
assert(not ok and err:find("a mark expected"), err)
ok, err = pcall(d.diff, d, 5)
assert(not ok and err:find("a mark expected"), err)
ok, err = pcall(d.diff_text, d, m, { max_lines = -1 })
assert(not ok and err:find("max_lines"), err)
d:destroy()
assert(not pcall(d.diff, d, m))

-- }======================================================

-- The row after the first line of @text that has @what, from @from on.
local function row_of(told_text, what, from)
	local at = assert(told_text:find(what, from or 1, true), what)
	return assert(told_text:sub(at):match("\n[^\n]*\n  ([-+#.]+)\n"), what)
end

-- An RCU idr takes a key out of a block by a copy, after the slot-clear:
-- the block read and freed still holds the run the key leaves.
local r = idr.new { rcu = true }
for _, rid in ipairs { 1000000, 1000100, 1000200 } do
	r:alloc_u32("v", rid)
end
local rtext = r:step_text(function() return r:remove(1000100) end)
assert(row_of(rtext, "goes through keyed block L1 999424") ==
	slots { 9, 10, 12 }, rtext)
assert(row_of(rtext, "node-new: a copy of keyed block") == slots { 9, 12 })
assert(row_of(rtext, "node-free: the old keyed block") ==
	slots { 9, 10, 12 })
idr.rcu_barrier()

-- A split whose new ID starts a run the block did not have: still a
-- split, the block's rows its own.
local s = idr.new()
s:alloc_u32("v", 1000063)
s:alloc_u32("v", 1000128)
local stext = s:step_text(function() return s:alloc_u32("v", 1000064) end)
assert(row_of(stext, "goes through keyed block L1 999424") ==
	slots { 9, 11 }, stext)
assert(row_of(stext, "node-free: the keyed block L1 999424") ==
	slots { 9, 11 })
assert(stext:find("now holds the new node, in the keyed block's place", 1,
	true))

-- An RCU idr's packed L1 node copied without a child it frees is a node,
-- not a keyed block.
local p = idr.new { rcu = true }
p:alloc("v", 10)
p:alloc("v", 70)
local ptext = p:step_text(function() return p:remove(70) end)
assert(not ptext:find("keyed block"), ptext)
assert(ptext:find("node%-new: an RCU idr never changes packed node L1"))
idr.rcu_barrier()

-- Several operations in one list: each is read as the tree was then.
local ops = idr.new()
ops:alloc_u32("a", 1000000)
ops:alloc_u32("b", 1000100)
local mtext = ops:step_text(function()
	ops:find(1000100)
	return ops:alloc_u32("c", 1000001)
end)
local run = row_of(mtext, "reaches run L0 1000064..1000127 of the keyed block")
assert(run:sub(37, 37) == "#", mtext)
assert(row_of(mtext, "node-new: a new leaf L0 1000064..1000127") == run)

-- t:unalloc() and t:clear() are operations of their own (op and done):
-- the events of the operation before them are not read as theirs.
do
	local u = idr.new()
	u:alloc("v", 4772)
	local says = u:step_text(function()
		u:alloc_u32("v", 52, 52)
		u:unalloc(4772)
	end)
	assert(says:find("op: unalloc begins (id 4772)", 1, true), says)
	assert(says:find("a new node L1 0..4095 joins the tree\n", 1, true),
		says)
	assert(not says:find("keyed block's IDs", 1, true), says)
	assert(says:find("ID 4772 removed", 1, true), says)
	-- Leaf 0..63 before the clear: the full bits only, for the clear
	-- freed its nodes untraced.
	local c = idr.new()
	c:alloc("a")
	c:alloc("b", 100)
	says = c:step_text(function() c:alloc("c") c:clear() end)
	assert(says:find("op: destroy begins", 1, true), says)
	assert(says:find("L0 0..63  (# full, . not full)\n  ##....", 1, true),
		says)
	assert(not says:find("(# in use, . free)", 1, true), says)
	local ex = c:explain(c:events(c.clear, c))
	assert(ex:find("^idr_destroy%(%): give back every ID"), ex)
	assert(ex:find("Result: the tree is empty.", 1, true), ex)
	local ida = idr.ida()
	ida:alloc(5)
	local cleared = ida:events(ida.clear, ida)
	assert(cleared[1].op == "ida_destroy" and
		cleared[#cleared].event == "done", #cleared)
end

-- A split of a block of 8 runs: each run's leaf takes its keys; the new
-- ID's leaf, of a run the block did not have, is made after the block
-- goes, as any new leaf, and takes none.
do
	local sp = idr.new()
	for nth = 0, 7 do
		sp:alloc_u32("v", 1048576 + nth * 64, 1048576 + nth * 64)
	end
	local says = sp:step_text(sp.alloc_u32, sp, "v", 1049093, 1049093)
	local _, keyed = says:gsub("with the keyed block's IDs of its range", "")
	assert(keyed == 8, says)
	assert(says:find("node%-free: the keyed block L1 1048576..1052671 " ..
		"leaves the tree.-node%-new: a new leaf L0 1049088..1049151 " ..
		"joins the tree\n"), says)
end
