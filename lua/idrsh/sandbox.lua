-- SPDX-License-Identifier: MIT
-- sandbox.lua - where a lesson or quiz plays (lessons.lua): trees,
-- readers, marks and preload of its own, only the commands a lesson may
-- run, and each command's output captured for the lesson to show or
-- grade.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local run = require "idrsh.run"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, getmetatable, io, ipairs, pairs, pcall, setmetatable, table,
	tostring = error, getmetatable, io, ipairs, pairs, pcall,
	setmetatable, table, tostring

local quoted = words.quoted
local current = trees.current
local run_line = run.run_line

local M = {}

-- The commands a lesson may run: none runs Lua, reads or writes a file,
-- or waits for input.
local LESSON_ALLOWED = {}
for w in ([[new use trees drop alloc alloc_cyclic alloc_u32 find remove
	replace next list cursor count empty destroy pre_get preload
	preload_end get_new get_new_above alloc_tagged find_tagged
	remove_tagged check untag ida_alloc ida_free ida_exists alloc_many dump
	path stats trace mem help explain mark diff rcu_barrier]]):gmatch("%S+") do
	LESSON_ALLOWED[w] = true
end


-- allowed(command) for idr.lesson_parse, and sh.only while a lesson
-- runs (dispatch asks it of every line, so a command that runs another,
-- as 'explain COMMAND', has its line checked too): true, or nil and why.
local function lesson_allowed(line)
	if line:find("^%s*=") then
		return nil, "'=' runs Lua: a lesson runs only idrsh commands"
	end
	-- The word dispatch looks up: '"lua"' is lua.
	local name, rest = run.command_word(line)
	if not name then return nil, rest end
	if name == "" then return nil, "a command is missing" end
	if not LESSON_ALLOWED[name] then
		return nil, quoted(name) .. " is not allowed in a lesson: it " ..
			"runs only idrsh commands that run no Lua and touch no file"
	end
	local runs = registry.get(name).runs
	local inner = runs and runs(rest)
	if inner then return lesson_allowed(inner) end
	return true
end

-- {------------------------- The sandbox ----------------------------

-- Marks are the sandbox's own too: a lesson's 'mark' must not replace
-- the user's mark of the same name.
local function sandbox()
	local own = setmetatable({}, getmetatable(sh.trees))
	own.default = idr.new {}
	return { trees = own, current = "default", on = {}, marks = {},
		preloaded = 0 }
end

-- This thread's preloaded nodes (idr_preload() is no tree's: any tree
-- tells them).
local preload_probe
local function preloaded()
	preload_probe = preload_probe or idr.new {}
	return preload_probe:stats().preloaded
end

-- Makes this thread's preload exactly @n nodes, so that a lesson's
-- stock, part used, is not refilled between its steps: preload_end
-- empties it, preload fills it (the most an insertion can take), and
-- the insertions of a scratch tree of two levels, built before, take
-- the nodes over @n, a new leaf each.
local function preload_as(n)
	if preloaded() == n then return end
	sh.config.preload_end()
	if n == 0 then return end
	local scratch = idr.new {}
	scratch:alloc(true, 0)
	scratch:alloc(true, idr.SLOTS)
	sh.config.preload()
	for leaf = 2, idr.SLOTS - 1 do
		if preloaded() <= n then break end
		scratch:alloc(true, leaf * idr.SLOTS)
	end
	scratch:destroy()
end

-- Calls @fn(...) with @box's trees, readers, marks and preload as the
-- shell's, and only the lines a lesson may run.  The user's 'timer on'
-- waits: a Run Time line in a command's output would grade it wrong.
local function inside(box, fn, ...)
	local users, cur, on, marks = sh.trees, sh.current, sh.on, sh.marks
	local only, users_preload = sh.only, preloaded()
	local timer = output.timing()
	sh.trees, sh.current, sh.on = box.trees, box.current, box.on
	sh.marks, sh.only = box.marks, lesson_allowed
	preload_as(box.preloaded)
	output.set_timer(false)
	local r = table.pack(pcall(fn, ...))
	output.set_timer(timer)
	box.current, box.preloaded = sh.current, preloaded()
	preload_as(users_preload)
	sh.trees, sh.current, sh.on, sh.marks = users, cur, on, marks
	sh.only = only
	if not r[1] then error(r[2], 0) end
	return table.unpack(r, 2, r.n)
end

-- The readers that print: a question's answer is its command's output
-- without them, or '> trace on' earlier would make every answer wrong.
local PRINTING = { "trace", "explain", "step" }

-- Runs one lesson line as the shell would; returns what it printed, on
-- stdout and stderr both (the "idrsh: " of a message dropped), and
-- true if it succeeded.  @answer: the line is a question's command.
-- It runs as text: what the lesson shows and grades, in any format.
local function captured(line, answer)
	local muted = {}
	for _, name in ipairs(answer and PRINTING or {}) do
		muted[name], sh.on[name] = sh.on[name], nil
	end
	local buf = {}
	local sink = {}
	function sink.write(self, ...)
		for _, s in ipairs({ ... }) do buf[#buf + 1] = tostring(s) end
		return self
	end
	function sink.flush(self) return self end
	local so, se, color = io.stdout, io.stderr, sh.config.color_err
	io.stdout, io.stderr, sh.config.color_err = sink, sink, false
	-- Captured, so never paged: a pager would bypass the sink.
	local tty = sh.tty
	sh.tty = false
	local done, r = pcall(output.as_text, run_line, line, nil)
	sh.tty = tty
	io.stdout, io.stderr, sh.config.color_err = so, se, color
	for name, was in pairs(muted) do sh.on[name] = was end
	if not done then error(r, 0) end
	local text = table.concat(buf):gsub("^idrsh: ", ""):gsub("\nidrsh: ", "\n")
	return text, r == true
end

local function tree_stats()
	local t = current()
	if not t then return nil end
	local ok, s = pcall(t.stats, t)
	return ok and s or nil
end

M.allowed, M.new, M.inside, M.captured, M.tree_stats, M.PRINTING =
	lesson_allowed, sandbox, inside, captured, tree_stats, PRINTING

return M
