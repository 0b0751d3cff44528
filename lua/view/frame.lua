-- SPDX-License-Identifier: MIT
-- frame.lua - one frame of a replay laid out: the boxes the page draws,
-- where, and what each event of the operation changes in them.
--
-- A frame reads the tree lazily (t:top, t:child, fold.lua's runs), never
-- the whole of it.  What it draws:
--   * the hot nodes: each node an event of the operation names (visited,
--     made, changed), the way down to the operation's ID, and the nodes
--     above them; always drawn, and kept out of folded runs (as DOT
--     keeps the way to an ID and the cells changed);
--   * a node's other children level by level, as fold.lua groups them:
--     a run of alike siblings is one box in its words ("62 full
--     leaves"), the rest a box each while the frame has room (WIDE boxes
--     a level, MAX_BOXES in all); the children past that are one box,
--     "N subtrees not drawn";
--   * a node freed by the operation, as a ghost under its parent, until
--     the event that freed it.
-- So a frame costs its hot nodes, a few levels of a few boxes, and its
-- events: the same on a tree of 10 IDs and of 10^6.
--
-- Positions are a tidy tree: the boxes with nothing drawn below take a
-- column each, left to right, and a parent is centred over its children.
local _, _, _, view = ...

local G = view "geometry"
local F = view "fold"
local E = view "entry"
local M = view "marks"

local L = {
	COLS = 8,		-- cells a row in a node's box
	CELL = 12,		-- a cell, and PITCH from one to the next
	PITCH = 13,
	PAD = 5,		-- inside a box
	TITLE = 30,		-- two lines of title above the cells
	COL_W = 150,		-- a column of the tree
	GAP_Y = 44,		-- between levels, where the edges go
	SMALL_H = 46,		-- a run's or a "not drawn" box
	WIDE = 8,		-- boxes on one level, hot ones besides
	MAX_BOXES = 24,		-- boxes in all, hot ones besides
	VALUE_CHARS = 40,	-- a leaf's value, cut to this for the hover
	CHARS = 16,		-- of a box's text fit its width; longer is squeezed
}

local concat, format = table.concat, string.format

-- {========================== Geometry ============================

--- L.box_w(), L.node_h(slots): a node's box, in pixels.
function L.box_w()
	return 2 * L.PAD + L.COLS * L.PITCH - (L.PITCH - L.CELL)
end

function L.node_h(slots)
	local rows = (slots + L.COLS - 1) // L.COLS
	return L.TITLE + 2 * L.PAD + rows * L.PITCH - (L.PITCH - L.CELL)
end

--- L.geometry(): the numbers the page's script draws with.
function L.geometry()
	return { cols = L.COLS, cell = L.CELL, pitch = L.PITCH, pad = L.PAD,
		title = L.TITLE, box_w = L.box_w(), small_h = L.SMALL_H,
		node_h = L.node_h(G.SLOTS), chars = L.CHARS }
end

local function key(level, first)
	return level .. ":" .. first
end

-- }===============================================================

-- {========================= Cells, rows ==========================
-- A node's cells as one character a slot: "." free, "#" an entry,
-- "+" a child (or an IDA bitmap) with room, "x" a full one.

local function cell(n, slot, ida)
	if n.present >> slot & 1 == 0 then return "." end
	local full = n.full >> slot & 1 == 1
	if n.level == 0 and not ida then return "#" end
	return full and "x" or "+"
end

local function cells(n, ida)
	local c = {}
	for s = 0, n.slots - 1 do c[s + 1] = cell(n, s, ida) end
	return concat(c)
end

-- A leaf's values by slot, as the hover shows them ("" where none).
local function values(t, n)
	local v = {}
	for s = 0, n.slots - 1 do
		local text = ""
		if n.present >> s & 1 == 1 then
			local sl = t:slot(n, s)
			text = sl.bits and "a bitmap" or
				sl.value == nil and "(reserved)" or E.value_text(sl.value)
			text = text:sub(1, L.VALUE_CHARS)
		end
		v[s + 1] = text
	end
	return v
end

-- A number a slot of a leaf: a tagged tree's generations, for the hover
-- to tell the tagged ID; an IDA's count of IDs set in each bitmap.
local function numbers(t, n, field)
	local g = {}
	for s = 0, n.slots - 1 do
		g[s + 1] = n.present >> s & 1 == 1 and t:slot(n, s)[field] or
			field == "gen" and t:slot(n, s).gen or 0
	end
	return g
end

--- L.row(n, ida, t): a node's content as a frame stores it:
-- { level, first, last, cells, values (a leaf's, or nil), numbers,
-- { gen = ID bits } (a tagged tree's leaf: generations) or { bits =
-- bitmap's bits } (an IDA's leaf: IDs set) }; with @t nil,
-- a node known only by an event (freed): its cells all free.
function L.row(n, ida, t)
	local c = t and cells(n, ida) or ("."):rep(n.slots or G.SLOTS)
	local r = { n.level, n.first, n.last, c }
	if t and n.level == 0 then r[5] = values(t, n) end
	local tagged = t and n.level == 0 and (t:info() or {}).tagged
	if tagged then
		r[6], r[7] = numbers(t, n, "gen"), { gen = tagged.id_bits }
	elseif t and n.level == 0 and ida then
		r[6], r[7] = numbers(t, n, "bits"), { bits = G.CHUNK }
	end
	return r
end

-- }===============================================================

-- {========================= Hot nodes ============================

--- L.event_node(ev): the level and first ID of the node @ev names, or
-- nil (an operation's start and end, a count of nodes).
function L.event_node(ev)
	if ev.level and ev.first and ev.last and ev.last >= ev.first then
		return ev.level, ev.first
	end
	return nil
end

-- Mark hot the nodes on the way down to place @p, to @level.
local function mark_way(t, hot, p, level)
	for _, n in ipairs(G.path(t, p)) do
		if n.level < level then break end
		hot[key(n.level, n.first)] = true
	end
end

-- The ID the operation was about: its result, or the ID it was asked.
local function op_id(evs)
	local id
	for _, ev in ipairs(evs) do
		if ev.event == "op" and ev.id and ev.id ~= 0 then id = ev.id end
		if ev.event == "done" and math.type(ev.result) == "integer" and
				ev.result >= 0 then
			id = ev.result
		end
	end
	return id
end

--- L.hot(t, evs) -> set of "level:first": the nodes the events name, the
-- way to the operation's ID, and the nodes above them.
function L.hot(t, evs)
	local hot, seen = {}, {}
	for _, ev in ipairs(evs) do
		local level, first = L.event_node(ev)
		if level and not seen[key(level, first)] then
			seen[key(level, first)] = true
			mark_way(t, hot, first, level)
		end
	end
	local id = op_id(evs)
	local ok, info = pcall(t.info, t)
	local p = id and ok and G.place_of(info, id)
	if p then mark_way(t, hot, p, 0) end
	return hot
end

-- }===============================================================

-- {=========================== Boxes ==============================
-- A box: { k = "n" (a node) | "r" (a run) | "m" (not drawn) | "g" (a
-- node freed), r = its row (a node's), t = its text (the others'),
-- p = its parent box, s = the parent's slot it hangs from, h = 1 when
-- hot, q = 1 for a keyed block or one of its runs of keys (drawn as a
-- node, as every view draws them), pk = 1 for a packed node (its entries
-- side by side in a block sized to them) }, and x, y once placed.

-- The frame being laid out.
local function new_plan(t, hot, rows)
	local info = t:info() or {}
	return { t = t, hot = hot, rows = rows, boxes = {}, kids = {},
		level_boxes = {}, drawn = 0, ida = info.kind == "ida",
		base = info.base or 0 }
end

local function add(plan, box, depth)
	local list = plan.boxes
	list[#list + 1] = box
	box.depth = depth
	plan.kids[#list] = {}
	if box.p then
		local kids = plan.kids[box.p]
		kids[#kids + 1] = #list
	end
	plan.level_boxes[depth] = (plan.level_boxes[depth] or 0) + 1
	return #list
end

local function room(plan, depth)
	return (plan.level_boxes[depth] or 0) < L.WIDE and
		plan.drawn < L.MAX_BOXES
end

-- The children of box @b (node @n): queued, folded or left out.
local function plan_children(plan, queue, b, n)
	local t, depth = plan.t, plan.boxes[b].depth + 1
	local function hot_slot(slot)
		local lo = G.slot_range(n, slot)
		return plan.hot[key(n.level - 1, lo)] == true
	end
	local runs, kids = F.runs(t, n, nil, hot_slot)
	local left = { subtrees = 0 }
	for _, run in ipairs(runs) do
		if run.kind == "empty" then
			goto next
		elseif hot_slot(run.from) and run.to - run.from == 1 then
			queue[#queue + 1] = { n = t:child(n, run.from), p = b,
				s = run.from }
		elseif run.alike and room(plan, depth) then
			plan.drawn = plan.drawn + 1
			add(plan, { k = "r", p = b, s = run.from, t = format(
				"L%d %d..%d\n%s", run.level, run.first, run.last,
				F.words(n, run)) }, depth)
		else
			for slot = run.from, run.to - 1 do
				if room(plan, depth) then
					plan.drawn = plan.drawn + 1
					kids = kids or F.kids(t, n)
					queue[#queue + 1] = { n = kids[slot], p = b, s = slot }
				else
					left.subtrees = left.subtrees + 1
					left.s = left.s or slot
				end
			end
		end
		::next::
	end
	if left.subtrees > 0 then
		add(plan, { k = "m", p = b, s = left.s, t = format(
			"%d %s\nnot drawn", left.subtrees, left.subtrees == 1 and
			"subtree" or "subtrees") }, depth)
	end
end

-- The nodes level by level from the top, so that a level is seen before
-- the one below it takes the room; the top hangs from @above (a ghost:
-- the old top a shrink freed), if any.
local function plan_nodes(plan, above)
	local top = plan.t:top()
	local queue, at = { { n = top, p = above, s = above and 0 } }, 1
	while top and queue[at] do
		local q = queue[at]
		at = at + 1
		local depth = q.p and plan.boxes[q.p].depth + 1 or 0
		local n = q.n
		local hot = plan.hot[key(n.level, n.first)]
		local b = add(plan, { k = "n", p = q.p, s = q.s,
			h = hot and 1 or nil, q = n.keyed and 1 or nil,
			pk = n.packed > 0 and not n.keyed and 1 or nil,
			r = plan.rows(n, hot) }, depth)
		plan.where[key(n.level, n.first)] = b
		if n.level > 0 then plan_children(plan, queue, b, n) end
	end
end

-- The nodes the events freed (not an IDA's bitmaps), highest first, so
-- that a parent freed too is placed before its child.
local function freed(evs)
	local list = {}
	for _, ev in ipairs(evs) do
		if ev.event == "node-free" and not ev.aux and L.event_node(ev) then
			list[#list + 1] = ev
		end
	end
	table.sort(list, function(a, b)
		return a.level > b.level or a.level == b.level and a.first < b.first
	end)
	return list
end

-- A freed node as a ghost: under its parent's box (a node's or a
-- ghost's), or, with none, at the top (the old top a shrink freed, or
-- the last node of a tree now empty).  Its cells are all free, as the
-- operation left them: the page undoes its events to show it as it was.
local function ghost(plan, ev)
	local k = key(ev.level, ev.first)
	if plan.where[k] then return end
	-- In the node's own units (an IDA's are IDs, 4096 to an index); its
	-- first ID counts from the idr's base.
	local span = ev.last - ev.first + 1
	local pfirst = ev.first - (ev.first - plan.base) % (span * G.SLOTS)
	local p = plan.where[key(ev.level + 1, pfirst)]
	if not p and plan.boxes[1] then return end
	local n = { level = ev.level, first = ev.first, last = ev.last,
		slots = G.SLOTS }
	plan.where[k] = add(plan, { k = "g", p = p, h = 1,
		s = p and (ev.first - pfirst) // span, r = plan.rows(n, false, true) },
		p and plan.boxes[p].depth + 1 or 0)
end

-- The ghosts above the top first (each a level over the last), then the
-- tree, then the ghosts inside it.
local function plan_all(plan, evs)
	local top = plan.t:top()
	local top_level = top and top.level or -1
	local inside = {}
	for _, ev in ipairs(freed(evs)) do
		if ev.level > top_level then ghost(plan, ev)
		else inside[#inside + 1] = ev end
	end
	local above = top and plan.where[key(top.level + 1, plan.base)]
	plan_nodes(plan, above)
	for _, ev in ipairs(inside) do ghost(plan, ev) end
end

-- Places the boxes: columns for those with nothing below, parents over
-- the middle of their children.
local function place(plan)
	local col, bw = 0, L.box_w()
	local y_of = {}
	local function level_y(depth)
		if not y_of[depth] then
			y_of[depth] = depth == 0 and 0 or
				level_y(depth - 1) + L.node_h(G.SLOTS) + L.GAP_Y
		end
		return y_of[depth]
	end
	local function put(b)
		local box, kids = plan.boxes[b], plan.kids[b]
		table.sort(kids, function(x, y)
			return plan.boxes[x].s < plan.boxes[y].s
		end)
		for _, k in ipairs(kids) do put(k) end
		if #kids == 0 then
			box.x = col * L.COL_W
			col = col + 1
		else
			box.x = (plan.boxes[kids[1]].x + plan.boxes[kids[#kids]].x) // 2
		end
		box.y = level_y(box.depth)
	end
	-- Every box with no parent heads a tree of its own: the top, and a
	-- ghost of an old top that it does not hang from (an emptied tree
	-- whose first new leaf is the top now).
	for b, box in ipairs(plan.boxes) do
		if not box.p then put(b) end
	end
	local h = 0
	for _, box in ipairs(plan.boxes) do
		box.depth = nil
		h = math.max(h, box.y + L.node_h(G.SLOTS))
	end
	return math.max(col, 1) * L.COL_W - (L.COL_W - bw) + 2, h + 2
end

--- L.layout(t, evs, rows) -> boxes, width, height, where: the frame of
-- tree @t after an operation whose events are @evs; rows(n, hot
-- [, gone]) gives the row number of node @n.  where maps "level:first"
-- to the box of that node.
function L.layout(t, evs, rows)
	local plan = new_plan(t, L.hot(t, evs), rows)
	plan.where = {}
	plan_all(plan, evs)
	local w, h = place(plan)
	return plan.boxes, w, h, plan.where
end

-- }===============================================================

-- {==================== What each event changes ===================
-- The cell an event changes, what it holds after, and before (known
-- from the kind of event alone: a slot set was free, a bit marked full
-- had room).

local AFTER = { ["slot-set"] = "#", ["slot-clear"] = ".", attach = "+",
	detach = ".", full = "x", open = "+", ["subtree-full"] = "x",
	["subtree-open"] = "+", ["bitmap-full"] = "x", ["bitmap-open"] = "+" }
local BEFORE = { ["slot-set"] = ".", ["slot-clear"] = "#", attach = ".",
	detach = "+", full = "+", open = "x", ["subtree-full"] = "+",
	["subtree-open"] = "x", ["bitmap-full"] = "+", ["bitmap-open"] = "x" }

--- L.change(ev, ida, mark) -> after, before: the cell's characters, or
-- nil when @ev changes no cell (a leaf's full bit: its cell shows the
-- entry).  @mark as marks.lua marks @ev: a copy hung in its old block's
-- slot leaves the cell as it was.
function L.change(ev, ida, mark)
	local after = AFTER[ev.event]
	if not after or not ev.slot then return nil end
	if ev.event == "attach" and M.REPLACES[mark] then return after, after end
	if ev.level == 0 and not ida then
		if ev.event == "slot-set" or ev.event == "slot-clear" then
			return after, BEFORE[ev.event]
		end
		return nil
	end
	if ev.level == 0 and ev.event == "slot-set" then return "+", "." end
	return after, BEFORE[ev.event]
end

-- }===============================================================

return L
