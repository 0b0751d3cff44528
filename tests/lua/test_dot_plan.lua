-- The Graphviz picture, as the C unit tests pinned it down before the
-- planner moved to Lua (lua/view/dot.lua): a small tree's DOT byte for
-- byte (tests/golden/dot-small.dot), cells in slot order, the way to an
-- ID and the cells an operation changed, large trees held to a picture a
-- person can view, and what the width budget lets in, pinned for three
-- sparse pictures (tests/golden/dot-plans.txt).  Every edge of every
-- picture joins two declared nodes.
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local C = require "dot_cases"

-- @got must be tests/golden/@name; else the first line that differs.
local G = require "golden"

local function golden(name, got)
	local want = G.want(name, got)
	if got == want then return end
	local n, a, b = 0, got:gmatch("[^\n]*\n?"), want:gmatch("[^\n]*\n?")
	repeat
		local x, y = a(), b()
		n = n + 1
	until x ~= y
	error(("%s differs at line %d"):format(name, n), 2)
end

local function count(s, plain)
	local n, at = 0, 1
	while true do
		at = s:find(plain, at, true)
		if not at then return n end
		n, at = n + 1, at + 1
	end
end

local function has(s, plain)
	return s:find(plain, 1, true) ~= nil
end

-- The picture of @t with @o; a misnamed edge end would be drawn by
-- Graphviz as a stray box of its own: every one is declared.
local function dot(t, o)
	local text = t:dot(o)
	local declared = {}
	for name in text:gmatch("\n\t([%w_]+) %[") do declared[name] = true end
	for from, to in text:gmatch("\n\t([%w_]+)[:%w]* %-> ([%w_]+)") do
		assert(declared[from] and declared[to], "edge " .. from .. " -> " .. to)
	end
	return text
end

local TABLE = "[label=<<TABLE"
local ON_PATH = 'BORDER="3" COLOR="#0072b2"'
local DIAMOND = "\u{25c6}</FONT></TD>"
local TRIANGLE = "\u{25bc}</FONT></TD>"

-- A small tree, as a lesson draws it, with the way to 70 and the cells
-- 70's allocation changed: golden.
do
	local t, o = C.small()
	golden("dot-small.dot", dot(t, o))
end

-- Each slot a cell: one of five symbols, in slot order, hex over them.
do
	local t = idr.new()
	t:alloc("v", 0)
	t:alloc("v", 5)
	local text = dot(t)
	local s0, s1 = text:find('PORT="s0"', 1, true), text:find('PORT="s1"', 1, true)
	assert(text:find("\u{25cf}</TD>", s0, true) < s1)
	local s2 = text:find('PORT="s2"', 1, true)
	assert(text:find("\u{b7}</TD>", s1, true) < s2)
	local s5, s6 = text:find('PORT="s5"', 1, true), text:find('PORT="s6"', 1, true)
	assert(text:find("\u{25cf}</TD>", s5, true) < s6)
	-- Slots 0..3 full: 1000 is 8; 4..7: 0100 is 4, leftmost the high.
	assert(has(text, '<TD COLSPAN="4">8</TD><TD COLSPAN="4">4</TD>'))
	assert(has(text, "leftmost slot its high bit"))
end

-- The way to an ID: blue nodes and edges, a marker over each slot.
do
	local t = idr.new()
	t:alloc("v", 0)
	t:alloc("v", 70)
	local text = dot(t, { at = 70 })
	assert(count(text, ON_PATH) == 2)
	assert(has(text, '\tn0_0 [label=<<TABLE BORDER="0"'))
	assert(count(text, "penwidth=3") == 1)
	assert(has(text, "the way down to ID 70."))
	assert(count(text, TRIANGLE) == 2)
	assert(count(dot(t, { at = 100000 }), "#0072b2") == 0)
end

-- The cells an operation changed get a marker; visits change nothing.
-- A removal marks the freed slot, which then reads free.
do
	local t = idr.new()
	t:alloc("v", 0)
	t:alloc("v", 1)
	local ev = t:events(t.find, t, 1)
	assert(#ev > 0 and count(dot(t, { changed = ev }), DIAMOND) == 0)
	local text = dot(t, { changed = t:events(t.remove, t, 1) })
	assert(count(text, DIAMOND) == 1, "slot-clear and open: one cell")
	assert(has(text, 'PORT="s1" WIDTH="8" HEIGHT="12" FIXEDSIZE="TRUE" ' ..
		'BGCOLOR="#ffffff"'))
	assert(has(text, "a cell the last operation changed"))
end

-- A leaf's entries wrap at 100 characters: ten of nine and their nine
-- spaces (99) make one line, the eleventh starts the next.
do
	local t = idr.new()
	for id = 0, 10 do t:alloc(id < 10 and "1234567" or "123456", id) end
	local text = dot(t, { entries = 64 })
	assert(has(text, "0:1234567 1:1234567"))
	assert(count(text, "<BR/>1") == 1)
	assert(has(text, "9:1234567<BR/>10:123456"))
end

-- Only the events given mark cells.
do
	local t = idr.new()
	t:alloc("v", 1)
	local set = t:events(t.alloc, t, "v", 0)
	local clear = t:events(t.remove, t, 1)
	local two = {}
	for _, e in ipairs(clear) do
		if e.event == "slot-clear" then two[1] = e end
	end
	for _, e in ipairs(set) do
		if e.event == "slot-set" then two[2] = e end
	end
	assert(two[1].slot == 1 and two[2].slot == 0)
	assert(count(dot(t, { changed = two }), DIAMOND) == 2)
	assert(count(dot(t, { changed = { two[1] } }), DIAMOND) == 1)
end

-- 300,000 IDs in a row (four levels; tests/views.bats renders a million)
-- collapse to a handful of boxes; the way to one inside a collapsed run
-- is drawn all the same.
do
	local t = idr.new()
	for _ = 1, 300000 do t:alloc(true) end
	local text = dot(t)
	assert(count(text, TABLE) >= 2 and count(text, TABLE) <= 68)
	assert(count(text, 'collapsed"]') >= 1 and not has(text, "not drawn"))
	assert(has(text, "alike siblings, collapsed"))
	text = dot(t, { at = 150000 })
	assert(has(text, '\tn0_149952 [label=<<TABLE BORDER="3"'))
	assert(count(text, 'BORDER="3"') == 4 and t:census().height == 4)
	t:destroy()
end

-- IDs scattered over 31 bits: no alike siblings, so the children that do
-- not fit go into dotted boxes that count them: every node is drawn or
-- counted.  full draws every node, up to max_nodes.
do
	local t, o = C.sparse_31()
	local text = dot(t, o)
	local drawn, left = count(text, TABLE), 0
	for n in text:gmatch("not drawn\\n%((%d+)") do left = left + tonumber(n) end
	-- Nodes, as t:stats() counts them: a keyed block's runs of keys are
	-- drawn as boxes (rounded, at level 0) but are no nodes.
	local runs = 0
	for _ in text:gmatch('\n\tn0_%d+ %[label=<<TABLE[^\n]-STYLE="rounded"') do
		runs = runs + 1
	end
	assert(runs >= 1 and drawn - runs + left == t:stats().nodes)
	assert(left > 0 and drawn < 64)
	assert(has(text, "to keep the picture small"))
	assert(count(text, 'BORDER="3"') == t:census().height)
	text = dot(t, { at = 1234567, full = true, max_nodes = 100 })
	assert(count(text, TABLE) == 100 and has(text, "(max_nodes 100)"))
end

-- The way to an ID and a cell changed on it force the same nodes, once.
do
	local t = C.scatter(idr.new(), 1, 2147483647)
	local ev = t:events(t.alloc_u32, t, "v", 1234567, 1234567)
	local alone = count(dot(t, { at = 1234567 }), TABLE)
	local text = dot(t, { at = 1234567, changed = ev })
	assert(count(text, DIAMOND) >= 1)
	assert(alone > t:census().height and count(text, TABLE) == alone)
end

-- Five leaves under one top node: four fit the width, the fifth is left
-- out and counted in the singular; six leave two out.  The width left
-- them out, not max_nodes, and the legend does not blame it.
do
	local t = idr.new()
	for i = 0, 5 do
		t:alloc("v", i * 64)
		if i >= 4 then
			local text = dot(t)
			assert(has(text, i == 4 and "Dotted boxes: 1 node not drawn" or
				"Dotted boxes: 2 nodes not drawn"))
			assert(not has(text, "(max_nodes"))
		end
	end
end

-- Once a leaf is left out for want of width, the siblings after it are
-- too, even a run narrow enough for the room left: leaves 0-4 differ, 5
-- and 6 are full, a run of two.
do
	local t = idr.new()
	for leaf = 0, 6 do
		for i = 0, (leaf < 5 and leaf or 63) do t:alloc("v", leaf * 64 + i) end
	end
	local text = dot(t)
	assert(has(text, "Dotted boxes: 3 nodes not drawn"))
	assert(not has(text, "Dashed boxes"))
end

-- A sparse tree, the way to one ID and a cell changed far from it: both
-- leaves are drawn, though the picture leaves most nodes out.
do
	local t = C.scatter(idr.new(), 7, 2000000000)
	t:alloc_u32("v", 1234567, 1234567)
	local ev = t:events(t.alloc_u32, t, "v", 2000000000, 2000000000)
	local text = dot(t, { at = 1234567, changed = ev })
	assert(has(text, "to keep the picture small"))
	assert(has(text, "\tn0_1234560 [label=<"))
	assert(has(text, "\tn0_2000000000 [label=<"))
end

-- Runs of alike siblings are counted, one in the singular.
do
	local t = idr.new()
	for i = 0, 128 do t:alloc("v", i) end
	assert(has(dot(t), "Dashed boxes: 1 run of alike siblings"))
	for i = 192, 319 do t:alloc("v", i) end
	assert(has(dot(t), "Dashed boxes: 2 runs of alike siblings"))
end

-- Changed cells force the way down to them, two nodes a level at most:
-- of three far-apart leaves an operation changed, the third is left out.
do
	local t = C.scatter(idr.new(), 7, 2000000000)
	local set = {}
	for _, id in ipairs { 1000000000, 1500000000, 2000000000 } do
		for _, e in ipairs(t:events(t.alloc_u32, t, "v", id, id)) do
			if e.event == "slot-set" then set[#set + 1] = e end
		end
	end
	assert(#set == 3)
	local text = dot(t, { changed = set })
	assert(has(text, "to keep the picture small"))
	assert(has(text, "\tn0_1000000000 [label=<"))
	assert(has(text, "\tn0_1500000000 [label=<"))
	assert(not has(text, "\tn0_2000000000 [label=<"))
end

-- What the budget lets in, pinned for three sparse pictures: no
-- options, the way to one ID (present, and missing), and that way with
-- a cell changed far from it: the names of the nodes and boxes drawn.
do
	local plans = {}
	local function plan(title, text)
		local names = {}
		for name in text:gmatch("\n\t([%w]+_[%w_]*) %[") do
			names[#names + 1] = " " .. name
		end
		plans[#plans + 1] = title .. ":" .. table.concat(names) .. "\n"
	end
	local t = C.scatter(idr.new(), 1, 2147483647)
	t:alloc_u32("v", 1234567, 1234567)
	plan("sparse", dot(t))
	plan("sparse, at 1234567", dot(t, { at = 1234567 }))
	plan("sparse, at 5 (missing)", dot(t, { at = 5 }))
	t = C.scatter(idr.new(), 7, 2000000000)
	t:alloc_u32("v", 1234567, 1234567)
	local ev = t:events(t.alloc_u32, t, "v", 2000000000, 2000000000)
	plan("at 1234567, 2000000000 changed",
		dot(t, { at = 1234567, changed = ev }))
	golden("dot-plans.txt", table.concat(plans))
end

-- Growing for ID 64 changes the new top's slots 0 and 1 and the new
-- leaf's slot 0: a row of markers over those two nodes only.
do
	local t = idr.new()
	t:alloc("v", 0)
	local text = dot(t, { changed = t:events(t.alloc, t, "v", 64) })
	assert(count(text, '<TR><TD BORDER="0">') == 2)
	assert(count(text, DIAMOND) == 3)
end

-- An event whose range is upside down names no cell.
do
	local t = idr.new()
	t:alloc("v", 0)
	t:alloc("v", 1)
	local text = dot(t, { changed = { { event = "slot-set", level = 0,
		first = 1, last = 0, slot = 0 } } })
	assert(count(text, DIAMOND) == 0)
	assert(not has(text, "last operation changed"))
end

-- An IDA's bit taken in an existing bitmap marks that bitmap's cell.
do
	local a = idr.ida()
	a:alloc()
	assert(count(dot(a, { changed = a:events(a.alloc, a) }), DIAMOND) == 1)
end

-- A box of children not drawn names the IDs they cover, no more; the
-- nodes max_nodes leaves out are counted.
do
	local t = idr.new()
	for _, id in ipairs { 0, 64, 128 } do t:alloc("v", id) end
	assert(has(dot(t, { max_nodes = 1 }),
		'label="L0 0..191\\n3 subtrees not drawn\\n(3 nodes)"'))
	assert(has(dot(t, { max_nodes = 2 }),
		"2 subtrees not drawn\\n(2 nodes)"))
	assert(not has(dot(t, { max_nodes = 4 }), "not drawn"))
	local l, o = C.large()
	local text = dot(l, o)
	assert(count(text, TABLE) == 5 and has(text, "(max_nodes 5)"))
end

-- Entries: cut by entries, each line of them 100 characters at most.
do
	local t = idr.new()
	for i = 0, 2 do t:alloc(i) end
	assert(not has(dot(t, { entries = 3 }), "more"))
	assert(has(dot(t, { entries = 2 }), ">0:0 1:1 (+1 more)</TD>"))
end

-- The shortest runs: two full leaves, eight alike leaves; a run's box is
-- named and labelled at the level below its parent.
do
	local t = idr.new()
	for i = 0, 3 * 64 - 1 do t:alloc("v", i) end
	local text = dot(t)
	assert(has(text, '\tr0_0 [shape=box, style=dashed, label="L0 0..'))
	assert(has(text, "\tn1_0:s0:s -> r0_0:n "))
	assert(has(text, '\\nslots 0..2, collapsed"'))
	t = idr.new()
	for i = 0, 2 * 64 - 1 do t:alloc("v", i) end
	assert(has(dot(t), '\\nslots 0..1, collapsed"'))
	t = idr.new()
	for i = 0, 7 do t:alloc("v", i * 64) end
	assert(has(dot(t), '\\nslots 0..7, collapsed"'))
	t:alloc("v", 8 * 64)
	t:alloc("v", 8 * 64 + 1)
	assert(has(dot(t), '\\nslots 0..7, collapsed"'), "8 alike, then not")
end

-- An empty tree, and an IDA: a picture all the same.
do
	assert(has(dot(idr.new()), 'empty [label="(empty)"]'))
	local a = idr.ida()
	for _ = 1, 2 * 4096 + 2048 do a:alloc() end
	local text = dot(a)
	assert(text:find("^digraph ida {"))
	assert(has(text, 'BGCOLOR="#e69f00">\u{25a0}</TD>'))
	assert(has(text, 'PORT="s2" WIDTH="8" HEIGHT="12" FIXEDSIZE="TRUE" ' ..
		'BGCOLOR="#56b4e9"'))
end

-- A retired slot is a pink cross, and the key says so.
do
	local g = idr.new { tagged = { id_bits = 30, retire = true } }
	g:remove_tagged(g:alloc_tagged("x"))
	g:remove_tagged(g:alloc_tagged("y"))
	local text = dot(g)
	assert(has(text, 'BGCOLOR="#cc79a7">\u{d7}</TD>'))
	assert(has(text, ">retired</TD>"))
	assert(not has(dot(C.one()), ">retired</TD>"))
end
