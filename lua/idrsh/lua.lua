-- SPDX-License-Identifier: MIT
-- lua.lua - the commands that run Lua and files: lua CHUNK (and =EXPR,
-- which the reader of lines runs itself), source FILE.

local sh = require "idrsh.state"
local registry = require "idrsh.registry"
local chunk = require "idrsh.chunk"
local run = require "idrsh.run"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, error, io, loadfile, pcall, table = _G, error, io, loadfile,
	pcall, table

local command, usage = registry.command, registry.usage
local run_fn, run_chunk = chunk.run_fn, chunk.run_chunk
local feed, finish = run.feed, run.finish

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

return {
	source = source,
}
