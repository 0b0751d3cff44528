-- Keyed blocks in the views: a lone ID's L1 range keeps its few IDs as
-- sorted keys in one small block (src/node.h), and every view says so:
-- the node tables (keyed), DOT, stats, fold and explain.  (The dump and
-- the path: tests/golden/keyed.txt, test_views.lua.)
local idr = require "idr"

local function has(text, s) return text:find(s, 1, true) ~= nil end

local t = idr.new()
for _, id in ipairs { 0, 16777216, 100000, 100005, 100200, 300000 } do
	assert(t:alloc_u32(true, id, id) == id)
end

-- DOT: a keyed block and its runs are rounded boxes, with a legend line;
-- a tree of whole nodes has neither.
local dot = t:dot { at = 100005 }
assert(has(dot, '\tn1_98304 [label=<<TABLE BORDER="3" COLOR="#0072b2" ' ..
	'STYLE="rounded" '))
assert(has(dot, "<B>L1</B> 98304..102399  2/64 in use, keyed block of 3 " ..
	"IDs, room for 3</TD>"))
assert(has(dot, "<B>L0</B> 99968..100031  2/64 in use, in the keyed " ..
	"block (no leaf)</TD>"))
assert(has(dot, ">Rounded</FONT> boxes: a keyed block"))
local whole = idr.new()
for _ = 1, 100 do whole:alloc(true) end
assert(not has(whole:dot(), "rounded") and not has(whole:dot(), "Rounded"))

-- stats: keyed blocks are packed nodes, and the line says how many.
-- Every node is packed but ID 0's leaf (an empty tree's first ID below
-- 64 takes a whole one): the levels 16777216 added on top too.
assert(has(t:stats_text(), "\npacked nodes: 10\nkeyed blocks: 3\n" ..
	"IDs in keyed blocks: 5\n"))
assert(t:stats().keyed_blocks == 3 and t:stats().keyed_ids == 5)
-- A mark counts nodes as stats does: a run of keys is none.
assert(t:mark().nodes == t:stats().nodes)
assert(has(whole:stats_text(), "\npacked nodes: 0\n"))
-- The bars count no run of keys as a leaf: 1 leaf, 1 ID in it.
assert(has(t:stats_text(), "  L0   |#                        | 1 of 64 (1%)"))
-- A tree whose only ID is in a keyed block has no leaf, and says so.
local far = idr.new()
far:alloc(true, 1000000, 1000001)
assert(has(far:stats_text(), "  L1   |#                        | 1 of 64 (1%)\n" ..
	"  L0   no leaves: its IDs are in keyed blocks\n"))

-- fold: a block's children are runs of keys, not leaves.
local block = t:child(t:child(t:child(t:top(), 0), 0), 24)
assert(block.keyed == 3 and block.level == 1)
local words = {}
for _, r in ipairs(t:fold(block)) do words[#words + 1] = r.words end
assert(has(table.concat(words, ";"), "1 run of 2 keys"))

-- explain: a key into a block (a copy replaces it), a new block, a key
-- out, and the split past 8 IDs.
local ex = t:explain(function() t:alloc_u32(true, 100001, 100001) end)
assert(has(ex, "Keyed block L1 98304..102399: no slot full."))
assert(has(ex, "Keyed block L1 98304..102399 never changes in place"))
assert(has(ex, "Key 1697 (ID 100001) joins the keyed block's sorted keys"))
assert(not has(ex, "Leaf slot"))
ex = t:explain(function() t:alloc_u32(true, 200000, 200000) end)
assert(has(ex, "A new keyed block L1 196608..200703 hangs in slot 48 of " ..
	"the node L2 0..262143"))
ex = t:explain(function() t:remove(200000) end)
assert(has(ex, "Key 3392 (ID 200000) leaves the keyed block's sorted keys."))
assert(has(ex, "Keyed block L1 196608..200703 holds no key now"))
-- 100000, 100001, 100005, 100200 and four more: the block is full.
for _, id in ipairs { 100002, 100003, 100004, 100006 } do
	assert(t:alloc_u32(true, id, id) == id)
end
assert(t:child(t:child(t:child(t:top(), 0), 0), 24).keyed == 8)
ex = t:explain(function() t:alloc_u32(true, 100100, 100100) end)
-- Two leaves take the block's two runs of keys; 100100's own leaf, of
-- a run the block did not have, is a new leaf like any other.
assert(has(ex, "Keyed block L1 98304..102399 gives way: a node " ..
	"L1 98304..102399 and 2 leaves take its IDs"))
assert(has(ex, "A new leaf L0 100096..100159 hangs from slot 28 of the " ..
	"node L1 98304..102399"))
assert(has(ex, "Leaf slot 4 (ID 100100) now holds an entry."))
assert(t:child(t:child(t:child(t:top(), 0), 0), 24).keyed == nil)

t:destroy()
whole:destroy()
