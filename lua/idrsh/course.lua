-- SPDX-License-Identifier: MIT
-- course.lua - the lessons compiled in, as a course: their suggested
-- order, which of them the user has done (a file in the user's state
-- directory), and 'lesson' with no name, a number or 'next'.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local Lesson = require "idrsh.lesson"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local io, ipairs, math, os, pcall, string, table, tonumber, tostring =
	io, ipairs, math, os, pcall, string, table, tonumber, tostring

local result = output.result

local M = {}

--[[
The suggested order, in this one place: each lesson leans on those
before it (the lowest free ID before lookup's digits, growth before
removal's shrinking, the 2004 protocol before today's preload, the
tree's shape before memory, packing and why 64, and all of it before
what an RCU reader may see).  A lesson compiled in but not named here
comes after these, by name.
]]
M.ORDER = {
	"lowest-free", "lookup", "grow-shrink", "removal", "iteration",
	"cyclic", "pre-get", "preload", "generations", "ida", "memory",
	"packed", "why-64", "rcu-readers",
}

--- M.names() -> the lessons compiled in, in the course's order.
function M.names()
	local names, seen = {}, {}
	for _, name in ipairs(M.ORDER) do
		if Lesson.texts[name] then
			names[#names + 1], seen[name] = name, true
		end
	end
	local rest = {}
	for _, name in ipairs(Lesson.names()) do
		if not seen[name] then rest[#rest + 1] = name end
	end
	for _, name in ipairs(rest) do names[#names + 1] = name end
	return names
end

-- {======================== Lessons done ===========================

--[[
A lesson is done once the user has finished it with every answer
right (a lesson compiled in, taken by name, number or 'next'; not a
FILE, a quiz or --html).  The names of those done are the lines of
$XDG_STATE_HOME/idrsh/lessons-done, or ~/.local/state/idrsh/lessons-done
(the XDG default), beside where the history is kept.  Failing to write
it never fails the lesson: the caller prints a warning.
]]
local FILE = "lessons-done"

--- M.dir() -> the user's state directory for idrsh, or nil (no HOME).
function M.dir()
	local x = os.getenv("XDG_STATE_HOME")
	if x and x ~= "" then return x .. "/idrsh" end
	local home = os.getenv("HOME")
	if home and home ~= "" then return home .. "/.local/state/idrsh" end
end

--- M.done() -> set of the lessons done (name -> true); empty if none
-- is recorded or the file cannot be read.
function M.done()
	local set, dir = {}, M.dir()
	local f = dir and io.open(dir .. "/" .. FILE, "r")
	if not f then return set end
	local ok, text = pcall(f.read, f, 65536)
	f:close()
	for name in ((ok and text) or ""):gmatch("[^\n]+") do
		if Lesson.texts[name] then set[name] = true end
	end
	return set
end

-- mkdir -p @dir, a component at a time.
local function make_dir(dir)
	local mkdir = sh.config.mkdir
	if not mkdir then return nil, "no mkdir in this Lua" end
	local path = dir:sub(1, 1) == "/" and "" or "."
	for part in dir:gmatch("[^/]+") do
		path = path .. "/" .. part
		local ok, err = mkdir(path)
		if not ok then return nil, err end
	end
	return true
end

--- M.mark(name) -> true once @name is recorded as done; nil and why
-- when it could not be (an unwritable directory, no HOME).
function M.mark(name)
	local dir = M.dir()
	if not dir then return nil, "neither XDG_STATE_HOME nor HOME is set" end
	local set = M.done()
	if set[name] then return true end
	set[name] = true
	local ok, err = make_dir(dir)
	if not ok then return nil, err end
	local lines = {}
	for _, n in ipairs(M.names()) do
		if set[n] then lines[#lines + 1] = n .. "\n" end
	end
	-- Written whole, then renamed: a full disk leaves the old file.
	local path = dir .. "/" .. FILE
	local f, ferr = io.open(path .. ".new", "w")
	if not f then return nil, ferr end
	local wok, werr = f:write(table.concat(lines))
	local cok, cerr = f:close()
	if not (wok and cok) then
		os.remove(path .. ".new")
		return nil, path .. ".new: " .. tostring(werr or cerr)
	end
	local rok, rerr = os.rename(path .. ".new", path)
	if not rok then
		os.remove(path .. ".new")
		return nil, rerr
	end
	return true
end

-- }===============================================================

-- {====================== Choosing a lesson =========================

--- M.pick(word) -> the name of the lesson 'lesson WORD' means when
-- WORD is a number of the course or 'next'; nil when it is neither
-- (a name or a FILE); false and why when it names none.
function M.pick(word)
	local names = M.names()
	if word == "next" then
		local name = M.next_name()
		if name then return name end
		return false, "every lesson of the course is done (" .. #names ..
			" of " .. #names .. "); take one again by its name or number"
	end
	local n = word:find("^%d+$") and math.tointeger(tonumber(word))
	if not n then return nil end
	if names[n] then return names[n] end
	return false, "no lesson " .. word .. ": the course has lessons 1 to " ..
		#names
end

--- M.next_name() -> the first lesson of the course not done, or nil.
function M.next_name()
	local done = M.done()
	for _, name in ipairs(M.names()) do
		if not done[name] then return name end
	end
end

-- The course as data: { lessons = { { n, name, title, done }... },
-- next = the first not done (nil: the course is complete) }.
local function course()
	local done, list = M.done(), {}
	for i, name in ipairs(M.names()) do
		local l = Lesson.get(name)
		list[i] = { n = i, name = name, title = l and l.title or "?",
			done = done[name] == true }
	end
	return { lessons = list, next = M.next_name() }
end

local function course_text(c)
	local lines, ndone = {
		"The course, in the suggested order ([x]: done):" }, 0
	for _, l in ipairs(c.lessons) do
		if l.done then ndone = ndone + 1 end
		lines[#lines + 1] = string.format("%2d [%s] %-14s %s", l.n,
			l.done and "x" or " ", l.name, l.title)
	end
	if c.next then
		lines[#lines + 1] = string.format("%d of %d done.  Type 'lesson " ..
			"next' for the next one (%s),", ndone, #c.lessons, c.next)
		lines[#lines + 1] = "'lesson N' or 'lesson NAME' for any, " ..
			"'lesson FILE' for your own."
	else
		lines[#lines + 1] = string.format("%d of %d done: the course is " ..
			"complete.  'lesson N' or 'lesson NAME'", ndone, #c.lessons)
		lines[#lines + 1] = "takes any again, 'lesson FILE' runs your own."
	end
	return table.concat(lines, "\n")
end

--- M.list(): 'lesson' with no argument: the course, numbered, the
-- lessons done marked; in JSON {"lessons": [{n, name, title, done}...],
-- "next": NAME or null}.
function M.list()
	local c = course()
	return result({ lessons = c.lessons, next = c.next or idr.json.null },
		course_text, c)
end

--- M.ending(name, full) -> what the end of the course's lesson @name
-- says after its score: recorded and which comes next (@full: every
-- answer right), or that it is not recorded.
function M.ending(name, full)
	if not full then
		return "Not recorded as done: that takes every answer right. " ..
			"'lesson " .. name .. "' starts it again."
	end
	local n = M.next_name()
	if n then
		local l = Lesson.get(n)
		return "Next: 'lesson next' takes " .. n ..
			(l and (" (" .. l.title .. ")") or "") .. "."
	end
	return "That was the last lesson not done: the course is complete."
end

-- }===============================================================

return M
