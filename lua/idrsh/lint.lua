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
--   - its answer, a number of two digits or more, written as a word of
--     the question itself ("What does 'alloc a 70' print?").
-- (The question's choices, "live, stale or free", may name the answer.)
-- Paragraphs are not checked: a person reads those.

local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, string, table = ipairs, string, table

local normal = Lesson.normal

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
				if want:find("^%d%d+$") then
					for w in q.text:gmatch("[%w]+") do
						if normal(w) == want then
							problem("its answer, " .. q.answer ..
								", is in its own text")
							break
						end
					end
				end
				for _, b in ipairs(since) do
					shown_first(q, b, want, problem)
				end
			end
			-- Its own command's output is shown before the next one.
			since = { q }
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
