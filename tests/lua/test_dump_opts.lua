-- t:dump{} options: each one works on the text, each is checked, with
-- the first invalid value on each side of its range refused; and the
-- numbers t:stats() adds to compare a tree with a flat array.
local idr = require "idr"

local function raises(want, f)
	local ok, err = pcall(f)
	assert(not ok, "no error; wanted: " .. want)
	assert(tostring(err):find(want, 1, true),
		"got: " .. tostring(err) .. "; expected: " .. want)
end

local function ends(s, tail)
	return s:sub(-#tail) == tail
end

local function lines(s)
	local n = 0
	for _ in s:gmatch("\n") do n = n + 1 end
	return n
end

local t = idr.new()
for i = 0, 99999 do assert(t:alloc("v") == i) end

-- depth: one level drawn, the children as runs.
local d1 = t:dump { depth = 1 }
assert(d1:find("\n  L1 0..98303: 24 full nodes\n  L1 98304..102399: 1 node " ..
	"with room\n$"), d1)
-- at: only the way down to 70000, and its leaf.
local at = t:dump { at = 70000, entries = 2 }
assert(at:find("\n    L0 69952..70015  64/64\n", 1, true), at)
assert(ends(at, "69952:v 69953:v (+62 more)\n"), at)
assert(not at:find("full nodes", 1, true), at)
-- range: the nodes and entries of those IDs only.
local r = t:dump { range = { 99990, 99993 } }
assert(r:find("\n      99990:v 99991:v 99992:v 99993:v\n$"), r)
-- A leaf in the range that holds none of its IDs says so, where it had
-- a blank line.
local two = idr.new()
two:alloc("a", 10)
two:alloc("b", 50)
local none = two:dump { range = { 20, 30 } }
assert(none:find("\n  %(none of its IDs in 20..30%)\n$"), none)
-- entries: how many of a leaf's entries.
assert(t:dump { at = 5, entries = 64 }:find(" 63:v\n$"))
assert(ends(t:dump { at = 5 }, " 7:v (+56 more)\n"))
-- full: every node (1589 of them, two lines each, and the entries).
local full = t:dump { full = true }
assert(select(2, full:gsub("\n *L0 ", "")) == 1563, "every leaf")
assert(lines(t:dump()) == 11 and lines(full) > 1589 * 2)
-- max_lines: collapsed to fit, the last line saying how to see more.
local ml = t:dump { max_lines = 6 }
assert(lines(ml) <= 6, ml)
assert(ml:find("levels shown; more: full, depth, at, range%)\n$"), ml)
assert(t:dump { max_lines = 2 }:find("^idr: 100000 IDs[^\n]*\n%(1 of 3 levels"))
-- max_nodes: a text dump stops after that many nodes, and says so.
assert(t:dump { max_nodes = 1 }:find("(stopped after 1 node: max_nodes)\n",
	1, true))
-- Past max_nodes no line more: a gap or run drawn there would stand
-- where the nodes left out belong (the C dump stops so too).
local gaps = idr.new()
for _, id in ipairs { 0, 5000, 9000, 20000, 30000 } do
	gaps:alloc(id, id, id + 1)
end
local cut = gaps:dump { max_nodes = 2 }
assert(not cut:find("empty slot", 1, true), cut)
assert(cut:find("L1 0..4095[^\n]*\n[^\n]*\n%(stopped after 2 nodes"), cut)
-- entries and max_entries, its older name, are one option.
assert(t:dump { max_entries = 3 } == t:dump { entries = 3 })

-- Each option's range: the first invalid value on each side.
local bad = {
	{ "depth must be an integer in [1, 34]", { depth = 0 } },
	{ "depth must be an integer in [1, 34]", { depth = 35 } },
	{ "entries must be an integer in [1, 64]", { entries = 0 } },
	{ "entries must be an integer in [1, 64]", { entries = 65 } },
	{ "max_entries must be an integer in [1, 64]", { max_entries = 0 } },
	{ "max_entries must be an integer in [1, 64]", { max_entries = 65 } },
	{ "max_lines must be an integer in [2, 2147483647]", { max_lines = 1 } },
	{ "max_lines must be an integer in [2, 2147483647]",
		{ max_lines = 2147483648 } },
	{ "max_nodes must be an integer in [1, 2147483647]", { max_nodes = 0 } },
	{ "max_nodes must be an integer in [1, 2147483647]",
		{ max_nodes = 2147483648 } },
	{ "at must be an integer in [0, 4294967295]", { at = -1 } },
	{ "at must be an integer in [0, 4294967295]", { at = 4294967296 } },
	{ "range must hold two integers in [0, 4294967295]", { range = { -1, 5 } } },
	{ "range must hold two integers in [0, 4294967295]",
		{ range = { 0, 4294967296 } } },
	{ "range { FIRST, LAST } must have FIRST <= LAST", { range = { 5, 4 } } },
	{ "range must be a table { FIRST, LAST }", { range = { 5 } } },
	{ "range must be a table { FIRST, LAST }", { range = "1-2" } },
	{ "depth must be an integer in [1, 34]", { depth = 1.5 } },
	{ "full must be a boolean, not number", { full = 1 } },
	{ "unknown option 'dept'", { dept = 2 } },
	{ "unknown option '1'", { 2 } },
	{ "entries and max_entries: give one, not both",
		{ entries = 2, max_entries = 2 } },
	{ "at and range: give one, not both", { at = 1, range = { 1, 2 } } },
	{ "full and depth: give one, not both", { full = true, depth = 1 } },
}
for _, case in ipairs(bad) do
	raises("bad argument #1 to 'dump' (" .. case[1] .. ")",
		function() return t:dump(case[2]) end)
end
-- The last valid values on each side work.
for _, o in ipairs {
	{ depth = 1 }, { depth = 34 }, { entries = 1 }, { entries = 64 },
	{ max_lines = 2 }, { max_lines = 2147483647 }, { max_nodes = 1 },
	{ at = 0 }, { at = 4294967295 }, { range = { 0, 0 } },
	{ range = { 4294967295, 4294967295 } }, { full = false },
} do
	assert(type(t:dump(o)) == "string")
end
assert(t:dump { at = 4294967295 }:find("(no node below holds ID 4294967295",
	1, true))
-- The same on an IDA.
local a = idr.ida()
for _ = 1, 5000 do a:alloc() end
assert(a:dump { depth = 1, entries = 1 }:find("0..4095:4096 (+1 more)", 1, true))
raises("depth must be an integer in [1, 34]",
	function() return a:dump { depth = 0 } end)

-- Values as 'list' quotes them.
local q = idr.new()
q:alloc("two words")
q:alloc("")
q:alloc('say "hi"')
q:alloc("plain")
q:alloc(string.rep("é", 30))
-- A long value is cut, never inside a UTF-8 character.
assert(q:dump():find('0:"two words" 1:"" 2:"say \\"hi\\"" 3:plain\n  4:' ..
	string.rep("é", 18) .. "...\n", 1, true), q:dump())

-- stats: how full each level is, and against flat arrays.
local st = t:stats()
assert(st.level_used[1] == 100000 and st.level_slots[1] == 1563 * 64)
assert(st.level_used[2] == 1563 and st.level_slots[2] == 25 * 64)
assert(st.level_used[3] == 25 and st.level_slots[3] == 64)
assert(st.flat_bytes == 100000 * 8 and st.bitmap_bytes == nil)
assert(math.abs(st.flat_ratio - st.bytes / 800000) < 1e-12)
local text = t:stats_text()
assert(text:find("\nslots in use, by level %(# = 4%%%):\n" ..
	"  L2   |#########                | 25 of 64 %(39%%%)\n"), text)
assert(text:find("\nflat pointer array: 800000 bytes (IDs 0..99999, 8 bytes " ..
	"an ID)\ntree / flat pointer array: 1.06\n", 1, true), text)
local based = idr.new { base = 10 }
based:alloc("x", 19)
assert(based:stats().flat_bytes == 10 * 8)
local as = a:stats()
assert(as.bitmap_bits == 2 * 4096, "two bitmaps of 4096 IDs")
assert(as.bitmap_bytes == 625 and as.flat_bytes == 5000 * 8)
assert(a:stats_text():find("\n  bits |", 1, true))
assert(a:stats_text():find("\ntree / flat bitmap: ", 1, true))
local empty = idr.new():stats()
assert(empty.flat_bytes == nil and #empty.level_used == 0)
assert(not idr.new():stats_text():find("flat", 1, true))

-- write: the dump goes to write(chunk) as it is made, in pieces, and
-- reads the same as the text t:dump returns; an error in write stops it.
local big = idr.new()
for i = 0, 19999 do big:alloc(i) end
for i = 1, 200 do big:alloc(i, i * 1000003) end
for _, o in ipairs { { full = true }, { depth = 2 }, { max_lines = 12 },
	{ at = 5000 } } do
	local pieces = {}
	o.write = function(s) pieces[#pieces + 1] = s end
	assert(big:dump(o) == true)
	o.write = nil
	assert(table.concat(pieces) == big:dump(o))
	if o.full then assert(#pieces > 1, "a long dump goes in pieces") end
end
local calls = 0
local stopped, why = pcall(big.dump, big, { full = true, write = function()
	calls = calls + 1
	error("reader gone")
end })
assert(not stopped and why:find("reader gone") and calls == 1)
local took, msg = pcall(big.dump, big, { write = 5 })
assert(not took and msg:find("write must be a function, not number"), msg)
