-- SPDX-License-Identifier: MIT
-- help.lua - help (.help, ?) and quit (exit, .quit): loaded last, so
-- that 'help' lists them last.

local idr = require "idr"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, math, string = ipairs, math, string

local outln, bold, result = output.outln, output.bold, output.result
local quoted = words.quoted
local command, usage, did_you_mean = registry.command, registry.usage,
	registry.did_you_mean
local COMMANDS, command_names = registry.list, registry.names

-- {============================ Help ==============================

-- In JSON, a command's record: {name, args, help, text (null: none),
-- example}.
local function record_of(c)
	return { name = c.name, args = c.args, help = c.help,
		text = c.text or idr.json.null, example = c.example }
end

-- =EXPR is no command of the table (the reader of lines runs it), but
-- help's last line names it: 'help =' tells it as 'help lua' tells lua.
local EXPR = {
	name = "=", args = "EXPR",
	usage = "usage: =EXPR",
	help = "print the values of Lua expressions; 't' is the current tree",
	text = "=EXPR is 'lua return EXPR': a list of expressions, each value\n" ..
		"printed as 'lua' prints it, tables sorted and bounded.  At the\n" ..
		"terminal an unfinished expression goes on at the '>> ' prompt,\n" ..
		"as 'lua' does (see 'help lua').",
	example = "alloc a\n=t:find(0), t:count()",
}

local function help_on(c)
	outln(c.usage or usage(c.name))
	outln("")
	outln(c.help)
	if c.text then outln(""); outln(c.text) end
	outln("")
	-- An example runs as it stands in a new shell: the lines before
	-- the command make what it needs.
	outln("example:")
	for line in c.example:gmatch("[^\n]+") do outln("  " .. line) end
end

local function help(args)
	if args[1] then
		local c = args[1]:find("^=") and EXPR or registry.get(args[1])
		if not c then
			return nil, "no command " .. quoted(args[1]) ..
				did_you_mean(args[1])
		end
		return result(record_of, help_on, c)
	end
	-- In JSON, the list: [{name, args, help}...].
	return result(function()
		local list = {}
		for i, c in ipairs(COMMANDS) do
			list[i] = { name = c.name, args = c.args, help = c.help }
		end
		return list
	end, function()
		for _, c in ipairs(COMMANDS) do
			outln(string.format("%s%s %s", bold(c.name),
				string.rep(" ", math.max(1, 15 - #c.name)), c.help))
		end
		outln("Type 'help CMD' for more; =EXPR prints a Lua expression.")
	end)
end

-- help's and quit's other names are those of sqlite3, python3 and
-- redis-cli.
for _, name in ipairs({ "help", ".help", "?" }) do
	command {
		name = name, args = "[CMD]", max = 1,
		help = name == "help" and "list the commands, or explain one"
			or "the same as help",
		example = name .. " alloc",
		complete = command_names,
		run = help,
	}
end

for _, name in ipairs({ "quit", "exit", ".quit" }) do
	command {
		name = name,
		help = name == "quit" and "leave idrsh (so does Ctrl-D)"
			or "the same as quit",
		example = name,
		run = function() return "quit" end,
	}
end

-- }===============================================================
