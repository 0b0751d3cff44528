-- SPDX-License-Identifier: MIT
-- quiz.lua - random quizzes: questions on fresh trees, made of the same
-- steps as a lesson (lesson.lua), so that they play and grade as one.

local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, math, os, table = ipairs, math, os, table

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

function KINDS.nodes(r, add, tree)
	add(">", "new " .. tree)
	local n = r(1, 130)
	local start = pick(r, { r(0, 200), 64 * r(2, 70), 4096 * r(1, 70),
		262144 + r(0, 5000) })
	add(">", "alloc_many " .. n)
	add(">", "stats")
	add("?", "How many nodes will 'alloc x " .. start .. "' create?")
	add("=", "alloc x " .. start .. " | made")
	add("!", "A new ID needs a leaf for its 64-ID block and an interior " ..
		"node for each level that does not exist yet; when the ID is " ..
		"beyond what the top covers, the tree also grows new tops.")
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
	add("!", "The bits above bit 16 are the generation the slot had when " ..
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
