-- SPDX-License-Identifier: MIT
-- step.lua - the commands that follow operations as they run, or
-- compare the tree with itself: step, mark, diff, explain.

local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local events = require "idrsh.events"
local run = require "idrsh.run"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, io, ipairs, pairs, pcall, rawget, setmetatable, string,
	table = error, io, ipairs, pairs, pcall, rawget, setmetatable, string,
	table

local out, outln = output.out, output.outln
local quoted, failure_text = words.quoted, words.failure_text
local INTERRUPTED = words.INTERRUPTED
local command, usage = registry.command, registry.usage
local tree, call, info_of, valid_name = trees.tree, trees.call,
	trees.info_of, trees.valid_name
local reader, switch, observe_trees, command_done = events.reader,
	events.switch, events.observe_trees, events.command_done
local dispatch = run.dispatch

-- {===================== Stepping and diffs =======================

--[[
'step on': a reader that draws each event of an operation (t:step_texts)
and, at the terminal, waits for a line between two of them: Enter the
next event, 'c' the rest of the operation without waiting, 'q' nothing
more of this command, Ctrl-C the same as 'q'.  The binding delivers an
operation's events once it is over ("op" to "done"), so they are drawn
then, each row as its node was just after its event; after an
operation's last event it does not wait.  Lines from a script, a pipe,
-c or --batch never wait: sh.tty says the line came from the terminal.
]]
local pending = setmetatable({}, { __mode = "k" }) -- tree -> its events
local quit = false -- 'q' or Ctrl-C: no more steps in this command

local STEP_KEYS = { [""] = "next", c = "c", q = "q" }

-- The key read at the terminal; the end of input counts as 'c', Ctrl-C
-- (src/idrsh.c's hook raises INTERRUPTED, or the read fails) as 'q'.
local function step_key()
	while true do
		out("-- Enter: next step, c: continue, q: stop stepping -- ")
		io.stdout:flush()
		-- The shell's own reader: it reads no line past this one.
		local ok, line, err = pcall(sh.config.read_line or io.read)
		if not ok and line ~= INTERRUPTED then error(line, 0) end
		if not ok or (line == nil and err) then
			-- A command that holds interrupts (alloc_many) would
			-- stop at this one: it was for the stepping.
			sh.config.hold_interrupts()
			out("\n(stepping stops here: the command goes on to its end)\n")
			return "q"
		end
		if line == nil then return "c" end
		local key = STEP_KEYS[line:match("^%s*(.-)%s*$"):lower()]
		if key then return key end
		-- A command typed ahead would otherwise vanish without a word.
		out("(not a step key: the operation is still going on; type the" ..
			" line again once it ends)\n")
	end
end

-- Draws the events @t reported since the last time, waiting between two.
local function play(t)
	local list = pending[t]
	pending[t] = nil
	if not list or quit then return end
	local texts = t:step_texts(list)
	local wait = sh.tty
	for i, text in ipairs(texts) do
		out("step ", i, ", ", text)
		if wait and i < #texts then
			local key = step_key()
			if key == "q" then
				quit = true
				return
			end
			wait = key == "next"
		end
	end
end

reader {
	name = "step",
	event = function(ev, t)
		local list = pending[t] or {}
		pending[t] = list
		list[#list + 1] = ev
		if ev.event == "done" then play(t) end
	end,
	done = function()
		for t in pairs(pending) do play(t) end
		quit = false
	end,
}

command {
	name = "step", args = "on|off", min = 1,
	help = "draw each step of later operations, waiting between steps",
	text = "Each event of an operation: what happened, in words, the node\n" ..
		"concerned as a row of its 64 slots just after it, in the dump's\n" ..
		"symbols ('#' in use in a leaf, full below in a node; '+' a\n" ..
		"child with room; '.' free; '-' no child), '^' under the cell\n" ..
		"concerned, and the kernel's step.  At the terminal it waits\n" ..
		"between two steps: Enter shows the next, 'c' the rest of the\n" ..
		"operation, 'q' or Ctrl-C stops stepping for the whole command\n" ..
		"(which goes on to its end and prints its result); any other\n" ..
		"line is refused.  No wait after an operation's last step.  In\n" ..
		"scripts, pipes and --batch it never waits.  In Lua:\n" ..
		"t:step_text(fn), t:step_texts(events), idr.event_text(ev).",
	example = "step on",
	complete = { "on", "off" },
	run = switch("step", function() quit = false end),
}

local function mark_name(args, i)
	local name = args[i] or "mark"
	if not valid_name(name) then
		return nil, "bad mark name " .. quoted(name)
	end
	return name
end

local function plural(n, one, many)
	return n .. " " .. (n == 1 and one or many)
end

local function names_of(t)
	local names = {}
	for k in pairs(t) do names[#names + 1] = k end
	table.sort(names)
	return names
end

command {
	name = "mark", args = "[NAME]", max = 1,
	help = "remember the current tree's shape and entries, for 'diff'",
	text = "NAME defaults to 'mark'; several named marks can be kept.\n" ..
		"In Lua: snap = t:mark().",
	example = "mark before",
	complete = function() return names_of(sh.marks) end,
	run = function(args)
		local name, err = mark_name(args, 1)
		if not name then return nil, err end
		local t, terr = tree("any")
		if not t then return nil, terr end
		local snap, msg = call(t, "mark")
		if not snap then return nil, msg end
		sh.marks[name] = { snap = snap, tree = sh.current,
			of = setmetatable({ t }, { __mode = "v" }) }
		return output.result({ mark = name, tree = sh.current,
			ids = snap.count, height = snap.height, nodes = snap.nodes },
			string.format("mark '%s': tree '%s', %s, height %d, %s",
			name, sh.current, plural(snap.count, "ID", "IDs"),
			snap.height, plural(snap.nodes, "node", "nodes")))
	end,
}

-- The tree a mark is of, if it is the current tree and still alive.
local function marked_tree(name, m)
	local obj = m.of[1]
	local info = obj and info_of(obj)
	if not info or info.destroyed then
		return nil, "tree '" .. m.tree .. "' of mark '" .. name ..
			"' was destroyed since; a mark compares one tree with itself"
	end
	local t, err = tree("any")
	if not t then return nil, err end
	if t ~= obj then
		return nil, "mark '" .. name .. "' is of tree '" .. m.tree ..
			"', not of the current tree '" .. sh.current .. "'" ..
			(rawget(sh.trees, m.tree) == obj and
			"; 'use " .. m.tree .. "' first" or "")
	end
	return t
end

command {
	name = "diff", args = "[NAME] [--all]", max = 2,
	help = "show what changed in the tree since 'mark NAME'",
	text = "Nodes made and freed, bits changed (which slot of which node,\n" ..
		"full or present), IDs added, removed or replaced, the height.\n" ..
		"Nodes are counted as stats counts them: a keyed block is one.\n" ..
		"NAME defaults to 'mark'; past 40 lines it says how many more\n" ..
		"changes there are, and --all shows them all.  In Lua:\n" ..
		"t:diff(snap), t:diff_text(snap).",
	example = "mark before\nalloc eth0\ndiff before",
	complete = function(text)
		if text:sub(1, 1) == "-" then return { "--all" } end
		return names_of(sh.marks)
	end,
	run = function(args)
		local all, names = false, {}
		for _, a in ipairs(args) do
			if a == "--all" then
				all = true
			elseif a:sub(1, 1) == "-" or #names > 0 then
				return nil, usage("diff")
			else
				names[1] = a
			end
		end
		local name, err = mark_name(names, 1)
		if not name then return nil, err end
		local m = sh.marks[name]
		if not m then
			return nil, "no mark '" .. name .. "'; make one with 'mark" ..
				(name == "mark" and "" or " " .. name) .. "'"
		end
		local t, terr = marked_tree(name, m)
		if not t then return nil, terr end
		return output.result(function()
			local list, msg = call(t, "diff", m.snap)
			return list and output.changes(list), msg
		end, function()
			local text, msg = call(t, "diff_text", m.snap,
				{ max_lines = all and 0 or nil })
			if text then out(text) end
			return nil, msg
		end)
	end,
}

-- }===============================================================

-- {=========================== Explain ============================

-- Each tree's events since its last "done": an operation being told.
local told = setmetatable({}, { __mode = "k" })

-- Operations told so far: 'explain COMMAND' says when it told none.
local tellings = 0

local function tell(t)
	local list = told[t]
	told[t] = nil
	if list and #list > 0 then
		outln((t:explain(list):gsub("\n$", "")))
		tellings = tellings + 1
	end
end

reader {
	name = "explain",
	event = function(ev, t)
		local list = told[t] or {}
		told[t] = list
		list[#list + 1] = ev
		if ev.event == "done" then tell(t) end
	end,
	done = function()
		for t in pairs(told) do tell(t) end
	end,
}

command {
	name = "explain", args = "on|off|COMMAND...", min = 1, raw = true,
	help = "tell in sentences what each operation does, level by level",
	text = "explain on: every later operation is told as it runs: the\n" ..
		"ID's base-64 digits, each node's full bitmap and why the search\n" ..
		"took the slot it took, nodes made and freed, the full bits that\n" ..
		"change on the way back up, the result, and the kernel function\n" ..
		"doing the same step.  explain off stops.  explain COMMAND ...\n" ..
		"tells one command (explain alloc x 64), and fails when it fails;\n" ..
		"one that calls no traced operation (destroy, stats) says so.\n" ..
		"From Lua: t:explain(fn) or t:explain(t:events(fn)).",
	example = "explain alloc x 64",
	complete = { "on", "off" },
	runs = function(rest)
		if rest ~= "" and rest ~= "on" and rest ~= "off" then
			return rest
		end
	end,
	run = function(_, rest, src)
		if rest == "" then return nil, usage("explain") end
		if rest == "on" or rest == "off" then
			sh.on.explain = rest == "on" or nil
			return true
		end
		local was, before = sh.on.explain, tellings
		sh.on.explain = true
		observe_trees()
		local ok, name, r, err = pcall(dispatch, rest, src)
		command_done(rest)
		sh.on.explain = was
		observe_trees()
		if not ok then error(name, 0) end
		-- The command's failure is explain's: the caller reports it at
		-- its line, and a script's exit status and --bail see it.
		if r == nil and err then return nil, failure_text(name, err) end
		-- destroy, stats, list...: nothing of the tree's to tell.
		if tellings == before then
			outln(("(%s ran no traced operation: nothing to tell)"):format(
				name))
		end
		return r
	end,
}

-- }===============================================================
