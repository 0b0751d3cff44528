-- SPDX-License-Identifier: MIT
-- lua.lua - the commands that run Lua and files: lua CHUNK (and =EXPR,
-- which the reader of lines runs itself), source FILE; and the shell
-- for Lua: idrsh.run(LINE).

local sh = require "idrsh.state"
local output = require "idrsh.output"
local registry = require "idrsh.registry"
local chunk = require "idrsh.chunk"
local run = require "idrsh.run"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, error, io, loadfile, math, pcall, table, tostring, type = _G,
	error, io, loadfile, math, pcall, table, tostring, type

local command, usage = registry.command, registry.usage
local run_fn, run_chunk = chunk.run_fn, chunk.run_chunk
local feed, finish = run.feed, run.finish
local capture = output.capture

local SOURCE_DEPTH_MAX = 16

-- {========================== Lua, files ==========================

command {
	name = "lua", args = "CHUNK", raw = true,
	help = "run Lua and print what it returns; 't' is the current tree",
	text = "The module is 'idr'; 'trees' holds the trees by name, and\n" ..
		"trees.current the current one, as 't' does until a chunk assigns\n" ..
		"'t'.  A bare expression prints its value, as in lua5.4: lua 1+1.\n" ..
		"=EXPR prints the values of Lua expressions.  At the terminal an\n" ..
		"unfinished chunk goes on at the '>> ' prompt (Ctrl-C drops it,\n" ..
		"Ctrl-D ends it, as in lua5.4: the next prompt is 'idr> ');\n" ..
		"anywhere, the lines between 'lua <<WORD' and a line 'WORD' are\n" ..
		"one chunk.  An error prints a stack traceback.  idrsh.run(LINE)\n" ..
		"runs a shell command and returns what it printed, and true (or\n" ..
		"false and the error): lua print(idrsh.run('dump --at 5')).",
	example = "lua for i = 1, 3 do t:alloc('x' .. i) end",
	run = function(_, rest, src)
		if rest == "" then return nil, usage("lua") end
		if src then return run_chunk(rest, src.name, "repl", src.first) end
		return run_chunk(rest, "=lua", "repl")
	end,
}

-- A file 'save' wrote: sourcing it loads it, as 'load FILE'.
local function saved(f)
	local first = f:read("l")
	f:seek("set")
	return first ~= nil and first:find("^idr%-save %d+$") ~= nil
end

local function source_lines(file)
	local f, err = io.open(file, "r")
	if not f then return nil, err end
	if saved(f) then
		f:close()
		return registry.get("load").run({ file })
	end
	local ok, n, rd = true, 0, {}
	while true do
		local line, rerr = f:read("l")
		if not line then
			f:close()
			if rerr then return nil, file .. ": " .. rerr end
			return finish(rd) and ok
		end
		n = n + 1
		local r = feed(rd, line, file .. ":" .. n)
		if r == "quit" then f:close() return "quit" end
		if not r then
			ok = false
			if sh.config.bail then f:close() return false end
		end
	end
end

local function source_lua(file, args)
	local fn, err = loadfile(file, "t")
	if not fn then return nil, err end
	_G.arg = args or { [0] = file }
	return run_fn(fn, false, table.unpack(args or {}))
end

-- Runs a command file, or a Lua script when it ends in .lua.
local function source(file, args)
	if sh.depth >= SOURCE_DEPTH_MAX then
		return nil, "sources nested too deeply"
	end
	sh.depth = sh.depth + 1
	local ok, r, err = pcall(function()
		if file:find("%.lua$") then return source_lua(file, args) end
		return source_lines(file)
	end)
	sh.depth = sh.depth - 1
	if not ok then error(r, 0) end
	return r, err
end

-- 'source' fails without a message of its own when a line failed: that
-- line said why.
command {
	name = "source", args = "FILE", min = 1,
	help = "run a file of commands, or a Lua script (.lua)",
	example = "lua io.open(\"setup.idrsh\", \"w\"):write(\"alloc_many 3\\n\"):close()\nsource setup.idrsh",
	complete = "files",
	run = function(args)
		local r, err = source(args[1])
		if r == nil and err == nil then return false end
		return r, err
	end,
}

-- }===============================================================

-- {======================= The shell from Lua =====================

--[[
idrsh.run(LINES) -> text, true | text, false, message: runs LINES (one
line, or several separated by newlines, run in order as a file's are)
as the prompt runs them, and returns what they printed (in the format
of the moment: text, or JSON Lines) instead of printing it; when one
fails, false and the messages it would have printed ("find: no id 9
(ENOENT)", one a line).  A chunk run by 'lua', '=' or a script reaches
it as the global 'idrsh': the shell is idrsh's, not the module's, so
stock lua5.4 has no idrsh.run.  It raises an error, as a bad argument,
for what it cannot do: end the shell (quit), or wait for a lesson's
or quiz's answers (they are read at the prompt, or from --answers).
]]

-- Why idrsh.run cannot run @line, once run by reader @rd, or nil: it
-- ended the shell, or started a lesson that waits for answers (which
-- then ends, unseen).
local function refused(rd, line, r)
	local p = rd.pending
	if p and p.lesson then
		rd.pending = nil
		capture(p.lesson.stop, p.lesson, "idrsh.run")
		return "'" .. line .. "' waits for answers at the prompt; run " ..
			"it there, or give it --answers FILE"
	elseif r == "quit" then
		return "'" .. line .. "' would end the shell; return from the " ..
			"chunk, or call os.exit"
	end
end

-- Runs @text's lines with a reader of their own.  Return: as run_line,
-- or nil and why a line is refused.
local function run_lines(text)
	local rd, ok = {}, true
	for line in (text .. "\n"):gmatch("(.-)\n") do
		local r = feed(rd, line, nil)
		local why = refused(rd, line, r)
		if why then return nil, why end
		ok = ok and r
		if not r and sh.config.bail then return false end
	end
	return finish(rd) and ok
end

local function shell_run(lines)
	if math.type(lines) then lines = tostring(lines) end
	if type(lines) ~= "string" then
		error("bad argument #1 to 'run' (string expected, got " ..
			type(lines) .. ")", 2)
	end
	-- Kept, so never paged: a pager would bypass the buffer.
	local tty = sh.tty
	sh.tty = false
	local ok, text, errs, r, why = pcall(capture, run_lines, lines)
	sh.tty = tty
	if not ok then error(text, 0) end
	if why then error("bad argument #1 to 'run' (" .. why .. ")", 2) end
	if not r then return text, false, table.concat(errs, "\n") end
	return text, true
end

_G.idrsh = { run = shell_run }

-- }===============================================================

return {
	source = source,
}
