-- dot.lua - t:dot{}: the tree as Graphviz DOT, planned to fit a picture
-- a person can view.
--
-- Each node is an HTML-like table: a title, its slots as a row of cells
-- (slot 0 at the left, a symbol and a colour each), its full bitmap as
-- hex digits over the cells in the same order (four slots a digit, the
-- leftmost slot its high bit), a marker row when a cell is on the way to
-- opts.at or was changed by opts.changed, and a leaf's entries.
--
-- So that any tree draws to a picture a person can view, the picture is
-- held to DOT_WIDTH points as a tidy tree is laid out: a subtree is as
-- wide as its top box, or as its children's subtrees side by side if
-- wider.  Each node shares the room it was given among its children, in
-- slot order; the children that do not fit go into one "not drawn" box,
-- and runs of alike siblings collapse into one dashed box, as fold.lua
-- says.  The nodes on the way to opts.at, and to the cells changed, are
-- drawn whatever else is left out: their room is kept first, and fold
-- keeps them out of runs.  Sizes are in points; Graphviz draws 96 pixels
-- an inch, 72 points.  The height needs no budget: a tree has a few
-- levels.  The tree is read a node at a time; what is left out is
-- counted in C (t:nodes_under()), up to COUNT_MOST nodes a picture, so
-- that a huge tree's picture costs no more than a small one's: past
-- that, a box says "at least".
local _, idr_methods, ida_methods, view = ...

local G = view "geometry"
local F = view "fold"
local E = view "entry"
local O = view "options"

local concat = table.concat
local max, min = math.max, math.min

local CELL_W = 8	-- a slot's cell
local GAP_W = 24	-- between boxes on a rank (nodesep), and borders
local BOX_W = 168	-- a run or "not drawn" box, its gap included
local DOT_WIDTH = 2700	-- 3600 pixels, under 4000 with Graphviz's slack
local FORCED_MAX = 2	-- nodes drawn whatever the budget, per level
local ENTRY_CHARS = 40	-- a leaf entry is cut to this
local KEYED_COLOR = "#cc79a7"	-- a keyed block's box (Okabe-Ito purple)
local LINE_CHARS = 100	-- a line of leaf entries, at fontsize 8
local DEFAULT_ENTRIES = 8
local COUNT_MOST = 10000	-- nodes left out counted, a picture
local DEFAULT_NODES = 64
local LEVELS_MAX = 34
local UINT_MAX = 0xffffffff

-- What a plan makes of a child of the node being drawn.
local RUN, DRAW, FORCE, LEAVE = 1, 2, 3, 4

local function put(g, s)
	g.out[#g.out + 1] = s
end

local function plural(n, word)
	return n == 1 and word or word .. "s"
end

-- {======================== Cells to mark ===========================

-- HTML-like labels give meaning to these; a leaf's entry may hold them.
local ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
	['"'] = "&quot;" }

local function html(s)
	return (s:gsub('[&<>"\0-\31]', function(c) return ESC[c] or " " end))
end

-- Events that change a cell of the node they name.
local CELL_EVENT = { ["node-new"] = true, attach = true, detach = true,
	["slot-set"] = true, ["slot-clear"] = true, full = true, open = true,
	["subtree-full"] = true, ["subtree-open"] = true,
	["bitmap-full"] = true, ["bitmap-open"] = true }

-- The cell of a trace event, { level, id }, if the event changed one.
local function event_cell(ev)
	if ev.last < ev.first then
		return nil	-- no node's: an event made up by the caller
	end
	if ev.event == "bit-set" or ev.event == "bit-clear" then
		-- @slot is a bit of the bitmap @first..@last: a leaf's cell.
		return { level = 0, id = ev.first }
	end
	if not CELL_EVENT[ev.event] then
		return nil	-- visits, node counts, nodes gone, grow, shrink
	end
	local span = (ev.last - ev.first) // G.SLOTS + 1
	return { level = ev.level, id = ev.first + ev.slot * span }
end

-- Whether cell @c is in slot @slot of @n.
local function cell_in(n, slot, c)
	if c.level ~= n.level then return false end
	local lo, hi = G.slot_range(n, slot)
	return c.id >= lo and c.id <= hi
end

local function marked(g, n, slot)
	for _, c in ipairs(g.marks) do
		if cell_in(n, slot, c) then return true end
	end
	return false
end

-- The slot of @n on the way to opts.at, or nil if @n is not on it.
local function path_slot(g, n)
	local on = g.path[n.depth + 1]
	if not on or on.first ~= n.first then return nil end
	return G.slot_of(n, g.at_place)
end

-- }================================================================

-- {====================== Nodes drawn, forced =======================

-- The room the nodes drawn whatever the budget need at @depth and below,
-- among those covering IDs @first..@last: each its own width, or its
-- forced children's and a "not drawn" box beside them, if wider.
local function forced_need(g, depth, first, last)
	local need = 0
	for _, f in ipairs(depth < LEVELS_MAX and g.forced[depth] or {}) do
		if f.first >= first and f.last <= last then
			local below = forced_need(g, depth + 1, f.first, f.last)
			below = below > 0 and below + BOX_W or 0
			need = need + max(below, g.width)
		end
	end
	return need
end

-- Whether the child in slot @slot of @n is to be drawn whatever else.
local function forced_child(g, n, slot)
	local lo, hi = G.slot_range(n, slot)
	return forced_need(g, n.depth + 1, lo, hi) > 0
end

-- Keep room for the nodes on the way down to place @p, down to @level.
local function force_path(g, p, level)
	local way = G.path(g.t, p)
	for i = 2, #way do
		local v = way[i]
		if v.level < level then break end
		local list = g.forced[v.depth]
		if not list then
			list = {}
			g.forced[v.depth] = list
		end
		local known = false
		for _, f in ipairs(list) do known = known or f.first == v.first end
		if not known and #list < FORCED_MAX then
			list[#list + 1] = { first = v.first, last = v.last }
		end
	end
end

-- The cells opts.changed touched, and the nodes to draw for them.
local function set_marks(g, changed)
	for _, ev in ipairs(changed or {}) do
		g.marks[#g.marks + 1] = event_cell(ev)
	end
	for _, c in ipairs(g.marks) do
		local p = G.place_of(g.info, c.id)
		if p then force_path(g, p, c.level) end
	end
end

-- }================================================================

-- {========================== Drawing ===============================

local function name(kind, level, first)
	return kind .. level .. "_" .. first
end

-- One slot: a symbol and a colour, both saying what it holds.
local LOOK = {
	{ "\u{b7}", "#ffffff" },	-- free: middle dot
	{ "\u{25cf}", "#56b4e9" },	-- in use: black circle
	{ "\u{25a0}", "#e69f00" },	-- full: black square
	{ "\u{25b8}", "#009e73" },	-- child with room: small triangle
	{ "\u{d7}", "#cc79a7" },	-- retired: times
}

local function cell(g, n, slot)
	local k
	if n.present >> slot & 1 == 0 then
		k = 1
	elseif n.level == 0 and not g.ida then
		k = g.retiring and g.t:slot(n, slot).retired and 5 or 2
	elseif n.full >> slot & 1 == 1 then
		k = 3
	else
		k = n.level > 0 and 4 or 2
	end
	return ('<TD PORT="s%d" WIDTH="%d" HEIGHT="12" FIXEDSIZE="TRUE"' ..
		' BGCOLOR="%s">%s</TD>'):format(slot, CELL_W, LOOK[k][2],
		LOOK[k][1])
end

-- The full bitmap in the cells' order: a digit over each four slots.
local function hex(g, n)
	local row, f = { "<TR>" }, n.full
	for slot = 0, n.slots - 4, 4 do
		row[#row + 1] = ('<TD COLSPAN="4">%x</TD>'):format(
			(f >> slot & 1) << 3 | (f >> (slot + 1) & 1) << 2 |
			(f >> (slot + 2) & 1) << 1 | (f >> (slot + 3) & 1))
	end
	row[#row + 1] = "</TR>\n"
	put(g, concat(row))
end

-- Over the cells: where the way to opts.at goes, and what changed.
local function markers(g, n)
	local on_path, any = path_slot(g, n), false
	for slot = 0, n.slots - 1 do
		any = any or slot == on_path or marked(g, n, slot)
	end
	if not any then return end
	local row = { "<TR>" }
	for slot = 0, n.slots - 1 do
		local mark = ""
		if marked(g, n, slot) then
			g.marks_drawn = g.marks_drawn + 1
			mark = '<FONT COLOR="#d55e00">\u{25c6}</FONT>'	-- diamond
		elseif slot == on_path then
			mark = '<FONT COLOR="#0072b2">\u{25bc}</FONT>'	-- down
		end
		row[#row + 1] = '<TD BORDER="0">' .. mark .. "</TD>"
	end
	row[#row + 1] = "</TR>\n"
	put(g, concat(row))
end

-- A leaf's entries, a few a line, then "(+N more)".
local function entries(g, n)
	local used = G.used(n)
	if used == 0 then return end
	local row, shown, col = {}, 0, 0
	row[1] = ('<TR><TD COLSPAN="%d" BORDER="0" ALIGN="LEFT" ' ..
		'BALIGN="LEFT">'):format(n.slots)
	for slot = 0, n.slots - 1 do
		if shown >= g.entries then break end
		if n.present >> slot & 1 == 1 then
			local text = E.text(g.t:slot(n, slot), g.tagged):sub(1,
				ENTRY_CHARS)
			if shown > 0 and col + 1 + #text > LINE_CHARS then
				row[#row + 1] = "<BR/>"
				col = 0
			end
			row[#row + 1] = (col > 0 and " " or "") .. html(text)
			col = col + #text + 1
			shown = shown + 1
		end
	end
	if used > shown then
		row[#row + 1] = (" (+%d more)"):format(used - shown)
	end
	row[#row + 1] = "</TD></TR>\n"
	put(g, concat(row))
end

local function title(g, n)
	put(g, ('<TR><TD COLSPAN="%d" BORDER="0" ALIGN="LEFT"><B>L%d</B> ' ..
		"%d..%d  %d/%d in use%s</TD></TR>\n"):format(n.slots, n.level,
		n.first, n.last, G.used(n), n.slots, G.kind(n)))
end

-- An edge from slot @slot of @parent to a box.  It leaves from the
-- slot's cell, but weighs nothing in the layout: an unseen edge from the
-- parent's middle places the box under it, so that the picture stays as
-- wide as a tidy tree, not a staircase of slot 0s.
local function edge(g, parent, slot, to, attrs)
	local from = name("n", parent.level, parent.first)
	put(g, ("\t%s -> %s [style=invis];\n\t%s:s%d:s -> %s:n [weight=0%s];\n")
		:format(from, to, from, slot, to, attrs))
end

-- The box around node @n's table: blue on the way down to an ID; a
-- keyed block and its runs of keys rounded and purple, no node's look.
local function frame(g, n, on_path)
	local color = on_path and "#0072b2" or n.keyed and KEYED_COLOR
	if n.keyed then g.keyed = g.keyed + 1 end
	return ('BORDER="%d" %s%s'):format(on_path and 3 or n.keyed and 2 or 0,
		color and ('COLOR="%s" '):format(color) or "",
		n.keyed and 'STYLE="rounded" ' or "")
end

local function node(g, n, parent)
	local on_path = path_slot(g, n) ~= nil
	put(g, ('\t%s [label=<<TABLE %sCELLBORDER="1" CELLSPACING="0" ' ..
		'CELLPADDING="0">\n'):format(name("n", n.level, n.first),
		frame(g, n, on_path)))
	title(g, n)
	hex(g, n)
	markers(g, n)
	-- The cells last (but for a leaf's entries): edges leave from them.
	local row = { "<TR>" }
	for slot = 0, n.slots - 1 do row[#row + 1] = cell(g, n, slot) end
	row[#row + 1] = "</TR>\n"
	put(g, concat(row))
	if n.level == 0 then entries(g, n) end
	put(g, "</TABLE>>];\n")
	if parent then
		edge(g, parent, (n.first - parent.first) // (n.last - n.first + 1),
			name("n", n.level, n.first), on_path and
			', color="#0072b2", penwidth=3' or "")
	end
end

-- A run of alike siblings: one dashed box, saying how many and what.
local function run_box(g, n, run)
	local box = name("r", run.level, run.first)
	put(g, ('\t%s [shape=box, style=dashed, label="L%d %d..%d\\n%s\\n' ..
		'slots %d..%d, collapsed"];\n'):format(box, run.level, run.first,
		run.last, F.words(n, run), run.from, run.to - 1))
	edge(g, n, run.from, box, "")
	g.runs = g.runs + 1
end

-- Children of a node that were not drawn, as one dotted box.
local function left_out_box(g, n, lo)
	local first = G.slot_range(n, lo.from)
	local _, last = G.slot_range(n, lo.to - 1)
	local box = name("m", n.level - 1, first)
	put(g, ('\t%s [shape=box, style=dotted, label="L%d %d..%d\\n' ..
		'%d %s not drawn\\n(%s%d %s)"];\n'):format(box, n.level - 1,
		first, last, lo.subtrees, plural(lo.subtrees, "subtree"),
		lo.more and "at least " or "", lo.nodes, plural(lo.nodes, "node")))
	edge(g, n, lo.from, box, ", style=dotted")
	g.left_out = g.left_out + lo.nodes
end

-- Count child @kid, in slot @slot, into the dotted box @lo.
local function leave_out(g, slot, lo, kid)
	if not kid then return end
	if lo.subtrees == 0 then lo.from = slot end
	lo.subtrees = lo.subtrees + 1
	lo.to = slot + 1
	local most = g.count_left
	local nodes = g.t:nodes_under(kid, most)
	if nodes > most then lo.more, g.more = true, true end
	g.count_left = math.max(most - nodes, 0)
	lo.nodes = lo.nodes + nodes
end

-- }================================================================

-- {========================== Planning ==============================

local function take(p, w)
	p.left = w < p.left and p.left - w or 0
end

-- Whether a box @w points wide fits beside those planned, with a "not
-- drawn" box and the forced children still to come.  In a full dump
-- anything fits.
local function fits(g, p, w)
	return g.full or (not p.leaving and p.forced + BOX_W + w <= p.left)
end

-- Plan the child in slot @slot of @n: drawn if it fits.
local function plan_child(g, n, slot, p)
	p.kids = p.kids or F.kids(g.t, n)
	local kid = p.kids[slot]
	if not kid then return end
	if forced_child(g, n, slot) then
		local need = forced_need(g, kid.depth, kid.first, kid.last)
		p.forced = p.forced - need
		take(p, need)
		p.plan[slot] = FORCE
	elseif fits(g, p, g.width) then
		take(p, g.width)
		p.plan[slot] = DRAW
	else
		p.plan[slot] = LEAVE
		p.leaving = true
	end
end

-- Plan the children of @n: runs of alike siblings as one box (unless the
-- options ask for every node), the rest one by one as long as they fit
-- at their narrowest, so that a level is seen before the one below it.
local function plan_children(g, n, p)
	p.forced = forced_need(g, n.depth + 1, n.first, n.last)
	local runs
	runs, p.kids = F.runs(g.t, n, nil,
		function(slot) return forced_child(g, n, slot) end)
	for _, run in ipairs(runs) do
		local alike = run.alike and not g.full
		if alike and fits(g, p, BOX_W) then
			take(p, BOX_W)
			p.plan[run.from] = RUN
			p.run[run.from] = run
		elseif alike then
			for slot = run.from, run.to - 1 do p.plan[slot] = LEAVE end
			p.leaving = true
		elseif run.kind ~= "empty" then
			for slot = run.from, run.to - 1 do plan_child(g, n, slot, p) end
		end
	end
	-- The dotted box's room, kept whether or not it is needed.
	take(p, BOX_W)
end

local subtree

-- Draw the children of @n as planned, in @room points: each drawn child
-- has its narrowest room and a fair share of what is spare, as it comes.
-- Return: the room they took.
local function children(g, n, room)
	local p = { plan = {}, run = {}, left = room, forced = 0,
		leaving = false }
	local lo = { from = 0, to = 0, subtrees = 0, nodes = 0 }
	local count, taken = 0, 0
	plan_children(g, n, p)
	for slot = 0, n.slots - 1 do
		local plan = p.plan[slot]
		if plan == DRAW or plan == FORCE then count = count + 1 end
	end
	for slot = 0, n.slots - 1 do
		local plan = p.plan[slot]
		if plan == RUN then
			run_box(g, n, p.run[slot])
			taken = taken + BOX_W
		else
			if plan == DRAW and g.drawn >= g.max_nodes then
				plan = LEAVE
				g.cut = true
			end
			if plan == LEAVE then
				p.kids = p.kids or F.kids(g.t, n)
				leave_out(g, slot, lo, p.kids[slot])
			end
			if plan == DRAW or plan == FORCE then
				local kid = p.kids[slot]
				local least = plan == FORCE and
					forced_need(g, kid.depth, kid.first, kid.last) or g.width
				local share = g.full and UINT_MAX // 2 // n.slots or
					p.left // count
				count = count - 1
				local given = max(least, g.width) + share
				local used = subtree(g, kid, n, given)
				p.left = p.left - share
				-- Room the child left unused goes back, up to its share.
				p.left = p.left + min(max(given - used, 0), share)
				taken = taken + used
			end
		end
	end
	if lo.subtrees > 0 then
		left_out_box(g, n, lo)
		taken = taken + BOX_W
	end
	return taken
end

-- Draw @n and what fits of its subtree in @room; return the room taken.
function subtree(g, n, parent, room)
	g.drawn = g.drawn + 1
	node(g, n, parent)
	local below = n.level > 0 and children(g, n, room) or 0
	return max(below, g.width)
end

-- }================================================================

-- {========================== The legend ============================

-- The symbols and colours, as a row of cells like the nodes'.
local KEYS = { "free", "in use", "full below", "child with room", "retired" }

local function key(g)
	local row = { '<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3" ' ..
		'CELLPADDING="1"><TR>' }
	-- Fixed sizes, or Graphviz spreads the key as wide as the text.
	for i = 1, g.retired and 5 or 4 do
		row[#row + 1] = ('<TD BORDER="1" BGCOLOR="%s" WIDTH="16" ' ..
			'HEIGHT="16" FIXEDSIZE="TRUE">%s</TD><TD ALIGN="LEFT" ' ..
			'WIDTH="%d" HEIGHT="16" FIXEDSIZE="TRUE">%s</TD>'):format(
			LOOK[i][2], LOOK[i][1], #KEYS[i] * 6 + 12, KEYS[i])
	end
	row[#row + 1] = "</TR></TABLE></TD></TR>\n"
	put(g, concat(row))
end

-- The key to the picture, as the graph's label above it.
local function legend(g)
	put(g, '\tlabelloc=t; labeljust=l; fontname="monospace"; ' ..
		'fontsize=10;\n\tlabel=<<TABLE BORDER="0" CELLSPACING="0" ' ..
		'CELLPADDING="1">\n')
	key(g)
	put(g, ('<TR><TD ALIGN="LEFT" BALIGN="LEFT">Slots 0..%d left to ' ..
		"right; above them the full bitmap in hex, in the same " ..
		"order:<BR/>a digit for four slots, the leftmost slot its " ..
		"high bit."):format(G.SLOTS - 1))
	if #g.path > 0 then
		put(g, ('<BR/><FONT COLOR="#0072b2">\u{25bc}</FONT> and ' ..
			"blue: the way down to ID %d."):format(g.at))
	end
	if g.marks_drawn > 0 then
		put(g, '<BR/><FONT COLOR="#d55e00">\u{25c6}</FONT> a ' ..
			"cell the last operation changed.")
	elseif #g.marks > 0 then
		put(g, "<BR/>The cells the last operation changed are gone: " ..
			"their nodes were freed.")
	end
	if g.keyed > 0 then
		put(g, ('<BR/><FONT COLOR="%s">Rounded</FONT> boxes: a keyed ' ..
			"block (an L1 node's few IDs as sorted keys in one small " ..
			"block)<BR/>and its runs of keys (no leaves)."):format(
			KEYED_COLOR))
	end
	if g.runs > 0 then
		put(g, ("<BR/>Dashed boxes: %d %s of alike siblings, " ..
			"collapsed."):format(g.runs, plural(g.runs, "run")))
	end
	if g.left_out > 0 then
		put(g, ("<BR/>Dotted boxes: %s%d %s not drawn, to keep " ..
			"the picture small"):format(g.more and "at least " or "",
			g.left_out, plural(g.left_out, "node")))
		if g.cut then put(g, (" (max_nodes %d)"):format(g.max_nodes)) end
		put(g, ";<BR/>see them with dump --at ID or --range A B, or " ..
			"dot --at ID.")
	end
	put(g, "</TD></TR>\n</TABLE>>;\n")
end

-- }================================================================

--- t:dot{ at, changed, entries, full, max_nodes } -> text.  See
-- idr(3lua).
local function dot(t, o)
	O.tree("dot", t)
	local c = O.check("dot", o, O.DOT)
	local changed = O.changed("dot", o)
	local info = O.tree("dot", t)
	local g = {
		t = t, info = info, ida = info.kind == "ida",
		tagged = info.tagged ~= nil, out = {},
		entries = c.entries or DEFAULT_ENTRIES,
		max_nodes = c.max_nodes or DEFAULT_NODES, full = c.full,
		at = c.at, path = {}, forced = {}, marks = {},
		width = max(G.SLOTS * CELL_W, 240) + GAP_W,
		drawn = 0, cut = false, runs = 0, left_out = 0, marks_drawn = 0,
		count_left = COUNT_MOST, more = false,
		keyed = 0,
	}
	-- The key shows "retired" when the tree has any.
	g.retired = not g.ida and t:census().retired > 0
	g.retiring = g.retired
	g.at_place = c.at and G.place_of(info, c.at)
	if g.at_place then
		g.path = G.path(t, g.at_place)
		force_path(g, g.at_place, 0)
	end
	set_marks(g, changed)
	put(g, ('digraph %s {\n\tnode [shape=plaintext, fontname="monospace", ' ..
		'fontsize=8];\n\tedge [arrowsize=0.6];\n\tordering=out;\n'):format(
		g.ida and "ida" or "idr"))
	local top = t:top()
	if top then
		subtree(g, top, nil, DOT_WIDTH)
	else
		put(g, '\tempty [label="(empty)"];\n')
	end
	legend(g)
	put(g, "}\n")
	return concat(g.out)
end

idr_methods.dot = dot
ida_methods.dot = dot

return true
