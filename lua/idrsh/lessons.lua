-- SPDX-License-Identifier: MIT
-- lessons.lua - the commands that teach: lesson and quiz, which play
-- lesson.lua's lessons in a sandbox of their own trees (course.lua
-- orders them; lint.lua checks them; alloc_many, which lessons build
-- their trees with, is many.lua's).

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local events = require "idrsh.events"
local Lesson = require "idrsh.lesson"
local Quiz = require "idrsh.quiz"
local Course = require "idrsh.course"
local Lint = require "idrsh.lint"
local Sandbox = require "idrsh.sandbox"
local record = require "idrsh.record"
-- alloc_many: registered here, before lesson and quiz.
require "idrsh.many"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local io, ipairs, os, setmetatable, string, table, tostring = io, ipairs,
	os, setmetatable, string, table, tostring

local out, outln, bold, visible, write_file, report, result =
	output.out, output.outln, output.bold, output.visible,
	output.write_file, output.report, output.result
local quoted, number = words.quoted, words.number
local INT_MAX = words.INT_MAX
local command, usage = registry.command, registry.usage
local current = trees.current
local reader = events.reader

-- The shell's Lua has found the lessons' functions in the module since
-- the binding held them: they stay there, in idrsh only (require "idr"
-- in lua5.4 has none).  A lesson is parsed by whatever idr.lesson_parse
-- is, so that a chunk may replace it: tests/lessons.bats does, to show
-- that a lesson's lines are checked again where they run.
idr.lesson_parse, idr.lesson_check, idr.lesson_answer = Lesson.parse,
	Lesson.check, Lesson.answer
idr.lesson_runner, idr.lesson_play, idr.quiz = Lesson.runner, Lesson.play,
	Quiz.make
idr.lessons, idr.lesson, idr.lesson_texts = Lesson.names, Lesson.get,
	Lesson.texts

-- {====================== Lessons and quizzes ======================

--[[
A lesson (lesson.lua parses it) is played by a runner; the
shell gives it three things: a way to run a command (run_line, its
output captured), the current tree's stats, and a printer.  The
answers come from the same input as the commands: 'lesson' leaves the
lesson pending in the reader it came from (as 'lua <<WORD' leaves a
here-document), and feed() hands it the lines that follow, one answer
each; at the terminal the prompt says 'answer> '.  A lesson plays in a
sandbox of its own trees (sandbox.lua), so that it neither sees nor
changes the user's, and runs only the commands a lesson may: none runs
Lua, reads or writes a file, or waits for input, so a lesson file from
anyone is safe to open.
]]
local QUIZ_MAX = 100
-- The bytes a lesson file or an answers file may hold: ten times the
-- longest lesson shipped, at least (tests/lessons.bats checks it).
local LESSON_BYTES_MAX = 65536

-- The text of a lesson or answers @file, at most LESSON_BYTES_MAX bytes.
local function lesson_text(file)
	local text, err, long = output.read_file(file, LESSON_BYTES_MAX)
	if long then err = err .. ": too long for a lesson" end
	return text, err
end

local lesson_allowed, sandbox, inside, captured, tree_stats, PRINTING =
	Sandbox.allowed, Sandbox.new, Sandbox.inside, Sandbox.captured,
	Sandbox.tree_stats, Sandbox.PRINTING

-- {------------------------ Showing steps ---------------------------

--[[
What a lesson prints as it plays: in text, the page a person reads; in
JSON, one object a line whose key names the step, so that a program can
follow the lesson and answer it:
  {"lesson": {name, title, questions}}       it begins
  {"readers_off": ["trace", ...]}            readers quiet during it
  {"paragraph": TEXT}
  {"run": {command, times, output, ok}}      a command run for the student
  {"question": {number, of, text, kind}}     kind: "number", "yes or no",
                                             "error", the choices the
                                             question ends with ("live,
                                             stale or free") or null
                                             (any text)
  {"ask_again": {number, kind}}              an answer not of that kind
  {"graded": {number, given, right, answer, evidence, why, command,
              output}}                       (answer null: the lesson's
                                             command gave none; error)
  {"unanswered": {number, why}}              the input ended first
  {"score": {right, total, answered}}
  {"course": {lesson, done, next}}           a lesson of the course ends
]]
local null = idr.json.null

-- @s in text only: JSON has no line for it.
local function text_only(s)
	if output.format() == "text" then outln(s) end
end

local function show_command(s)
	outln("idr> " .. s.command .. (s.times and s.times > 1 and
		"    (" .. s.times .. " times; the last one shows)" or ""))
	if s.output and s.output ~= "" then out(s.output) end
end

local function run_data(s)
	return { run = { command = s.command, times = s.times or 1,
		output = s.output or "", ok = s.ok == true } }
end

local function show_run(s)
	result(run_data, function()
		show_command(s)
		outln("")
	end, s)
end

local function show_question(q, r)
	result({ question = { number = q.number, of = r.total, text = q.text,
		kind = Lesson.kind(q) or null } }, function()
		local text = q.text:gsub("\n", "\n  ")
		outln(bold("Question " .. q.number .. " of " .. r.total .. ": ") ..
			text)
	end)
end

-- The answer as the student typed it, cut when long: "Right: 0x20005"
-- says what was typed, not 131077.
local ECHO_MAX = 60
local function echoed(q)
	local given = q.given or ""
	if #given > ECHO_MAX then
		given = given:sub(1, ECHO_MAX) .. "... (" .. #given .. " characters)"
	end
	return visible(given)
end

local function grade_text(q)
	show_command(q)
	if q.answer == nil then
		outln("The lesson's answer is missing: " .. tostring(q.error))
	elseif q.right then
		outln(bold("Right: ") .. echoed(q) .. ".")
	else
		outln(bold("Wrong: ") .. "you said " .. echoed(q) ..
			"; the answer is " .. q.answer .. ".")
		if q.evidence then
			outln("The grader read " .. q.evidence .. ".")
		end
	end
	-- A right guess learns the why too.
	if q.answer ~= nil and q.why then
		outln("Why: " .. q.why:gsub("\n", "\n  "))
	end
	outln("")
end

local function show_grade(q)
	local data = { number = q.number, given = q.given or "",
		right = q.right == true, answer = q.answer or null,
		evidence = q.evidence or null, why = q.why or null,
		command = q.command, output = q.output or "" }
	if q.answer == nil then data.error = tostring(q.error) end
	result({ graded = data }, grade_text, q)
end

local function show_end(e, r)
	result({ score = { right = e.score, total = r.total,
		answered = e.answered } }, function()
		if e.answered < r.total then
			return string.format("Score: %d of %d (%d answered).", e.score,
				r.total, e.answered)
		end
		return string.format("Score: %d of %d.", e.score, r.total)
	end)
end

local SHOW = {
	text = function(s)
		result({ paragraph = s.text }, function() outln(s.text) outln("") end)
	end,
	run = show_run,
	ask = show_question,
	graded = show_grade,
	["end"] = show_end,
}

local function emit(step, what, r)
	SHOW[what](step, r)
end

-- }----------------------------------------------------------------

-- {------------------------- A session ------------------------------

--[[
A session: { box, runner }.  lesson_answer() gives it one line of
input; lesson_stop() ends it at the end of the input.  Both return
true while it goes on, then true if every question was answered
right, else false (so that a script that grades answers exits 1).
]]
local function session(lesson)
	local s = { box = sandbox() }
	s.runner = Lesson.runner(lesson, { run = captured,
		stats = tree_stats, emit = emit })
	return s
end

-- A lesson of the course finished with every answer right is done:
-- recorded, or a warning, never a failure of the lesson.  Its end says
-- which comes next, or that it is not recorded.
local function over(s)
	local r = s.runner
	local full = r.score == r.total
	if s.course and not s.ended then
		s.ended = true
		local ok, err = true, nil
		if full then ok, err = Course.mark(s.course) end
		if not ok then
			report(nil, "warning: lesson " .. s.course ..
				" not recorded as done: " .. tostring(err))
		else
			result({ course = { lesson = s.course, done = full,
				next = Course.next_name() or null } },
				Course.ending(s.course, full))
		end
	end
	-- 'time lesson': the run time comes after all of it (run.timed).
	local after = s.after
	s.after = nil
	if after then after() end
	return full
end

-- The input ended before the answer to the question asked.
local function lesson_stop(s, why)
	local r = s.runner
	if r.over then return over(s) end
	-- Readline leaves the cursor after the ^C it echoed.
	if why == "Ctrl-C" then text_only("") end
	if r.q then
		result({ unanswered = { number = r.q.number, why = why } },
			"No answer to question " .. r.q.number .. ": " .. why .. ".")
	end
	inside(s.box, r.stop, r)
	over(s)
	return false
end

-- Typed at 'answer> ', these leave the lesson as Ctrl-D does.
local LEAVE = { q = true, quit = true, exit = true }

local KIND_ASKED = {
	number = "a number (12, twelve or 0xc)",
	["yes or no"] = "yes or no",
	error = "an error's name (ENOSPC, nospc), or none",
}

local function lesson_answer(s, line)
	if line:find("^%s*$") or line:find("^%s*#") then return true, true end
	local r = s.runner
	local given = line:match("^%s*(.-)%s*$")
	if LEAVE[given:lower()] then
		return lesson_stop(s, "you typed " .. given), false
	end
	-- An answer that cannot be of the kind asked ("lesson 1", "?") is
	-- asked again, once, before it uses the question up.
	local kind = r.q and Lesson.kind(r.q)
	if kind and not s.asked_again and not Lesson.fits(kind, given) then
		s.asked_again = true
		result({ ask_again = { number = r.q.number, kind = kind } },
			"Answer with " .. (KIND_ASKED[kind] or "one of " .. kind) ..
			"; q leaves the lesson.")
		return true, true
	end
	s.asked_again = nil
	inside(s.box, function()
		r:answer(given)
		r:advance()
	end)
	if r.over then return over(s), false end
	return true, true
end

-- Answers from @text (of @file), a line each; the lesson ends with it.
local function answers_from(s, text, file)
	for line in text:gmatch("[^\n]*") do
		local r, going = lesson_answer(s, line)
		if not going then return r end
	end
	return lesson_stop(s, "the answers in " .. file .. " ended")
end

-- What the reader of lines calls on a lesson pending in it (run.lua).
local Session = { __index = { answer = lesson_answer, stop = lesson_stop } }

-- A lesson runs with readers of its own (its sandbox's): the user's
-- 'step on' or 'trace on' would otherwise do nothing without a word.
local function say_readers_off()
	local on, said = {}, {}
	for _, name in ipairs(PRINTING) do
		if sh.on[name] then
			on[#on + 1], said[#said + 1] = name, "'" .. name .. " on'"
		end
	end
	if #on > 0 then
		result({ readers_off = on }, function()
			outln("(" .. table.concat(said, " and ") .. ": off during a " ..
				"lesson, whose commands show what they do; on again after it.)")
			outln("")
		end)
	end
end

-- Plays @lesson up to its first question; the rest of its answers come
-- from @answers (a file), or from the lines after this one.  @course:
-- the lesson's name when it is one of the course's, to record as done.
local function start(lesson, answers, course)
	local text, err
	if answers then
		text, err = lesson_text(answers)
		if not text then return nil, err end
	end
	local s = session(lesson)
	s.course = course
	result({ lesson = { name = lesson.name, title = lesson.title,
		questions = s.runner.total } }, function()
		outln(bold(lesson.title))
		outln("")
	end)
	say_readers_off()
	inside(s.box, s.runner.advance, s.runner)
	if s.runner.over then return over(s) end
	if answers then return answers_from(s, text, answers) end
	sh.started = setmetatable(s, Session)
	return true
end

-- }----------------------------------------------------------------

-- {------------------------ As a replay -----------------------------

--[[
'lesson NAME --html OUT.html': the lesson played in a sandbox with no
one to answer (Lesson.play), made into a replay page: a frame for
each command it runs, with the events a reader of its own heard; its
paragraphs go with the frame that follows them; a question is a frame
with the tree as the question finds it, and its answer (the command's
output, and why) is behind "Show the answer".  The answer command's
changes show in the frames after it.
]]
local heard = { events = {} } -- the events of the command running

reader {
	name = "lesson-html",
	event = function(ev, t)
		heard.events[#heard.events + 1] = ev
		heard.tree = t
	end,
}

-- A paragraph as the page shows it: the file's line breaks are not the
-- author's, the blank lines between paragraphs are.
local function prose(s)
	return s and (s:gsub("\n", " ")) or nil
end

-- The recorder's frame for the step just played, with the paragraphs
-- that came before it.
local function lesson_frame(p, f)
	f.tree, f.events = heard.tree or current(), heard.events
	if #p.text > 0 then f.text = table.concat(p.text, "\n\n") end
	p.text, heard.events, heard.tree = {}, {}, nil
	return p.rec:frame(f)
end

local function lesson_emit(p, step, what, r)
	if what == "text" then
		p.text[#p.text + 1] = prose(step.text)
	elseif what == "run" then
		lesson_frame(p, { command = step.command, output = step.output })
	elseif what == "ask" then
		p.asked = lesson_frame(p, { question = { text = prose(step.text),
			number = string.format("Question %d of %d:", step.number,
				r.total) } })
	elseif what == "revealed" then
		local t = heard.tree or current()
		p.rec:amend(p.asked, { question = {
			number = string.format("Question %d of %d:", step.number,
				r.total),
			text = prose(step.text), command = step.command,
			answer = step.answer or ("(none: " ..
				tostring(step.error) .. ")"),
			output = step.output, why = prose(step.why),
			narration = p.rec:narrate(t, heard.events) } })
		heard.events, heard.tree = {}, nil
	end
end

-- Plays @lesson with no one to answer; returns its recorder and the
-- number of questions.
local function lesson_replay(lesson)
	-- Frames are made inside the sandbox: name_of finds its trees.
	local p = { rec = idr.recorder { title = lesson.title,
		name_of = record.name_of }, text = {} }
	local box = sandbox()
	box.on["lesson-html"] = true
	local function run_step(line, answer)
		heard.events, heard.tree = {}, nil
		return captured(line, answer)
	end
	local played = inside(box, function()
		local steps = Lesson.play(lesson, { run = run_step,
			stats = tree_stats, emit = function(step, what, r)
				lesson_emit(p, step, what, r)
			end })
		-- Paragraphs after the last command: a frame of their own.
		if #p.text > 0 then lesson_frame(p, {}) end
		return steps
	end)
	local asked = 0
	for _, s in ipairs(played) do
		if s.kind == "question" then asked = asked + 1 end
	end
	return p.rec, asked
end

local function lesson_html(lesson, file)
	local rec, asked = lesson_replay(lesson)
	local ok, err = write_file(file, rec:html())
	if not ok then return nil, err end
	return result({ wrote = { file = file, frames = rec:count(),
		questions = asked } }, string.format("wrote %d frames, %d " ..
		"question%s, to %s", rec:count(), asked, asked == 1 and "" or "s",
		file))
end

-- }----------------------------------------------------------------

-- {------------------------ The commands ----------------------------

-- Splits "--answers FILE", "--html FILE" (and "--seed S" when @seed,
-- else "--check") off @args.
local function lesson_options(args, seed)
	local o, rest, i = {}, {}, 1
	while args[i] do
		local a = args[i]
		if a == "--check" and not seed then
			o.check = true
			i = i + 1
		elseif a == "--answers" or a == "--html" or
				(seed and a == "--seed") then
			if not args[i + 1] then return nil, a .. " needs a value" end
			o[a:sub(3)] = args[i + 1]
			i = i + 2
		elseif a:sub(1, 2) == "--" then
			return nil, "unknown option " .. quoted(a)
		else
			rest[#rest + 1] = a
			i = i + 1
		end
	end
	if o.answers and o.html then
		return nil, "--html asks no one: not with --answers"
	elseif o.check and (o.answers or o.html) then
		return nil, "--check asks no one: not with --answers or --html"
	end
	return o, rest
end

-- A lesson compiled in, else a file of the format.
local function load_lesson(name)
	if Lesson.texts[name] then
		return idr.lesson_parse(Lesson.texts[name], name, lesson_allowed)
	end
	local f, err = io.open(name, "r")
	if not f then
		return nil, "no lesson " .. quoted(name) .. " (see 'lesson'); " .. err
	end
	f:close()
	local text, rerr = lesson_text(name)
	if not text then return nil, rerr end
	return idr.lesson_parse(text, name, lesson_allowed)
end

-- 'lesson --check': @lessons played with no one to answer, each
-- question's answer revealed; prints each problem, "NAME: question K:
-- what", or "NAME: N questions: ok" (JSON: {"check": {lesson,
-- questions, problems: [{number, text}]}} a lesson); false if any has
-- a problem.
local function lesson_check(lessons)
	local ok = true
	for _, l in ipairs(lessons) do
		local played = inside(sandbox(), Lesson.play, l,
			{ run = captured, stats = tree_stats })
		local problems = Lint.problems(played)
		local n = 0
		for _, q in ipairs(played) do
			if q.kind == "question" then n = n + 1 end
		end
		ok = ok and #problems == 0
		result({ check = { lesson = l.name, questions = n,
			problems = problems } }, #problems > 0 and
			Lint.lines(l.name, problems) or string.format(
			"%s: %d question%s: ok", l.name, n, n == 1 and "" or "s"))
	end
	return ok
end

command {
	name = "lesson",
	args = "[NAME | N | next | FILE] [--answers FILE | --html OUT.html | --check]",
	max = 4,
	help = "take a lesson: text, commands run for you, and questions",
	text = "With no NAME, lists the lessons as a course, numbered in a\n" ..
		"suggested order, [x] for those done (finished with every answer\n" ..
		"right; kept in $XDG_STATE_HOME/idrsh/lessons-done, by default\n" ..
		"~/.local/state/idrsh). 'lesson N' takes the Nth, 'lesson next'\n" ..
		"the first not done. A question's answer is what an idrsh command\n" ..
		"prints when it runs after you answer: the library grades\n" ..
		"you. Answer as you would say it: 64, 0x40 or sixty-four, 2 nodes\n" ..
		"or slot 2, none for 0; ENOSPC or nospc; yes or y. An answer of\n" ..
		"the wrong kind ('?' for a number) is asked again once; the why\n" ..
		"follows every answer. At the terminal 'answer> ' asks for each\n" ..
		"answer (q, Ctrl-C or Ctrl-D leaves the lesson); in a script or a\n" ..
		"pipe the lines after the command are its answers, and --answers\n" ..
		"FILE reads them from FILE. A lesson ends with the score, and\n" ..
		"fails (exit status 1) unless every answer was right. 'lesson\n" ..
		"FILE' runs a file of your own (the format is in idrsh(1), LESSON\n" ..
		"FILES); it runs only idrsh commands that run no Lua and touch no\n" ..
		"file, on trees of its own. A lesson or answers file holds at\n" ..
		"most " .. LESSON_BYTES_MAX .. " bytes. --html OUT.html asks nothing: it\n" ..
		"plays the lesson and writes it as a replay page (see 'record'), a\n" ..
		"frame a command, its paragraphs with them, and each question with\n" ..
		"its answer hidden until 'Show the answer' is clicked. --check asks\n" ..

		"nothing either: it fails, naming the question, when a question\n" ..
		"has no why, its answer is not of the kind it asks for, or its\n" ..
		"answer was shown before it was asked, by a command or in a\n" ..
		"paragraph (with no NAME, it checks every lesson of the course).",
	example = "lesson next",
	complete = function(text)
		if text:sub(1, 1) == "-" then
			return { "--answers", "--html", "--check" }
		end
		local l = Course.names()
		l[#l + 1] = "next"
		for _, name in ipairs(l) do
			if name:sub(1, #text) == text then return l end
		end
		return "files"
	end,
	run = function(args)
		local o, rest = lesson_options(args)
		if not o then return nil, rest end
		if #rest > 1 then return nil, usage("lesson") end
		if not rest[1] and o.check then
			local all = {}
			for _, name in ipairs(Course.names()) do
				local l, err = load_lesson(name)
				if not l then return nil, err end
				all[#all + 1] = l
			end
			return lesson_check(all)
		elseif not rest[1] then
			if o.answers or o.html then return nil, usage("lesson") end
			return Course.list()
		end
		local name, perr = Course.pick(rest[1])
		if name == false then return nil, perr end
		name = name or rest[1]
		local l, err = load_lesson(name)
		if not l then return nil, err end
		if o.html then return lesson_html(l, o.html) end
		if o.check then return lesson_check({ l }) end
		return start(l, o.answers, Lesson.texts[name] and name)
	end,
}

command {
	name = "quiz", args = "[N] [--seed S] [--answers FILE | --html OUT.html]",
	max = 5,
	help = "answer N questions (5) on random trees; the library grades",
	text = "Each question has a tree of its own, made by the commands shown:\n" ..
		"which ID alloc or alloc_cyclic returns next, how many nodes an\n" ..
		"allocation makes, which slot of the root an ID goes through,\n" ..
		"whether a tagged ID is live.  --seed S asks the same questions\n" ..
		"each time (the title says the seed of a quiz without one).\n" ..
		"Answers come as for 'lesson'; --html OUT.html writes the quiz\n" ..
		"as a replay page, as 'lesson' does.",
	example = "quiz 5 --seed 1",
	complete = { "--seed", "--answers", "--html" },
	run = function(args)
		local o, rest = lesson_options(args, true)
		if not o then return nil, rest end
		if #rest > 1 then return nil, usage("quiz") end
		local n, e = number(rest[1] or "5", "N", QUIZ_MAX, 1)
		if not n then return nil, e end
		local seed = os.time()
		if o.seed then
			seed, e = number(o.seed, "S", INT_MAX)
			if not seed then return nil, e end
		end
		if o.html then return lesson_html(Quiz.make(n, seed), o.html) end
		return start(Quiz.make(n, seed), o.answers)
	end,
}

-- }----------------------------------------------------------------

-- }===============================================================
