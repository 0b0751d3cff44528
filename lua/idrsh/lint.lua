-- SPDX-License-Identifier: MIT
-- lint.lua - 'lesson --check': a lesson asks before it tells, and
-- explains every answer.  Given the steps of a lesson played with no one
-- to answer (lesson.lua's M.play: each question's command run, its
-- answer revealed), it finds for each question
--   - no "why" text ('!' lines), or no answer at all;
--   - its answer printed since the previous question was asked, by the
--     previous question's answer command or a '>' line, as
--       * a line of output that is the answer itself (an answer that is
--         what a command prints: no measure, errno or word N),
--       * the same command with the same output as the answer's own
--         (any measure: 'path 8300' shown, then 'path 8300 | slot top'),
--       * a line 'NAME: ANSWER' (field NAME),
--       * the TEXT of 'has TEXT', when the answer is yes, in the output
--         of the same command ('dump' then 'dump | has packed in');
--   - its answer, a number of two digits or more or an error's name,
--     written as a word of the question itself ("What does 'alloc a 70'
--     print?"), of a paragraph since the previous question, or of that
--     question's why (shown after its answer): "The next alloc returns
--     30." before "Which ID will 'alloc a' return?".
-- (The question's choices, "live, stale or free", may name the answer;
-- a yes or no stated as a fact is left to a person reading it.)

local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, string, table = ipairs, string, table

local normal = Lesson.normal
local spoken = require "idrsh.spoken"

-- An answer that a paragraph must not hold word for word: a number of
-- two digits or more, or an error's name (one digit is too common).
local function telling(answer, want)
	return want:find("^%d%d+$") ~= nil or (answer:find("^%-?E%u+$") ~= nil
		and spoken.errno(want) == want)
end

-- The first word of @text that says @want ("30", "thirty" or "0x1e"
-- for 30), or nil.
local function said_in(text, want)
	for w in text:gmatch("[%w]+") do
		if normal(w) == want then return w end
	end
end

-- A one-digit answer is too common a word to look for everywhere:
-- only in a sentence that names the question's command ("The next
-- alloc returns 3." before "Which ID will 'alloc a' return?").
local function told(text, q, want)
	if not want:find("^%d$") then return nil end
	local cmd = q.command:match("^%s*(%S*)")
	for sentence in (text .. " "):gsub("%s+", " "):gmatch("(.-[.!?:;]) ") do
		local names = false
		for w in sentence:gmatch("[%w_]+") do names = names or w == cmd end
		local w = names and said_in(sentence, want)
		if w then return w end
	end
end

local M = {}

local function first_word(s)
	return s:match("^%s*(%S*)")
end

-- The problems that block @b (a step shown before question @q) makes.
local function shown_first(q, b, want, problem)
	local m = q.measure
	local name, arg = m and m.name, m and m.arg
	if b.command == q.command and b.output == q.output then
		problem("its evidence was shown first: \"" .. b.command ..
			"\", the same output as its answer command")
	end
	for line in (b.output or ""):gmatch("[^\n]+") do
		if (not m or name == "errno" or name == "word") and
				normal(line) == want then
			problem("its answer, " .. q.answer .. ", was printed first, by \"" ..
				b.command .. "\"")
		end
		local k, v = line:match("^%s*(.-):(.*)$")
		if name == "field" and k == arg and normal(v) == want then
			problem("its answer was printed first, as \"" ..
				line:match("^%s*(.-)%s*$") .. "\" by \"" .. b.command .. "\"")
		end
	end
	if name == "has" and want == "yes" and
			first_word(b.command) == first_word(q.command) and
			(b.output or ""):find(arg, 1, true) then
		problem("its answer was printed first: \"" .. b.command ..
			"\" printed \"" .. arg .. "\"")
	end
end

--- M.problems(played) -> a list of { number, text }, one for each
-- problem of each question, in order; empty when the lesson passes.
function M.problems(played)
	local list, since = {}, {}
	for _, q in ipairs(played) do
		if q.kind == "run" then
			since[#since + 1] = q
		elseif q.kind == "question" then
			local function problem(text)
				list[#list + 1] = { number = q.number, text = text }
			end
			if q.answer == nil then
				problem("no answer: " .. (q.error or "its command printed none"))
			else
				if not q.why or not q.why:find("%S") then
					problem("no why text (\"!\" lines)")
				end
				local want = normal(q.answer)
				if want:find("^%d%d+$") and said_in(q.text, want) then
					problem("its answer, " .. q.answer ..
						", is in its own text")
				end
				for _, b in ipairs(since) do
					if b.command then shown_first(q, b, want, problem) end
					local prose = b.kind == "text" and b.text or
						b.kind == "question" and b.why
					local w = prose and (telling(q.answer, want) and
						said_in(prose, want) or told(prose, q, want))
					if w then
						problem("its answer, " .. q.answer .. ", is in the " ..
							(b.kind == "text" and "paragraph" or "why") ..
							" at line " .. b.line .. " (\"" .. w .. "\")")
					end
				end
			end
			-- Its own command's output and why are shown before the
			-- next one.
			since = { q }
		elseif q.kind == "text" then
			since[#since + 1] = q
		end
	end
	return list
end

--- M.lines(name, problems) -> the lines "NAME: question K: TEXT".
function M.lines(name, problems)
	local lines = {}
	for _, p in ipairs(problems) do
		lines[#lines + 1] = string.format("%s: question %d: %s", name,
			p.number, p.text)
	end
	return table.concat(lines, "\n")
end

return M
