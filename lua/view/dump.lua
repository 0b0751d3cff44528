-- dump.lua - t:dump{}: the tree as indented text, 80 columns wide.
--
-- A header line, then for each node its level, its range and how many
-- slots it uses, a map of its slots ('#' full, '+' in use with room
-- below, '.' free, '-' no child, 'x' retired), and a leaf's entries.
-- Runs of alike siblings print as one line, as fold.lua says; a gap
-- between two children as one line ("L1 4096..8191: 1 empty slot").
--
-- The dump reads the tree a node at a time (t:top(), t:child()) and
-- stops when its budget is spent: max_nodes nodes, or max_lines lines.
-- Held to max_lines, it is measured before it is written, with fewer
-- levels until it fits, each try walking no further than max_lines
-- lines: its cost is what it shows, not the tree.  The header's node
-- count is the one walk of the whole tree, in C (t:census()).
local _, idr_methods, ida_methods, view = ...

local G = view "geometry"
local F = view "fold"
local E = view "entry"
local O = view "options"

local concat, find, rep = table.concat, string.find, string.rep

local WIDTH = 80
local DEFAULT_ENTRIES = 8
local HUGE = math.maxinteger

-- {======================== The writer =========================

-- Chunks a dump with a write function keeps before it passes them on.
local WRITE_CHUNKS = 256

-- Text kept goes to d.write, if the caller gave one, a few hundred
-- chunks at a time: a whole dump of a large tree is never held.
local function keep(d, text)
	local out = d.out
	out[#out + 1] = text
	if d.write and #out >= WRITE_CHUNKS then
		d.write(concat(out))
		d.out = {}
	end
end

-- Text goes through say(): counted, and kept up to a budget of lines,
-- so that a dump held to max_lines is measured first and then written.
local function say(d, text)
	local had, n, at = d.lines, 0, find(text, "\n", 1, true)
	while at do
		n = n + 1
		at = find(text, "\n", at + 1, true)
	end
	d.lines = had + n
	if not d.measuring and had < d.budget then
		local budget = d.budget - had
		if n < budget then
			keep(d, text)
		else
			-- The first @budget lines only.
			local cut = 0
			for _ = 1, budget do cut = find(text, "\n", cut + 1, true) end
			keep(d, text:sub(1, cut))
		end
	end
	return #text
end

local function spaces(n)
	return rep(" ", n)
end

-- }================================================================

-- {===================== Slot maps and entries =====================

local function in_range(d, lo, hi)
	local r = d.range
	return not r or (hi >= r[1] and lo <= r[2])
end

-- Whether slot @slot of @n holds something the dump shows.
local function shown_slot(d, n, slot)
	if n.present >> slot & 1 == 0 then return false end
	return not d.range or in_range(d, G.slot_range(n, slot))
end

local function retired(d, n, slot)
	return d.retiring and d.t:slot(n, slot).retired
end

-- The slot of a bitmap's one set bit @low (2^63 is mininteger).
local SLOT_OF = {}
for slot = 0, 63 do SLOT_OF[1 << slot] = slot end

-- The slots of @bits, lowest first: for slot in slots_of(bits).  A
-- sparse tree's nodes hold a slot or two of 64: a walk of the set bits,
-- not of every slot, is what keeps a full dump of one fast.
local function slots_of(bits)
	return function()
		if bits == 0 then return nil end
		local low = bits & -bits
		bits = bits ~ low
		return SLOT_OF[low]
	end
end

-- One character a slot: what it holds; the free ones in runs.
local map = {}

local function slot_map(d, n)
	local free = (n.level > 0 or d.ida) and "-" or "."
	local k, from = 0, 0
	for slot in slots_of(n.present) do
		local c
		if n.level == 0 and not d.ida then
			c = retired(d, n, slot) and "x" or "#"
		else
			c = n.full >> slot & 1 == 1 and "#" or "+"
		end
		map[k + 1], map[k + 2], k = rep(free, slot - from), c, k + 2
		from = slot + 1
	end
	map[k + 1] = rep(free, n.slots - from)
	return concat(map, "", 1, k + 1)
end

-- A leaf's entries, wrapped at WIDTH, then "(+N more)" when cut.
local function leaf_entries(d, n, indent)
	local shown, col, total = 0, indent, 0
	if d.range then
		for slot = 0, n.slots - 1 do
			if shown_slot(d, n, slot) then total = total + 1 end
		end
	else
		total = G.used(n)
	end
	if total == 0 and d.range then
		-- A leaf the range asks about, none of whose IDs are in it.
		say(d, ("%s(none of its IDs in %d..%d)\n"):format(spaces(indent),
			d.range[1], d.range[2]))
		return
	elseif total == 0 then
		-- A tagged idr keeps its leaves, empty ones too: they hold the
		-- generations.
		say(d, ("%s(no IDs: the leaf keeps its generations)\n"):format(
			spaces(indent)))
		return
	end
	say(d, spaces(indent))
	for slot in slots_of(n.present) do
		if shown >= d.entries then break end
		if shown_slot(d, n, slot) then
			-- An entry longer than a line is cut to fit one.
			local text = E.text(d.t:slot(n, slot), d.tagged):sub(1,
				WIDTH - indent)
			if shown > 0 and col + 1 + #text > WIDTH then
				say(d, "\n" .. spaces(indent))
				col = indent
			end
			col = col + say(d, (col > indent and " " or "") .. text)
			shown = shown + 1
		end
	end
	-- A wrapped "(+N more)" starts where the entries do.
	if total > shown and col + 12 > WIDTH then
		say(d, ("\n%s(+%d more)"):format(spaces(indent), total - shown))
	elseif total > shown then
		say(d, (" (+%d more)"):format(total - shown))
	end
	say(d, "\n")
end

-- }================================================================

-- {=========================== The walk ===========================

local function text_node(d, n)
	local indent = 2 * n.depth
	say(d, ("%sL%d %d..%d  %d/%d"):format(spaces(indent), n.level, n.first,
		n.last, G.used(n), n.slots))
	say(d, G.kind(n))
	say(d, ("\n%s%s\n"):format(spaces(indent + 2), slot_map(d, n)))
	if n.level == 0 then leaf_entries(d, n, indent + 2) end
end

-- One line for a run of alike children of @n.
local function text_run(d, n, run)
	say(d, ("%sL%d %d..%d: %s\n"):format(spaces(2 * (n.depth + 1)),
		run.level, run.first, run.last, F.words(n, run)))
end

-- Whether a slot of @n from @slot on holds something the dump shows.
local function shown_from(d, n, slot)
	for s = slot, n.slots - 1 do
		if shown_slot(d, n, s) then return true end
	end
	return false
end

local subtree

-- The children of @n: a run of alike siblings as one line (unless the
-- options ask for every node), each other child in full.  Below the
-- depth asked for, every run is one line.  A gap between children says
-- so, where the IDs would jump; empty slots before the first child and
-- after the last only the map shows.
local function children(d, n)
	local below = d.depth and n.depth + 1 >= d.depth
	local runs, kids = F.runs(d.t, n, d.range)
	local seen = false
	for _, run in ipairs(runs) do
		-- Past max_nodes nothing more, not even a gap or a run: its
		-- line would stand where the nodes left out belong.
		if d.cut then return end
		local kind = run.kind
		if kind ~= "none" and (kind ~= "empty" or
				(seen and shown_from(d, n, run.to))) then
			seen = true
			-- Empty slots have nothing more to show, even in full.
			if below or kind == "empty" or (not d.full and run.alike) then
				text_run(d, n, run)
			else
				kids = kids or F.kids(d.t, n)
				for slot = run.from, run.to - 1 do
					if d.cut then return end
					subtree(d, kids[slot])
				end
			end
		end
	end
end

function subtree(d, n)
	if d.lines > d.stop then return end
	if d.max_nodes and d.drawn >= d.max_nodes then
		d.cut = true
		return
	end
	d.drawn = d.drawn + 1
	text_node(d, n)
	if n.level > 0 then children(d, n) end
end

-- Only the nodes on the way down to @d.at.
local function dump_at(d)
	local list = G.path(d.t, G.place_of(d.info, d.at))
	for _, n in ipairs(list) do text_node(d, n) end
	if #list < d.height then
		say(d, ("%s(no node below holds ID %d: it is free)\n"):format(
			spaces(2 * #list), d.at))
	end
end

local function header(d)
	local c, info = d.census, d.info
	local ids = c.ids
	say(d, ("%s: %d ID%s, height %d, %d node%s"):format(
		d.ida and "ida" or "idr", ids, ids == 1 and "" or "s", d.height,
		c.nodes, c.nodes == 1 and "" or "s"))
	if info.base ~= 0 then say(d, (", base %d"):format(info.base)) end
	if info.tagged then
		say(d, (", tagged: %d ID bits%s"):format(info.tagged.id_bits,
			info.tagged.retire and ", retire" or ""))
	end
	if c.retired > 0 then say(d, (", %d retired"):format(c.retired)) end
	say(d, "\n")
end

local function dump_text(d)
	header(d)
	d.drawn, d.cut = 0, false
	if d.at then
		dump_at(d)
	elseif d.top then
		subtree(d, d.top)
	end
	if d.cut then
		say(d, ("(stopped after %d node%s: max_nodes)\n"):format(d.max_nodes,
			d.max_nodes == 1 and "" or "s"))
	end
end

-- }================================================================

-- {========================= Held to lines =========================

-- How many lines the dump has as the options stand, counted no further
-- than past @cap: nothing is kept, and the walk ends there.
local function measure(d, cap)
	d.measuring, d.lines, d.stop = true, 0, cap
	dump_text(d)
	d.measuring, d.stop = false, HUGE
	return d.lines
end

-- A dump held to max_lines: collapsed, with fewer levels until it fits
-- above a last line that says how to see more.
local function limited(d)
	local max, height = math.max(d.max_lines, 2), d.height
	-- Past the height, a level less prints the same: start at it.
	local depth = math.min(d.depth or height, height)
	local total = measure(d, max)
	if total > max and d.full then
		-- Collapsed, every level may still fit: try that first.
		d.full = false
		total = measure(d, max)
	elseif total <= max then
		dump_text(d)
		return
	end
	while total > max - 1 and depth > 1 do
		depth = depth - 1
		d.depth = depth
		total = measure(d, max)
	end
	-- One level, and still too long: its whole length, for the last line.
	if total > max - 1 then total = measure(d, HUGE) end
	d.lines, d.budget, d.stop = 0, max - 1, max - 1
	dump_text(d)
	keep(d, ("(%d of %d levels shown"):format(depth, height))
	-- The options that show more, by the names Lua gives them (the
	-- shell says its own).  Even one level was too long: say what was
	-- cut; depth is no help.
	if total > max - 1 then
		keep(d, (", %d lines cut; more: full, at, range)\n"):format(
			total - (max - 1)))
	else
		keep(d, "; more: full, depth, at, range)\n")
	end
end

-- }================================================================

--- t:dump{ at, range, depth, entries, full, max_lines, max_nodes,
-- write } -> text (with write: true, the text gone to write).  See
-- idr(3lua).
local function dump(t, o)
	O.tree("dump", t)
	local c = O.check("dump", o, O.DUMP)
	local info = O.tree("dump", t)
	local top = t:top()
	local d = {
		t = t, info = info, ida = info.kind == "ida",
		tagged = info.tagged ~= nil, top = top,
		height = top and top.level + 1 or 0,
		census = t:census(),
		entries = c.entries or DEFAULT_ENTRIES, max_nodes = c.max_nodes,
		depth = c.depth, max_lines = c.max_lines, full = c.full,
		at = c.at, range = c.range,
		out = {}, lines = 0, budget = HUGE, stop = HUGE,
		measuring = false, drawn = 0, cut = false, write = c.write,
	}
	d.retiring = d.census.retired > 0
	if d.max_lines then limited(d) else dump_text(d) end
	if not d.write then return concat(d.out) end
	if #d.out > 0 then d.write(concat(d.out)) end
	return true
end

idr_methods.dump = dump
ida_methods.dump = dump

return true
