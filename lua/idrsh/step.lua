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
local command, usage = registry.command, registry.usage
local tree, call, info_of, valid_name = trees.tree, trees.call,
	trees.info_of, trees.valid_name
local reader, switch, observe_trees, command_done = events.reader,
	events.switch, events.observe_trees, events.command_done
local dispatch = run.dispatch

-- {===================== Stepping and diffs =======================

--[[
'step on': a reader that draws each event (idr.event_text) and, at the
terminal, waits for a line after each: Enter the next event, 'c' the
rest of the operation without waiting, 'q' nothing more of it.  An
operation is what a command does to a tree ("op" to "done" when the
binding reports those events).  Lines from a script, a pipe, -c or
--batch never wait: sh.tty says the line came from the terminal.
]]
local stepping = { n = 0 } -- the event's number; mode: "c", "q" or nil

local function step_reset()
	stepping.n, stepping.mode = 0, nil
end

local STEP_KEYS = { [""] = "next", c = "c", q = "q" }

-- The key read at the terminal; the end of input counts as 'c'.  Ctrl-C
-- interrupts the read, and src/idrsh.c's hook then raises INTERRUPTED.
local function step_key()
	while true do
		out("-- Enter: next step, c: continue, q: stop stepping -- ")
		io.stdout:flush()
		local line = io.read("l")
		if line == nil then return "c" end
		local key = STEP_KEYS[line:match("^%s*(.-)%s*$"):lower()]
		if key then return key end
		-- A command typed ahead would otherwise vanish without a word.
		out("(not a step key: the operation is still going on; type the" ..
			" line again once it ends)\n")
	end
end

reader {
	name = "step",
	event = function(ev, t)
		if ev.event == "op" then step_reset() end
		if stepping.mode ~= "q" then
			stepping.n = stepping.n + 1
			out("step ", stepping.n, ", ", t:event_text(ev))
			if not stepping.mode and sh.tty then
				local key = step_key()
				if key ~= "next" then stepping.mode = key end
			end
		end
		if ev.event == "done" then step_reset() end
	end,
	done = step_reset,
}

command {
	name = "step", args = "on|off", min = 1,
	help = "draw each step of later operations, and wait after each",
	text = "After each event of an operation: what happened, in words, and\n" ..
		"the node concerned as a row of its 64 slots ('#' in use in a\n" ..
		"leaf, subtree full in a node; '.' free or room), with '^' under\n" ..
		"the cell that changed.  At the terminal it then waits: Enter\n" ..
		"shows the next step, 'c' the rest of the operation, 'q' stops\n" ..
		"stepping it; Ctrl-C interrupts; any other line is refused (a\n" ..
		"command waits for the operation's end).  In scripts, pipes and\n" ..
		"--batch it never waits.  In Lua: t:event_text(ev),\n" ..
		"t:step_text(fn).",
	example = "step on",
	complete = { "on", "off" },
	run = switch("step", function() step_reset() end),
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
		outln(string.format("mark '%s': tree '%s', %s, height %d, %s",
			name, sh.current, plural(snap.count, "ID", "IDs"),
			snap.height, plural(snap.nodes, "node", "nodes")))
		return true
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
		"NAME defaults to 'mark'; past 40 lines it says how many more\n" ..
		"changes there are, and --all shows them all.  In Lua:\n" ..
		"t:diff(snap), t:diff_text(snap).",
	example = "diff before",
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

local function tell(t)
	local list = told[t]
	told[t] = nil
	if list and #list > 0 then
		outln((t:explain(list):gsub("\n$", "")))
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
		"tells one command (explain alloc x 64), and fails when it fails.\n" ..
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
		local was = sh.on.explain
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
		return r
	end,
}

-- }===============================================================
