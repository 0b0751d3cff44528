-- SPDX-License-Identifier: MIT
-- lesson.lua - lessons and quizzes: data that asks questions.
--
-- A lesson is a text file (the format is in idrsh(1), LESSON FILES):
-- paragraphs, idrsh commands run for the student, and questions whose
-- answer is what an idrsh command prints when it runs.  This file parses
-- a lesson into a list of steps, runs them with a function the caller
-- gives (the shell runs each command; a replay may record them), checks
-- answers against what the command printed (quiz.lua makes random
-- quizzes of the same steps).
-- Nothing here runs a command itself: answers are never stored text,
-- they come from the library each time.  The shell's commands 'lesson'
-- and 'quiz' (lessons.lua) play them.

-- The lessons compiled into idrsh (examples/lessons/*.lesson), by name.
local TEXTS = require "idrsh.lesson_texts"
-- Numbers in words, error names without their E.
local spoken = require "idrsh.spoken"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, ipairs, math, pairs, setmetatable, string, table, tonumber,
	tostring, type = error, ipairs, math, pairs, setmetatable, string,
	table, tonumber, tostring, type

local M = {}

-- {========================= Parsing ==============================

--[[
A lesson: { name, title, steps = { step... } }, each step one of
  { kind = "text", text, line }                  a paragraph
  { kind = "run", command, line }                a command, shown with
                                                 its output
  { kind = "question", text, command, measure, why, line }
                                                 (why: a quiz's may be a
                                                 function, see reveal)
Playing a lesson fills in, on each step it reached: output and ok (run,
question), answer (question: what the command's output says), given
and right (question: the student's answer, and whether it was right).
That filled-in list is what a replay shows.
]]

-- The parts of an answer command's output that can be the answer:
-- "CMD | MEASURE".  Each gets (output, before, after, arg), where before
-- and after are the current tree's t:stats() around the command, and
-- returns the answer and the evidence it read it from (a wrong answer
-- is shown it).
local MEASURES = {}

local function stat(s, key)
	return type(s) == "table" and math.tointeger(s[key]) or nil
end

local function nodes(before, after)
	local a, b = stat(after, "nodes"), stat(before, "nodes")
	if not (a and b) then return nil end
	return a, b, string.format("the tree's stats: %d node%s before, %d after",
		b, b == 1 and "" or "s", a)
end

function MEASURES.made(_, before, after)
	local a, b, ev = nodes(before, after)
	if not a then return nil end
	return tostring(math.max(0, a - b)), ev
end

function MEASURES.freed(_, before, after)
	local a, b, ev = nodes(before, after)
	if not a then return nil end
	return tostring(math.max(0, b - a)), ev
end

function MEASURES.height(_, _, after)
	local h = stat(after, "height")
	local n = stat(after, "nodes")
	return h and tostring(h), h and ("the tree's stats after it: height " ..
		h .. (n and string.format(", %d node%s", n, n == 1 and "" or "s")
		or ""))
end

function MEASURES.field(out, _, _, name)
	for line in out:gmatch("[^\n]+") do
		local k, v = line:match("^%s*(.-):%s*(.-)%s*$")
		if k == name then return v, "the line \"" .. k .. ": " .. v .. "\"" end
	end
end

-- "slot LEVEL" or "slot top": the slot taken at that level, from the
-- lines of 'path' ("L2 0..262143: slot 2 ...").
function MEASURES.slot(out, _, _, level)
	local top, topline
	for line in out:gmatch("[^\n]+") do
		local l, s = line:match("L(%d+) [^:]*: slot (%d+)")
		if l then
			local ev = "the line \"" .. line:match("^%s*(.-)%s*$") .. "\""
			if not top then top, topline = s, ev end
			if l == level then return s, ev end
		end
	end
	if level == "top" then return top, topline end
end

function MEASURES.word(out, _, _, n)
	local i = 0
	for w in out:gmatch("%S+") do
		i = i + 1
		if i == tonumber(n) then
			w = w:gsub("[:;,.]+$", "")
			return w, "word " .. n .. " of its output, \"" .. w .. "\""
		end
	end
end

-- "has TEXT": yes if the output holds TEXT, else no.
function MEASURES.has(out, _, _, text)
	if out:find(text, 1, true) then
		return "yes", "its output, which holds \"" .. text .. "\""
	end
	return "no", "its output, in which \"" .. text .. "\" is nowhere"
end

function MEASURES.errno(out)
	local e = out:match("%((E%u+)%)%s*$")
	if e then return e, "the error it printed, " .. e end
	return "none", "its output, in which no error is named"
end

-- The measures that take an argument, and what it must look like.
local MEASURE_ARG = { field = "^[%w _]+$", slot = "^%d+$", word = "^%d+$",
	has = "^%S.*$" }
local MEASURE_ARG_TOP = { slot = "top" }

local function parse_measure(spec)
	local name, arg = spec:match("^(%a+)%s*(.-)$")
	if not name or not MEASURES[name] then
		return nil, "unknown measure '" .. spec .. "' (made, freed, " ..
			"height, field NAME, slot N|top, word N, has TEXT, errno)"
	end
	local want = MEASURE_ARG[name]
	if want and not (arg:find(want) or arg == MEASURE_ARG_TOP[name]) then
		return nil, "'" .. name .. "' needs an argument: " .. spec
	elseif not want and arg ~= "" then
		return nil, "'" .. name .. "' takes no argument"
	end
	return { name = name, arg = arg ~= "" and arg or nil }
end

-- "= CMD" or "= CMD | MEASURE".
local function parse_answer(s)
	local cmd, spec = s:match("^(.-)%s+|%s+([^|]+)$")
	if not cmd then return s end
	local m, err = parse_measure(spec)
	if not m then return nil, err end
	return cmd, m
end

local function add_text(q, key, s)
	q[key] = q[key] and (q[key] .. "\n" .. s) or s
end

--[[
The parser, a line at a time.  State: the lesson so far, the paragraph
being read (para) and the question being read (q).  A question is
"? TEXT" lines, one "= CMD" line, then "! WHY" lines.
]]
local function parse_line(st, line, n)
	local c, body = line:sub(1, 1), line:sub(2):gsub("^ ", "")
	local q = st.q
	if c == "#" then return true end
	if line:find("^%s*$") then st.para = nil return true end
	if c ~= "?" and c ~= "!" then st.para = st.para end
	if q and not q.command and c ~= "?" and c ~= "=" then
		return nil, "a question needs its answer: '= COMMAND' after '?'"
	end
	if c == "?" then
		if q and q.command then st.q, q = nil, nil end
		if not q then
			q = { kind = "question", line = n }
			st.q = q
			st.steps[#st.steps + 1] = q
		end
		add_text(q, "text", body)
		st.para = nil
	elseif c == "=" then
		if not q or q.command then
			return nil, "'=' gives the answer to a question: put '? TEXT' first"
		end
		local cmd, m = parse_answer(body)
		if not cmd then return nil, m end
		q.command, q.measure, q.command_line = cmd, m, n
		local ok, err = st.allowed(cmd)
		if not ok then return nil, err end
	elseif c == "!" then
		if not q then return nil, "'!' explains a question: put it after '='" end
		add_text(q, "why", body)
	elseif c == ">" then
		st.q, st.para = nil, nil
		local ok, err = st.allowed(body)
		if not ok then return nil, err end
		st.steps[#st.steps + 1] = { kind = "run", command = body, line = n }
	elseif not st.title then
		local t = line:match("^title:%s*(.-)%s*$")
		if not t or t == "" then
			return nil, "a lesson begins with 'title: TEXT'"
		end
		st.title = t
	else
		st.q = nil
		if st.para then
			st.para.text = st.para.text .. "\n" .. line
		else
			st.para = { kind = "text", text = line, line = n }
			st.steps[#st.steps + 1] = st.para
		end
	end
	return true
end

-- Anything goes when the caller gives no check (the module alone runs
-- no command); the shell gives its allowlist.
local function allow_all() return true end

--- M.parse(text, name[, allowed]) -> lesson, or nil and
-- "NAME:LINE: message".  allowed(command) -> true, or nil and why not:
-- a command it refuses is an error at its line, and nothing runs.
function M.parse(text, name, allowed)
	if type(text) ~= "string" then error("lesson text must be a string", 2) end
	name = name or "lesson"
	local st = { steps = {}, allowed = allowed or allow_all }
	local n, last = 0, 0
	for line in (text:gsub("\r\n", "\n") .. (text:sub(-1) == "\n" and ""
		or "\n")):gmatch("(.-)\n") do
		n = n + 1
		if line:find("[%z\1-\8\11-\31\127]") then
			return nil, name .. ":" .. n .. ": a control character"
		end
		local ok, err = parse_line(st, line, n)
		if not ok then return nil, name .. ":" .. n .. ": " .. err end
		if not line:find("^%s*$") then last = n end
	end
	if st.q and not st.q.command then
		return nil, name .. ":" .. st.q.line ..
			": a question needs its answer: '= COMMAND' after '?'"
	end
	if not st.title then
		return nil, name .. ":" .. math.max(last, 1) .. ": no 'title: TEXT'"
	end
	return { name = name, title = st.title, steps = st.steps }
end

-- }===============================================================

-- {========================= Answers ==============================

-- An answer as compared: trimmed, lower case, spaces collapsed, a
-- final '.' dropped; a number as its value (0x10, 16 and sixteen are
-- 16; 65,536 is 65536); an error name as "eagain" ("-EAGAIN", EAGAIN,
-- again); y/n as yes/no.
local SAME = { y = "yes", n = "no", ["true"] = "yes", ["false"] = "no" }

local function normal(s)
	s = tostring(s or ""):lower():gsub("%s+", " "):gsub("^ ", "")
		:gsub(" $", ""):gsub("%.$", "")
	local sign, hex = s:match("^([-+]?)0x(%x+)$")
	if hex and #hex <= 12 then
		return tostring(tonumber(hex, 16) * (sign == "-" and -1 or 1))
	end
	if s:find("^[-+]?%d+$") and #s <= 16 then
		return tostring(math.tointeger(tonumber(s)))
	end
	local n = spoken.number(s)
	if n then return tostring(n) end
	s = spoken.errno(s) or s:gsub("^%-(e%l+)$", "%1")
	return SAME[s] or s
end

--- M.normal(s) -> @s as answers are compared.
M.normal = normal

-- @s as typed, lower case and trimmed (for the words normal() leaves).
local function said(s)
	return (tostring(s or ""):lower():gsub("%s+", " "):gsub("^ ", "")
		:gsub(" $", ""):gsub("%.$", ""))
end

local function is_integer(s) return s:find("^%-?%d+$") ~= nil end

--- M.check(expected, given) -> true if @given says @expected: also a
-- count with its unit ("2 nodes") or 0 said "none", and no error said
-- "nothing" or "no error".
function M.check(expected, given)
	if expected == nil then return false end
	local want, words = normal(expected), said(given)
	if normal(given) == want then return true end
	if is_integer(want) then
		local bare = spoken.unitless(words)
		return normal(bare) == want or (want == "0" and spoken.ZERO[bare]
			== true)
	end
	return want == "none" and spoken.NO_ERROR[words] == true
end

-- What kind of answer a question wants, before its command runs (then
-- it is too late to ask again): from its measure, else from its words.
local MEASURE_KIND = { made = "number", freed = "number",
	height = "number", slot = "number", has = "yes or no",
	errno = "error" }

-- The words of the sentence that asks, a question's last: "how many
-- are left in it now?" of "The cache held 14 nodes. How many are left
-- in it now?".
local function asking(text)
	local s = text:match("([^.!?]*)%?$")
	return s and s:gsub("^ ", "") or text
end

-- A question that asks for a count or for an ID or a slot by its
-- number: "How many ...", "And how many ...", "Which ID ...", "Which
-- tagged ID ...", "Which slot ...".
local NUMBER_ASKED = { "%f[%a]how many ", "^which id ", "^which %a+ id ",
	"^which slot " }

local function asks_number(text)
	local s = asking(text)
	for _, p in ipairs(NUMBER_ASKED) do
		if s:find(p) then return true end
	end
	return false
end

-- The words a question offers as its answers: "live, stale or free?"
-- at its end, as a set; nil when it offers none.
local function choices(text)
	local a, b, c = text:match("(%a+), (%a+),? or (%a+)%?$")
	return a and { [a] = true, [b] = true, [c] = true }
end

--- M.kind(q) -> "number", "yes or no", "error", the choices a question
-- ends with ("live, stale or free"), or nil (any text).
function M.kind(q)
	local text = said(q.text)
	-- Either is of its kind: to ask again for an error (its errno
	-- measure) would tell the answer.
	if text:find("%(an id, or an error%)") then return nil end
	local k = q.measure and MEASURE_KIND[q.measure.name]
	if k then return k end
	if text:find("%(yes or no%)") then return "yes or no" end
	if asks_number(text) then return "number" end
	if text:find("%(an errno") then return "error" end
	if choices(text) then return text:match("(%a+, %a+,? or %a+)%?$") end
end

--- M.fits(kind, given) -> true if @given can be an answer of @kind.
function M.fits(kind, given)
	local words = said(given)
	local n = normal(words)
	if kind == "number" then
		local bare = spoken.unitless(words)
		return is_integer(n) or is_integer(normal(bare)) or
			spoken.ZERO[bare] == true
	elseif kind == "yes or no" then
		return n == "yes" or n == "no"
	elseif kind == "error" then
		return spoken.errno(n) ~= nil or spoken.NO_ERROR[words] == true
	end
	local set = choices(kind .. "?")
	if not set then return true end
	for choice in pairs(set) do
		if normal(choice) == n then return true end
	end
	return false
end

--- M.answer(step, output, before, after) -> the answer a
-- question's command gave: its whole output (trimmed) or the measure
-- the question names; nil and why when the output has no such part.
-- A measure's answer comes with a third value: the evidence it read
-- ("the tree's stats after it: height 2").
function M.answer(step, output, before, after)
	local m = step.measure
	if not m then
		local s = output:gsub("^%s+", ""):gsub("%s+$", "")
		return s
	end
	local a, evidence = MEASURES[m.name](output, before, after, m.arg)
	if a == nil then
		return nil, "the output of '" .. step.command .. "' has no " ..
			m.name .. (m.arg and " " .. m.arg or "")
	end
	return a, nil, evidence
end

-- }===============================================================

-- {========================= Playing ==============================

--[[
A runner plays a lesson a step at a time, so that the answers may come
from wherever the caller reads lines:
  r = M.runner(lesson, io)
  q = r:advance()     runs steps up to the next question and returns it
                      (nil: the lesson is over)
  r:answer(line)      grades the answer to q, runs its command; then
                      advance again
  r:stop()            ends it (no more answers); r.score, r.asked,
                      r.total; r.played is the list of steps played
@io: { run = function(command, answer) -> output, ok (answer: true
             when the output is a question's answer, so it must be
             the command's own, whatever readers a '>' line turned on);
       stats = function() -> the current tree's t:stats(), or nil;
       emit = function(step, what) } -- what: "text", "run", "ask",
                                        "graded", "end" (and
                                        "revealed": M.play)
]]
local Runner = {}
Runner.__index = Runner

function M.runner(lesson, io_)
	local total = 0
	for _, s in ipairs(lesson.steps) do
		if s.kind == "question" then total = total + 1 end
	end
	return setmetatable({ lesson = lesson, io = io_, i = 0, score = 0,
		asked = 0, answered = 0, total = total, played = {} }, Runner)
end

local function copy(s)
	local c = {}
	for k, v in pairs(s) do c[k] = v end
	return c
end

function Runner:emit(step, what)
	if self.io.emit then self.io.emit(step, what, self) end
end

function Runner:advance()
	if self.q or self.over then return self.q end
	while true do
		self.i = self.i + 1
		local s = self.lesson.steps[self.i]
		if not s then return self:finish() end
		s = copy(s)
		self.played[#self.played + 1] = s
		if s.kind == "text" then
			self:emit(s, "text")
		elseif s.kind == "run" then
			for _ = 1, s.times or 1 do
				s.output, s.ok = self.io.run(s.command)
			end
			self:emit(s, "run")
		else
			self.asked = self.asked + 1
			s.number = self.asked
			self.q = s
			self:emit(s, "ask")
			return s
		end
	end
end

-- Runs question @q's command; its answer is what the library says.
-- A why that is a function (a quiz's) is told from what the command
-- did: why(q, before, after) -> its text, as a measure reads them.
function Runner:reveal(q)
	local stats = self.io.stats or function() end
	local before = stats()
	q.output, q.ok = self.io.run(q.command, true)
	local after = stats()
	q.answer, q.error, q.evidence = M.answer(q, q.output, before, after)
	if type(q.why) == "function" then q.why = q.why(q, before, after) end
end

--- Grades @given as the answer to the question asked; true if right.
function Runner:answer(given)
	local q = self.q
	if not q then return nil end
	self.q = nil
	q.given = given
	self:reveal(q)
	q.right = q.answer ~= nil and M.check(q.answer, given)
	self.answered = self.answered + 1
	if q.right then self.score = self.score + 1 end
	self:emit(q, "graded")
	return q.right
end

function Runner:finish()
	self.over = true
	self:emit({ kind = "end", score = self.score, asked = self.asked,
		total = self.total, answered = self.answered },
		"end")
	self.q = nil
	return nil
end

-- Ends the lesson where it is: a question asked and not answered
-- counts as unanswered.
function Runner:stop()
	if self.over then return end
	self.q = nil
	self:finish()
end

--- M.play(lesson, io) -> the list of steps played, every
-- question answered by running its command (no one is asked): what a
-- replay shows, the answers revealed on a click.  @io as for
-- M.runner; its emit, if any, also hears "revealed" with a
-- question once its command has run (an "ask" comes before, with the
-- tree as the question finds it).
function M.play(lesson, io_)
	local r = M.runner(lesson, io_)
	while r:advance() do
		local q = r.q
		r.q = nil
		r:reveal(q)
		r:emit(q, "revealed")
	end
	return r.played
end

-- }===============================================================

-- {========================= Lessons ==============================

--- M.parse_answer(s) -> the command and measure of "CMD | MEASURE"
-- (quiz.lua's questions are written as a lesson's '=' lines are).
M.parse_answer = parse_answer

--- M.texts[NAME]: the text of the lesson compiled in as NAME.
M.texts = TEXTS

--- M.names() -> the names of the lessons compiled in, sorted.
function M.names()
	local names = {}
	for name in pairs(TEXTS) do names[#names + 1] = name end
	table.sort(names)
	return names
end

--- M.get(name[, allowed]) -> the lesson compiled in as @name,
-- parsed; nil and why when there is none.
function M.get(name, allowed)
	local text = TEXTS[name]
	if not text then return nil, "no lesson '" .. tostring(name) .. "'" end
	return M.parse(text, name, allowed)
end

-- }===============================================================

return M
