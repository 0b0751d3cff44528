-- The replay's recorder (lua/view/replay.lua): frames share what did not
-- change, and every text reaches the page escaped.
local idr = require "idr"

-- 300 operations on a tree of 20,000 IDs: each frame keeps the boxes it
-- draws, bounded, and names rows of node content stored once.
local t = idr.new {}
for i = 1, 20000 do t:alloc(i) end
local rec = idr.recorder { title = "share" }
rec:frame { tree = t, command = "setup" }
math.randomseed(7)
for i = 1, 300 do
	local evs
	if i % 2 == 1 then
		evs = t:events(t.remove, t, math.random(0, 19999))
	else
		evs = t:events(t.alloc, t, i)
	end
	assert(rec:frame { tree = t, command = "op", events = evs } == i + 1)
	local f, boxes = rec.frames[i + 1], rec:frame_boxes(i + 1)
	assert(#boxes <= 40, #boxes)
	-- The operation's leaf is drawn, hot, and the events name its box.
	local leaf
	for _, e in ipairs(f.e) do
		if e.a and not leaf then leaf = boxes[e.b] end
	end
	assert(leaf and leaf.h == 1 and rec.rows[leaf.r][1] == 0, i)
end
assert(rec:count() == 301)
-- A remove or alloc changes a leaf and the nodes above it; a frame's
-- other leaves are the rows of the frames before.
assert(#rec.rows < 301 * 4, "rows: " .. #rec.rows)
local page = rec:html()
assert(#page < 1500000, "page: " .. #page .. " bytes")

-- An event's cell: the character after it, and before.
do
	local u = idr.new()
	local r = idr.recorder()
	r:frame { tree = u, name = "u", events = u:events(u.alloc, u, "a") }
	local f, b = r.frames[1], r:frame_boxes(1)
	assert(f.nm == "u" and #b == 1 and b[1].h == 1)
	assert(r.rows[b[1].r][4]:sub(1, 2) == "#.")
	assert(r.rows[b[1].r][5][1] == "a", "the leaf's values, for the hover")
	local set
	for _, e in ipairs(f.e) do
		if e.a then set = e end
		if e.n == "new" then assert(e.b == 1) end
	end
	assert(set.b == 1 and set.s == 0 and set.a == "#" and set.z == ".")
end

-- Escaped: a value, a command, an output and a narration with markup.
local bad = "<script>alert(1)</script>&\"'"
local r2 = idr.recorder { title = bad }
local t2 = idr.new {}
r2:frame { tree = t2, command = bad, output = bad, narration = bad,
	events = t2:events(t2.alloc, t2, bad) }
local html = r2:html()
assert(not html:find("<script>alert", 1, true), "raw markup in the page")
assert(html:find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;",
	1, true), "the first frame's command, escaped")
assert(html:find('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u0026',
	1, true), "the data, escaped")
-- One inline script and one data block: nothing else runs or loads.
local scripts = 0
for _ in html:gmatch("<script") do scripts = scripts + 1 end
assert(scripts == 2, scripts)
assert(html:find("default-src 'none'", 1, true))

-- A frame without a tree, and amend.
local r3 = idr.recorder()
local n = r3:frame { command = "help" }
r3:amend(n, { output = "text" })
assert(r3.frames[n].o == "text" and r3.frames[n].t == false)
assert(r3:html():find("(no tree)", 1, true))

-- rec:watch: a frame a call up to the 1000th; the rest share one last
-- frame, of the tree as the last call left it, with their events counted.
local r4, w = idr.recorder(), idr.new {}
w:trace(function() end)
local ids = r4:watch(function()
	for i = 1, 1500 do w:alloc(i) end
	return #w
end)
assert(ids == 1500 and r4:count() == 1001, r4:count())
local last = r4.frames[1001]
assert(last.c == "[calls 1001 to 1500 of 1500, the last t:alloc(1500)]",
	last.c)
assert(last.m > 500 and last.t, last.m)
assert(r4.frames[1000].c == "t:alloc(1000)")
-- A second watch counts from 0 again; a short one has no shared frame.
r4:watch(function() w:remove(0) end)
assert(r4:count() == 1002 and r4.frames[1002].c == "t:remove(0)")

-- Every kind of event, on the page in words.lua's words (trace's line,
-- explain's sentence, the kernel's step): those words_workout causes, and
-- preload-take, shaped as test_words makes it.
do
	local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
	local workout = dofile(here .. "/words_workout.lua")
	local it, a, g = idr.new(), idr.ida(), idr.new { tagged = { id_bits = 16 } }
	local by = { ["preload-take"] = { event = "preload-take", nodes = 2,
		height = 1 } }
	local function keep(ev) by[ev.event] = by[ev.event] or ev end
	for _, x in ipairs { it, a, g } do x:trace(keep) end
	workout(it, a, g)
	for _, x in ipairs { it, a, g } do x:trace(nil) end
	local evs = {}
	for i, kind in ipairs(idr.EVENTS) do
		evs[i] = assert(by[kind], "no event of kind " .. kind)
	end
	local r = idr.recorder()
	r:frame { events = evs }
	local op = {}
	for i, ev in ipairs(evs) do
		if ev.event == "op" then op = ev end
		local words, e = idr.event_words(ev, op), r.frames[1].e[i]
		assert(e.w == words.line and e.x == words.text and
			e.k == words.kernel, ev.event)
	end
	assert(r:html():find("radix_tree_extend()", 1, true), "a kernel step")
end

-- What a removal frees is kept as ghosts, each under its parent (the old
-- top first, the new top hanging from its slot 0), and every event of
-- the operation names a box: the way down is drawn.
do
	local u = idr.new {}
	u:alloc("a")
	u:alloc("far", 5000)
	-- Whole nodes from the cache: a lone ID's keyed block has no leaf.
	assert(u:pre_get())
	assert(u:get_new_above("deep", 300000) == 300000)
	local r = idr.recorder()
	r:frame { tree = u, events = u:events(u.remove, u, 300000) }
	local f, b = r.frames[1], r:frame_boxes(1)
	local function box(level, first)
		for i, x in ipairs(b) do
			local row = r.rows[x.r or 0]
			if row and row[1] == level and row[2] == first then return i, x end
		end
	end
	local top, old = box(3, 0)
	assert(top == 1 and old.k == "g" and not old.p, "the old top, a ghost")
	local _, new = box(2, 0)
	assert(new.k == "n" and new.p == 1 and new.s == 0)
	local leaf, ghost = box(0, 299968)
	assert(ghost.k == "g" and b[ghost.p].k == "g" and ghost.s == 15)
	for _, e in ipairs(f.e) do
		if e.w:find("^visit") or e.w:find("^node%-free") then
			assert(e.b > 0, e.w)
		end
		if e.w:find("^node%-free level=0") then
			assert(e.b == leaf and e.n == "free")
		end
		-- The leaf's slot: in use before the event that frees it.
		if e.w:find("^slot%-clear") then
			assert(e.b == leaf and e.z == "#" and e.a == ".")
		end
	end
end

-- A frame tells a keyed block's events as step does (marks.lua): the key
-- joins the block's sorted keys; it is no leaf slot.
do
	local u = idr.new()
	u:alloc_u32("a", 1000000)
	local r = idr.recorder()
	r:frame { tree = u, events = u:events(u.alloc_u32, u, "b", 5000000) }
	local said = {}
	for _, e in ipairs(r.frames[1].e) do said[#said + 1] = e.x end
	said = table.concat(said, "\n")
	assert(said:find("ID 5000000 joins the keyed block's sorted keys", 1,
		true), said)
	assert(said:find("a new keyed block L1 4997120..5001215", 1, true), said)
	assert(not said:find("leaf slot", 1, true), said)
end

-- A packed node with no room moves to a bigger copy: its box stays (no
-- "new" nor "free" that would hide it), and its events say so.
do
	local u = idr.new()
	u:alloc("a", 0)
	u:alloc("b", 1000)
	local r = idr.recorder()
	r:frame { tree = u, events = u:events(u.alloc, u, "c", 2000) }
	local moved = 0
	for _, e in ipairs(r.frames[1].e) do
		if e.w:find("^node%-new level=1") or
			e.w:find("^node%-free level=1") then
			moved = moved + 1
			assert(e.b > 0 and e.n == nil, e.w)
			assert(e.x:find("copy", 1, true), e.x)
		end
	end
	assert(moved == 2, moved)
end

-- An IDA's bitmap events happen in its leaf's slot, and say by how much
-- they change the count of IDs set there; a bitmap made is no new node.
do
	local a = idr.ida()
	local r = idr.recorder()
	r:frame { tree = a, events = a:events(a.alloc, a, 100000, 200000) }
	r:frame { tree = a, events = a:events(a.alloc, a, 0, 10) }
	for _, k in ipairs { 1, 2 } do
		local bx = r:frame_boxes(k)
		for _, e in ipairs(r.frames[k].e) do
			if e.w:find("^bit%-set") then
				assert(e.b > 0 and e.d == 1 and bx[e.b].r, e.w)
				assert(e.s == (k == 1 and 24 or 0), e.s)
			end
			if e.w:find("aux=bitmap") then assert(not e.n, e.w) end
		end
		local row = r.rows[bx[1].r]
		assert(row[7].bits == 4096 and row[6][25] == 1, "IDs set, by slot")
	end
end

-- A tagged tree's leaf keeps each slot's generation, for the hover.
do
	local g = idr.new { tagged = { id_bits = 8 } }
	g:remove_tagged(g:alloc_tagged("a"))
	local r = idr.recorder()
	r:frame { tree = g, events = g:events(g.alloc_tagged, g, "b") }
	local row = r.rows[r:frame_boxes(1)[1].r]
	assert(row[6][1] == 1 and row[7].gen == 8, "generation 1 at slot 0")
end

-- A removal that empties a far branch and shrinks the tree several
-- levels: every freed node is a ghost, placed, and the new top too, whether
-- it hangs from a ghost (base 1: first IDs count from the base) or heads
-- a tree of its own (the tree emptied, then a new leaf made).
do
	local function frame(tree, fn)
		local r = idr.recorder()
		local evs = tree:events(fn)
		r:frame { tree = tree, events = evs }
		local freed, ghosts, nodes = 0, 0, 0
		for _, ev in ipairs(evs) do
			if ev.event == "node-free" and not ev.aux then freed = freed + 1 end
		end
		for _, b in ipairs(r:frame_boxes(1)) do
			assert(math.type(b.x) == "integer" and math.type(b.y) == "integer")
			if b.k == "g" then ghosts = ghosts + 1 end
			if b.k == "n" then nodes = nodes + 1 end
		end
		assert(ghosts == freed and nodes == 1, ghosts .. "/" .. freed)
		assert(#r:html() > 0)
	end
	local b = idr.new { base = 1 }
	b:alloc("v")
	b:alloc_u32("v", 1061690243, 1061690243)
	frame(b, function() b:remove(1061690243) end)
	local r = idr.new { rcu = true }
	r:alloc_u32("v", 285042925, 285042925)
	frame(r, function() r:remove(285042925); r:alloc("v") end)
	local a = idr.ida()
	a:alloc(138082906, 138082906)
	frame(a, function() a:free(138082906); a:alloc() end)
end
