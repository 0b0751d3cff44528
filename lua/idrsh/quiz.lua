-- SPDX-License-Identifier: MIT
-- quiz.lua - random quizzes: questions on fresh trees, made of the same
-- steps as a lesson (lesson.lua), so that they play and grade as one.

local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, math, os, table, tonumber = ipairs, math, os, table,
	tonumber

local M = {}

-- {========================= Quizzes ==============================

-- A small generator of its own (a 32-bit LCG, Numerical Recipes'), so
-- that a seed makes the same quiz on every Lua and every machine, and
-- math.random is left alone.
local function rng(seed)
	local x = math.tointeger(seed) % 4294967296
	return function(lo, hi)
		x = (1664525 * x + 1013904223) % 4294967296
		return lo + (x >> 8) % (hi - lo + 1)
	end
end

local function pick(r, list) return list[r(1, #list)] end

-- Removes @k distinct IDs of 0 .. @n - 1 (kept in order).
local function removals(r, n, k)
	local set, list = {}, {}
	for _ = 1, k do
		local id = r(0, n - 1)
		if not set[id] then set[id] = true list[#list + 1] = id end
	end
	table.sort(list)
	return list
end

-- Each kind makes the steps of one question: the tree (its commands
-- shown), then the question.
local KINDS = {}

function KINDS.next_id(r, add, tree)
	add(">", "new " .. tree)
	local n = r(2, 150)
	add(">", "alloc_many " .. n)
	for _, id in ipairs(removals(r, n, r(0, 3))) do add(">", "remove " .. id) end
	add(">", "dump")
	add("?", "Which ID will 'alloc x' return now?")
	add("=", "alloc x")
	add("!", "alloc takes the lowest free ID: the walk goes down the " ..
		"first slot whose full bit is clear at each level.")
end

-- {------------------------ The nodes' why -------------------------

local function plural(n, one, many)
	return n .. " " .. (n == 1 and one or many)
end

-- The nodes at level @l in stats @s (level_nodes: leaves first).
local function at(s, l) return s.level_nodes[l + 1] or 0 end

-- "L2", "L2 and L1", "L3, L2 and L1".
local function level_list(levels)
	local n = #levels
	if n == 1 then return levels[1] end
	return table.concat(levels, ", ", 1, n - 1) .. " and " .. levels[n]
end

--[[
The nodes one allocation gained, from the tree's stats before and after
it (what 'made' counts): { tops, interior, levels, keyed, leaf, total },
the tops it grew (a new one at each level from the old height up), the
path's new interior nodes below them and their levels ("L2"), the keyed
blocks among those at L1 (an L1 node's few lone IDs kept as sorted keys
in one small block, no leaf), the leaves.  Nil when the stats tell of
something else too (a node freed), which no sentence here says.
]]
local function gained(before, after)
	local g = { tops = after.height - before.height, interior = 0,
		levels = {}, keyed = after.keyed_blocks - before.keyed_blocks,
		leaf = at(after, 0) - at(before, 0),
		total = after.nodes - before.nodes }
	if before.height == 0 or g.tops < 0 or g.keyed < 0 or g.leaf < 0 then
		return nil
	end
	for l = after.height - 1, 1, -1 do
		local n = at(after, l) - at(before, l) -
			(l >= before.height and 1 or 0) - (l == 1 and g.keyed or 0)
		if n < 0 then return nil end
		g.interior = g.interior + n
		if n > 0 then g.levels[#g.levels + 1] = "L" .. l end
	end
	if g.tops + g.interior + g.keyed + g.leaf ~= g.total then return nil end
	return g
end

local function grown_said(g, id, height)
	local top = ("ID %d is beyond what the top covered (IDs 0..%d), so " ..
		"the tree grew "):format(id, (1 << (6 * height)) - 1)
	if g.tops == 1 then
		return top .. "a level: a new top holds the old one in its slot 0."
	end
	return top .. g.tops .. " levels: a new top for each, holding the " ..
		"top below it in its slot 0."
end

-- The end of the path: a keyed block, a new leaf, or the leaf there.
local function bottom_said(g, id)
	local block, range = id - id % 64, id - id % 4096
	if g.keyed > 0 then
		return ("ID %d is a lone ID in its L1 range, %d..%d, so it went " ..
			"into a keyed block (an L1 node's few lone IDs kept as sorted " ..
			"keys in one small block, no leaf): one block where an L1 " ..
			"node and a leaf would be two."):format(id, range, range + 4095)
	elseif g.leaf > 0 then
		return ("The 64-ID block of ID %d, %d..%d, had no leaf yet: a " ..
			"new leaf holds it."):format(id, block, block + 63)
	end
	return ("The 64-ID block of ID %d, %d..%d, had a leaf already, and " ..
		"every node above it was there: no new node."):format(id, block,
		block + 63)
end

-- @s in lines of at most @width characters, as a lesson's '!' lines
-- are (the shell indents the lines after the first).
local function wrapped(s, width)
	local lines, line = {}, ""
	for w in s:gmatch("%S+") do
		if line ~= "" and #line + 1 + #w > width then
			lines[#lines + 1], line = line, w
		else
			line = line == "" and w or line .. " " .. w
		end
	end
	lines[#lines + 1] = line
	return table.concat(lines, "\n")
end

-- The why of 'alloc x START | made', told from what the allocation
-- made: the tree's stats around it, which the grader reads, for the ID
-- it printed.
local function nodes_why(q, before, after)
	local id = tonumber((q.output or ""):match("^%s*(%d+)%s*$"))
	local g = id and before and after and gained(before, after)
	if not g then
		return "Count the nodes in the tree's stats before and after it."
	end
	local says = {}
	if g.tops > 0 then says[1] = grown_said(g, id, before.height) end
	if g.interior > 0 then
		says[#says + 1] = ("The path down to it had no node at %s: %s."):
			format(level_list(g.levels), plural(g.interior,
			"new interior node", "new interior nodes"))
	end
	says[#says + 1] = bottom_said(g, id)
	if g.total > 0 then
		says[#says + 1] = plural(g.total, "node", "nodes") .. " in all."
	end
	return wrapped(table.concat(says, " "), 70)
end

-- }----------------------------------------------------------------

function KINDS.nodes(r, add, tree)
	add(">", "new " .. tree)
	local n = r(1, 130)
	local start = pick(r, { r(0, 200), 64 * r(2, 70), 4096 * r(1, 70),
		262144 + r(0, 5000) })
	add(">", "alloc_many " .. n)
	add(">", "stats")
	add("?", "How many nodes will 'alloc x " .. start .. "' create?")
	add("=", "alloc x " .. start .. " | made")
	add("!", nodes_why)
end

function KINDS.root_slot(r, add, tree)
	add(">", "new " .. tree)
	local big = pick(r, { r(4096, 262143), r(262144, 999999) })
	local id = r(0, big)
	add(">", "alloc_many " .. r(1, 70))
	add(">", "alloc x " .. big)
	add(">", "stats")
	add("?", "Which slot of the root does ID " .. id .. " go through?")
	add("=", "path " .. id .. " | slot top")
	add("!", "Write the ID in base 64 with one digit a level of the " ..
		"tree: the root takes the top digit.")
end

-- Asks only about tags handed out (a generation the slot has reached)
-- or IDs no one holds: a generation ahead of its slot is no one's tag.
-- The tree is made with the tagged commands, which print tagged IDs as
-- the question names them (alloc prints the bare ID).
function KINDS.tag_live(r, add, tree)
	local n = r(2, 6)
	add(">", "new " .. tree .. " --tagged 16")
	add(">", "alloc_many " .. n)
	local victim = r(0, n - 1)
	local gens = r(0, 2)
	for gen = 0, gens - 1 do
		add(">", "remove_tagged " .. ((gen << 16) | victim))
		add(">", "alloc_tagged x")
	end
	local c = pick(r, { { victim, r(0, gens) }, { r(0, n - 1), 0 },
		{ r(n, n + 1), 0 } })
	local id, gen = c[1], c[2]
	local tag = (gen << 16) | id
	add("?", ("Is tagged ID %d (0x%x: generation %d, ID %d) live, stale " ..
		"or free?"):format(tag, tag, gen, id))
	add("=", "check " .. tag .. " | word 1")
	add("!", "The bits from bit 16 up are the generation the slot had when " ..
		"the ID was handed out; each remove advances the slot's " ..
		"generation, so a tag of an older one is stale, a tag of the " ..
		"slot's own generation live, and an ID no one holds free.")
end

function KINDS.cyclic(r, add, tree)
	add(">", "new " .. tree)
	local n = r(3, 40)
	add(">", "alloc_cyclic x", n)
	for _, id in ipairs(removals(r, n, r(1, 4))) do add(">", "remove " .. id) end
	-- Not 'cursor' here: it would print the answer before the question.
	add("?", "Which ID will 'alloc_cyclic x' return now?")
	add("=", "alloc_cyclic x")
	add("!", "alloc_cyclic searches from the cursor (the ID after the last " ..
		"it handed out), not from 0: freed IDs below it wait their turn.")
end

local KIND_ORDER = { "next_id", "nodes", "root_slot", "tag_live", "cyclic" }

--- M.make(n, seed) -> a lesson of @n random questions (seed: the same
-- quiz each time), each on a fresh tree, checked as a lesson's are.
function M.make(n, seed)
	local r = rng(seed or os.time())
	local steps = {}
	for i = 1, n do
		local q
		KINDS[pick(r, KIND_ORDER)](r, function(c, s, times)
			if c == ">" then
				steps[#steps + 1] = { kind = "run", command = s,
					times = times }
			elseif c == "?" then
				q = { kind = "question", text = s }
				steps[#steps + 1] = q
			elseif c == "=" then
				q.command, q.measure = Lesson.parse_answer(s)
			else
				q.why = s
			end
		end, "q" .. i)
	end
	return { name = "quiz", title = "Quiz: " .. n .. " question" ..
		(n == 1 and "" or "s") .. (seed and (", seed " .. seed) or ""),
		steps = steps }
end

-- }===============================================================

return M
