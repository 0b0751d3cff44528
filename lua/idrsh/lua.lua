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
local _G, error, io, loadfile, pcall, table, type = _G, error, io,
	loadfile, pcall, table, type

local command, usage = registry.command, registry.usage
local run_fn, run_chunk = chunk.run_fn, chunk.run_chunk
local feed, finish, run_line = run.feed, run.finish, run.run_line
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
		"one chunk.  An error prints a stack traceback.",
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
	example = "source setup.idrsh",
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
idrsh.run(LINE) -> text, true | text, false, message: runs LINE as the
prompt runs a line, and returns what it printed (in the format of the
moment: text, or JSON Lines) instead of printing it; when it fails,
false and the message it would have printed ("find: no id 9 (ENOENT)";
one a line when several lines of a 'source' failed).  A chunk run by
'lua', '=' or a script reaches it as the global 'idrsh': the shell is
idrsh's, not the module's, so stock lua5.4 has no idrsh.run.
]]
local function shell_run(line)
	if type(line) ~= "string" then
		error("bad argument #1 to 'run' (string expected, got " ..
			type(line) .. ")", 2)
	end
	-- Kept, so never paged: a pager would bypass the buffer.
	local tty = sh.tty
	sh.tty = false
	local ok, text, errs, r = pcall(capture, run_line, line)
	sh.tty = tty
	if not ok then error(text, 0) end
	if r == false then return text, false, table.concat(errs, "\n") end
	return text, true
end

_G.idrsh = { run = shell_run }

-- }===============================================================

return {
	source = source,
}
