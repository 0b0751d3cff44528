-- SPDX-License-Identifier: MIT
-- format.lua - the commands that say how results are shown: format
-- (text or JSON Lines), time and timer (each command's run time, as
-- sqlite3's .timer shows it).

local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local run = require "idrsh.run"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, pcall = error, pcall

local result, set_format, set_timer, timing, clock = output.result,
	output.set_format, output.set_timer, output.timing, output.clock
local failure_text = words.failure_text
local command, usage = registry.command, registry.usage
local dispatch, timed = run.dispatch, run.timed

-- {======================= Formats, timing ========================

command {
	name = "format", args = "[text|json]", max = 1,
	help = "print results as text, or as JSON Lines; or say which",
	text = "format json: each command's result is one JSON value on a\n" ..
		"line of standard output, IDs as numbers, values as strings\n" ..
		"(null: a reserved ID); an error is one JSON object on standard\n" ..
		"error: {\"message\": ..., \"errno\": \"ENOENT\" or null, \"where\":\n" ..
		"\"FILE:LINE\"}.  save, load, import, help, mark and record\n" ..
		"save give objects; lesson and quiz one object a step\n" ..
		"({\"question\": ...}, {\"graded\": ...}).  dump, explain, dot\n" ..
		"and step, whose text is their result, give {\"text\": ...}, as\n" ..
		"does what Lua prints (print, io.write).  idrsh --json starts\n" ..
		"so.  idrsh(1), JSON OUTPUT, has each command's shape.  format\n" ..
		"text goes back.",
	example = "format json",
	complete = { "text", "json" },
	run = function(args)
		if not args[1] then return result(output.format(), output.format()) end
		return set_format(args[1])
	end,
}

command {
	name = "time", args = "COMMAND...", raw = true,
	help = "run COMMAND, then print its wall and CPU time",
	text = "As sqlite3's .timer prints it, after the command's output:\n" ..
		"  Run Time: real 0.002 user 0.001520 sys 0.000000\n" ..
		"real: wall-clock seconds; user, sys: CPU seconds of idrsh in\n" ..
		"user space and in the kernel.  In JSON: {\"run_time\": {\"real\":\n" ..
		"R, \"user\": U, \"sys\": S}}.  A lesson or quiz is timed whole,\n" ..
		"its answers too: the line comes after its score.  time fails\n" ..
		"when COMMAND fails.",
	example = "time alloc_many 100000",
	complete = registry.names,
	runs = function(rest)
		if rest ~= "" then return rest end
	end,
	run = function(_, rest, src)
		if rest == "" then return nil, usage("time") end
		-- With the timer on, the line's own time is the command's.
		local start = not timing() and clock()
		local ok, name, r, err = pcall(dispatch, rest, src)
		if not ok then error(name, 0) end
		-- A line that ran no command (unknown) has no time to show.
		if start and name ~= "" then timed(start) end
		if r == nil and err then return nil, failure_text(name, err) end
		return r
	end,
}

command {
	name = "timer", args = "on|off", min = 1,
	help = "print the wall and CPU time of each command after it",
	text = "timer on: 'time' for every later command (see 'help time');\n" ..
		"a lesson's own commands are not timed, or the Run Time lines\n" ..
		"would be part of the output its questions grade.",
	example = "timer on",
	complete = { "on", "off" },
	run = function(args)
		if args[1] ~= "on" and args[1] ~= "off" then
			return nil, "say 'timer on' or 'timer off'"
		end
		set_timer(args[1] == "on")
		return true
	end,
}

-- }===============================================================
