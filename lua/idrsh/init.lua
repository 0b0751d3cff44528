-- SPDX-License-Identifier: MIT
-- init.lua - the command language of idrsh: the module "idrsh", which
-- src/idrsh.c requires and whose functions it calls (setup, run_line,
-- run_file, run_lua, finish, abandon, eof, chunk_open, waiting,
-- complete, prompt, report, html_start, html_save).
--
-- The shell is a package of modules (lua/idrsh/), compiled into the
-- idrsh binary and found through package.preload:
--   state      the shell's state, one table all modules share
--   output     printing: results, messages, values, files
--   words      a line's words, numbers, the messages of failures
--   registry   the commands' records: command { ... }
--   trees      the trees by name, the current one; calling the library
--   events     the readers of the library's events (the views)
--   chunk      running Lua chunks, showing their results
--   run        reading lines: a line to its command, here-documents
-- and a module a family of commands, which registers its commands with
-- registry.command { ... } as it loads; 'help' lists them in the order
-- the families are loaded below:
--   manage     new, use, trees, drop
--   idr        today's API: alloc, find, remove, list, destroy ...
--   legacy     the 2004 API: pre_get, get_new ...; preload
--   tagged     alloc_tagged, find_tagged, check, untag ...
--   ida        ida_alloc, ida_free, ida_exists
--   inside     dump, dot, path, stats, trace; fail, mem
--   lua        lua, source (and =EXPR, which run.lua runs itself)
--   save       save, load, import
--   lessons    alloc_many, lesson, quiz (lesson.lua: the runner, grader)
--   step       step, mark, diff, explain
--   record     record (and --html)
--   format     format (text or JSON), time, timer
--   help       help, quit
-- A module uses another only through what that one returns.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local events = require "idrsh.events"
local chunk = require "idrsh.chunk"
local run = require "idrsh.run"

require "idrsh.manage"
require "idrsh.idr"
require "idrsh.legacy"
require "idrsh.tagged"
require "idrsh.ida"
require "idrsh.inside"
local lua = require "idrsh.lua"
local save = require "idrsh.save"
require "idrsh.lessons"
require "idrsh.step"
local record = require "idrsh.record"
require "idrsh.format"
require "idrsh.help"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, debug, ipairs, next, pairs, pcall, rawget, select, table, type =
	_G, debug, ipairs, next, pairs, pcall, rawget, select, table, type

local report = output.report
local keep, update_globals = trees.keep, trees.update_globals
local observe_trees = events.observe_trees
local run_chunk, KEYWORDS = chunk.run_chunk, chunk.KEYWORDS
local feed, finish = run.feed, run.finish
local source = lua.source

local M = {}

M.report = report

-- {========================== Running =============================

local top = {}

function M.run_line(line, where)
	sh.tty = where == nil and sh.config.interactive == true
	local r = feed(top, line, where)
	sh.tty = false
	return r
end

-- The end of standard input or of a -c.
function M.finish()
	local r = finish(top)
	return r == "quit" and "quit" or (r and true or false)
end

-- Ctrl-C at the '>> ' prompt: the pending chunk is dropped; at the
-- 'answer> ' prompt, the lesson ends with its score.
function M.abandon()
	local p = top.pending
	top.pending = nil
	if p and p.lesson then p.lesson:stop("Ctrl-C") end
	return true
end

-- Ctrl-D at the terminal.  At the '>> ' or 'answer> ' prompt, as in
-- lua5.4, it ends the chunk (saying why it is unfinished) or the lesson,
-- and idrsh goes on: true.  At 'idr> ' false: idrsh ends.
function M.eof()
	local p = top.pending
	if not p then return false end
	if p.lesson then
		top.pending = nil
		p.lesson:stop("Ctrl-D")
	else
		finish(top)
	end
	return true
end

-- True while a Lua chunk or here-document at the terminal waits for
-- its next line: the line joins the chunk's history entry.
function M.chunk_open()
	return top.pending ~= nil and top.pending.lesson == nil
end

-- True while a lesson waits for an answer: at the end of a -c, the C
-- side reads it from standard input.
function M.waiting()
	return top.pending ~= nil and top.pending.lesson ~= nil
end

function M.run_file(file, args)
	local r, err
	if sh.on.record and file:find("%.lua$") then
		r, err = record.watch(source, file, args)
	else
		r, err = source(file, args)
	end
	if r == nil and err then report(nil, err) end
	return r == "quit" and "quit" or (r and true or false)
end

function M.run_lua(code, name)
	observe_trees()
	local ok, err = run_chunk(code, name, "script")
	if not ok then report(nil, err) end
	if sh.on.record then record.line("-e " .. code, false) end
	return ok and true or false
end

-- --load FILE: before any command.
M.load_file = save.load_at_start

-- Whether @file can be written, without leaving it behind if it was
-- not there: nil, the reason, if not.
local function writable(file)
	local was = io.open(file, "r")
	if was then was:close() end
	local f, err = io.open(file, "a")
	if not f then return nil, err end
	f:close()
	if not was then os.remove(file) end
	return true
end

-- --html FILE: record from the start, once FILE is known to be writable
-- (a typo in its directory fails before the script runs, not after);
-- M.html_save(FILE) at the end.
function M.html_start(title, file)
	local ok, err = writable(file)
	if not ok then
		report(nil, "--html: " .. err)
		return false
	end
	record.start(title)
	return true
end

function M.html_save(file)
	local ok, err = record.save(file)
	if not ok then report(nil, "--html: " .. err) end
	return ok and true or false
end

function M.prompt()
	if top.pending and top.pending.lesson then return "answer> " end
	if top.pending then return ">> " end
	if sh.current == "default" then return "idr> " end
	return "idr:" .. sh.current .. "> "
end

local function prefixed(list, text)
	local r = {}
	for _, s in ipairs(list) do
		if s:sub(1, #text) == text then r[#r + 1] = s end
	end
	return r
end

-- The keys of table @t that are Lua names, each after @prefix.
local function names_in(t, prefix, into)
	if type(t) ~= "table" then return end
	for k in next, t do
		if type(k) == "string" and k:find("^[%a_][%w_]*$") then
			into[prefix .. k] = true
		end
	end
end

-- Completion of a Lua word: a global, a field after '.', a method
-- after ':' (from the metatable's __index, as for t:alloc).
local function lua_names(text)
	local path, sep = text:match("^(.-)([.:]?)[%w_]*$")
	local found = {}
	if sep == "" then
		names_in(_G, path, found)
		names_in(KEYWORDS, path, found)
	elseif path:find("^[%a_][%w_]*[%w_.]*$") then
		local v = _G
		for part in path:gmatch("[^.]+") do
			local ok, x = pcall(function() return v[part] end)
			if not ok then return {} end
			v = x
		end
		local mt = debug.getmetatable(v)
		local index = type(mt) == "table" and rawget(mt, "__index")
		if sep == "." then
			names_in(v, path .. sep, found)
		end
		if sep == ":" or type(v) ~= "table" then
			names_in(index, path .. sep, found)
		end
	end
	local r = {}
	for name in pairs(found) do r[#r + 1] = name end
	table.sort(r)
	return prefixed(r, text)
end

-- Candidates for the word @text that starts at @start in @line, from
-- the command's 'complete'; "files" lets readline complete file names.
-- A second result, "nospace": no space after the word (a Lua name may
-- go on with '.' or ':').
function M.complete(text, line, start)
	local before = line:sub(1, start)
	if top.pending and top.pending.lesson then return {} end
	if top.pending or before:find("^%s*=") or before:find("^%s*lua%s") then
		return lua_names(text), "nospace"
	end
	local cmd = before:match("^%s*(%S+)%s")
	if not cmd then
		return prefixed(registry.names(), text)
	end
	local c = registry.get(cmd)
	-- A command that runs another (time CMD ...): past CMD, CMD's own.
	local inner = before:match("^%s*%S+%s+()%S+%s")
	if c and c.runs and inner then
		return M.complete(text, line:sub(inner), start - inner + 1)
	end
	-- Past the last argument the command takes, nothing fits.
	local words = select(2, before:gsub("%S+", "")) - 1
	if not c or not c.raw and words >= c.max then return {} end
	local how = c.complete
	if type(how) == "function" then how = how(text, before) end
	if how == "files" then
		return "files"
	elseif type(how) == "table" then
		return prefixed(how, text)
	end
	return {}
end

function M.setup(config)
	sh.config = config
	if config.json then output.set_format("json") end
	keep("default", idr.new {})
	update_globals()
end

M.commands = registry.list

return M
