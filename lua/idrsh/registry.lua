-- SPDX-License-Identifier: MIT
-- registry.lua - the shell's commands, each one record made by
-- command { ... } beside its handler, in the module of its family.
-- Dispatch, help, "help CMD", completion and the man page's test all
-- read those records, and 'help' lists the commands in the order they
-- were made: the order in which lua/idrsh/init.lua loads the families.
--
-- A handler (a record's 'run') gets (args, rest): the words after the
-- command, and the raw rest of the line.  It returns true, false (a
-- failure already reported), "quit", or nil and a message, printed as
-- "CMD: message".

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local assert, ipairs, math, table, type = assert, ipairs, math, table, type

-- {========================= The commands =========================

-- Every command, in the order 'help' lists them; and by name.
local COMMANDS, BY_NAME = {}, {}

--[[
Makes command @c, one record:
  name      the word that runs it
  args      the argument synopsis, "" (the default) for none
  min, max  least and most arguments (defaults: 0, and min)
  raw       true: the handler gets the raw rest of the line, unsplit
            (min and max then go unused)
  help      the one-line help of 'help' and the man page
  text      longer text of 'help NAME', or nil
  example   lines that run as they stand in a new shell, the command last
  complete  completion of the arguments: nil, "files", a list of words,
            or a function(word, line before it) returning one
  run       the handler, run(args, rest)
  runs      for a command that runs another line: runs(rest) -> that
            line, or nil when this use runs none (a lesson checks it)
]]
local function command(c)
	assert(type(c.name) == "string" and not BY_NAME[c.name], c.name)
	assert(type(c.run) == "function" and c.help and c.example, c.name)
	c.args = c.args or ""
	c.min = c.min or 0
	c.max = c.max or c.min
	COMMANDS[#COMMANDS + 1] = c
	BY_NAME[c.name] = c
end

local function usage(name)
	local c = BY_NAME[name]
	return "usage: " .. c.name .. (c.args ~= "" and " " .. c.args or "")
end

local function command_names()
	local names = {}
	for i, c in ipairs(COMMANDS) do names[i] = c.name end
	return names
end

-- The edit distance between @a and @b: insertions, deletions,
-- substitutions and swaps of neighbours (optimal string alignment).
local function distance(a, b)
	local d = {}
	for i = 0, #a do d[i] = { [0] = i } end
	for j = 0, #b do d[0][j] = j end
	for i = 1, #a do
		for j = 1, #b do
			local cost = a:byte(i) == b:byte(j) and 0 or 1
			d[i][j] = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1,
				d[i - 1][j - 1] + cost)
			if i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and
				a:byte(i - 1) == b:byte(j) then
				d[i][j] = math.min(d[i][j], d[i - 2][j - 2] + 1)
			end
		end
	end
	return d[#a][#b]
end

-- " did you mean 'x'?" for the command names nearest @word, or "": one
-- edit away, two for words of five letters or more; else those that
-- @word begins (two letters at least), as an abbreviation.
local function did_you_mean(word)
	if #word > 64 then return "" end
	local best, near = #word >= 5 and 2 or 1, {}
	for _, name in ipairs(command_names()) do
		local d = distance(word:lower(), name)
		if d < #name and d <= best then
			if d < best then near = {} end
			best, near[#near + 1] = d, name
		end
	end
	if #near == 0 and #word >= 2 then
		for _, name in ipairs(command_names()) do
			if name:sub(1, #word) == word:lower() then
				near[#near + 1] = name
			end
		end
	end
	if #near == 0 or #near > 3 then return "" end
	return "; did you mean '" .. table.concat(near, "' or '") .. "'?"
end

-- }===============================================================

-- The record of command @name, or nil.
local function get(name)
	return BY_NAME[name]
end

return {
	command = command,
	get = get,
	list = COMMANDS,
	names = command_names,
	usage = usage,
	did_you_mean = did_you_mean,
}
