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
--   - a yes or no question stated as a fact before it is asked: a
--     sentence (not a question) of such a paragraph or why, or of the
--     question's own text before its last sentence, holding every word
--     that the question asks about ("ID 5 is in use." before
--     "Is ID 5 in use now (yes or no)?"), when it asks about three
--     words or more.
-- (The question's choices, "live, stale or free", may name the answer.)

local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, pairs, string, table = ipairs, pairs, string, table

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

-- {---------------------- Yes or no, stated ------------------------

-- Words that say nothing of what a yes or no question asks.
local FILLER = {}
for w in ([[a an the is are was were be been do does did has have had
	will would can could should it its this that there then now still
	again yet any anything exactly or yes no not of in on at to by for
	from with and]]):gmatch("%S+") do
	FILLER[w] = true
end

-- @w lower case, a plural's or a tense's ending cut: "packed",
-- "packs" and "pack" are one word.
local function stem(w)
	w = w:lower()
	for _, ending in ipairs({ "ing", "ed", "es", "s" }) do
		if #w - #ending >= 3 and w:sub(-#ending) == ending then
			return w:sub(1, -#ending - 1)
		end
	end
	return w
end

local function word_set(text)
	local set, n = {}, 0
	for w in text:gmatch("[%w_]+") do
		w = stem(w)
		if not FILLER[w] and not set[w] then set[w], n = true, n + 1 end
	end
	return set, n
end

-- @text's sentences, each ending in . ! ? : or ; (or at the end), its
-- asides in parentheses left out.
local function sentences(text)
	local list = {}
	text = text:gsub("%b()", ""):gsub("%s+", " ")
	if not text:find("[.!?:;]%s*$") then text = text .. "." end
	for s in (text .. " "):gmatch("(.-[.!?:;]) ") do
		if s:find("%S") then list[#list + 1] = s end
	end
	return list
end

-- The first sentence of @text that is no question and holds every word
-- of @asked (a word_set of @n words), or nil.  Two words are too few:
-- "this tree packs a leaf" says nothing of "is the leaf packed now?".
local function stated(text, asked, n)
	if n < 3 then return nil end
	for _, s in ipairs(sentences(text)) do
		local has = word_set(s)
		local all = not s:find("%?%s*$")
		for w in pairs(asked) do all = all and has[w] == true end
		if all then return s:match("^%s*(.-)%s*$") end
	end
end

-- A yes or no question @q's words, and the text before its last
-- sentence (the question itself): nil when it is no such question.
local function yes_no(q)
	if Lesson.kind(q) ~= "yes or no" then return nil end
	local list = sentences(q.text)
	local asked, n = word_set(list[#list] or "")
	return asked, n, table.concat(list, " ", 1, #list - 1)
end

-- }----------------------------------------------------------------

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
				-- A student's answer of the kind asked could never be it.
				local kind = Lesson.kind(q)
				if kind and not Lesson.fits(kind, q.answer) then
					problem(("its answer, %s, is not of the kind its " ..
						"text asks for (%s)"):format(q.answer, kind))
				end
				local want = normal(q.answer)
				if want:find("^%d%d+$") and said_in(q.text, want) then
					problem("its answer, " .. q.answer ..
						", is in its own text")
				end
				local asked, n, before = yes_no(q)
				local fact = asked and stated(before, asked, n)
				if fact then
					problem("its question is stated as a fact in its own " ..
						"text: \"" .. fact .. "\"")
				end
				for _, b in ipairs(since) do
					if b.command then shown_first(q, b, want, problem) end
					local prose = b.kind == "text" and b.text or
						b.kind == "question" and b.why
					local w = prose and (telling(q.answer, want) and
						said_in(prose, want) or told(prose, q, want))
					local said = asked and prose and stated(prose, asked, n)
					if said then
						problem("its question is stated as a fact in the " ..
							(b.kind == "text" and "paragraph" or "why") ..
							" at line " .. b.line .. " (\"" .. said .. "\")")
					end
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
