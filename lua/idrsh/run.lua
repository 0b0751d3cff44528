-- SPDX-License-Identifier: MIT
-- run.lua - reading lines: a line to its command, and the readers of
-- lines (the terminal, standard input, a -c, a file being sourced),
-- each holding what a line left pending: a here-document, an unfinished
-- chunk at the terminal, or a lesson waiting for its answers.

local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local events = require "idrsh.events"
local chunk = require "idrsh.chunk"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, pcall, table, tonumber, tostring = error, pcall, table,
	tonumber, tostring

local report, done, timing, clock, run_time = output.report, output.done,
	output.timing, output.clock, output.run_time
local split, quoted, failure_text = words.split, words.quoted,
	words.failure_text
local INTERRUPTED = words.INTERRUPTED
local usage, did_you_mean = registry.usage, registry.did_you_mean
local observe_trees, command_done = events.observe_trees, events.command_done
local run_chunk, incomplete = chunk.run_chunk, chunk.incomplete

local run_line, dispatch, feed, finish

-- {========================== Running =============================

-- The index of the space that ends the word at @i of @line (past the
-- line's end, when none does): a space in quotes is the word's, and
-- \" in double quotes closes none, as split() reads them.
local function word_end(line, i)
	local q
	while i <= #line do
		local c = line:sub(i, i)
		if q then
			if c == q then
				q = nil
			elseif c == "\\" and q == '"' then
				i = i + 1
			end
		elseif c:find("%s") then
			return i
		elseif c == '"' or c == "'" then
			q = c
		end
		i = i + 1
	end
	return i
end

-- The command word of @line, unquoted as split() unquotes an argument
-- ('"alloc"' is alloc), and the rest of the line after it as typed,
-- which a raw command (lua, explain) gets unsplit.  Nil and why when a
-- quote in the word is never closed.
local function command_word(line)
	local first = line:find("%S") or #line + 1
	local last = word_end(line, first)
	local w, err = split(line:sub(first, last - 1))
	if not w then return nil, err end
	-- A word that starts with '#' is a comment to split(): the name as
	-- typed, which no command has.
	return w[1] or line:sub(first, last - 1),
		line:sub(last):match("^%s*(.-)%s*$")
end

function dispatch(line, src)
	if sh.only then
		local ok, why = sh.only(line)
		if not ok then return "", nil, why end
	end
	local expr = line:match("^%s*=(.*)$")
	if expr then
		return "=", run_chunk(expr, "=expr", "expr")
	end
	local name, rest = command_word(line)
	if not name then return "", nil, rest end
	local c = registry.get(name)
	if not c then
		local hint = did_you_mean(name)
		return "", nil, "unknown command " .. quoted(name) ..
			(hint ~= "" and hint or "; try 'help'")
	end
	if c.raw then
		return name, c.run({}, rest, src)
	end
	local args, err = split(rest)
	if not args then return name, nil, err end
	if #args < c.min or #args > c.max then
		return name, nil, usage(name)
	end
	return name, c.run(args, rest)
end

-- Prints the run time since @start after the command's output: a lesson
-- or quiz it started is part of that output, so at the lesson's end.
local function timed(start)
	if sh.started then
		sh.started.after = function() run_time(start) end
	else
		run_time(start)
	end
end

-- Runs one line.  Return: true, false (the error is reported), or "quit".
function run_line(line, where, src)
	if line:find("\0", 1, true) then
		report(where, "the line holds a NUL byte")
		return false
	end
	if line:find("^%s*$") or line:find("^%s*#") then
		return true
	end
	observe_trees()
	local tty, start = sh.tty, timing() and clock()
	sh.tty = tty and where == nil
	local ok, name, r, err = pcall(dispatch, line, src)
	sh.tty = tty
	if not ok and name == "not enough memory" then
		-- No bug: the command ran out of memory.  Say which one.
		r, err = nil, name
		name = line:match("^%s*=") and "=" or command_word(line)
	elseif not ok then
		if name == INTERRUPTED then
			command_done(line)
			done()
			error(name, 0)
		end
		r, err = nil, tostring(name):gsub("^lua/idrsh/[%w_]+%.lua:%d+: ", "")
		name = "internal error"
	end
	if r == nil and err then report(where, failure_text(name, err)) end
	-- After the report: a reader may keep the error with the command.
	command_done(line)
	done()
	-- 'timer off' ends the timing before its own line is shown.
	if start and timing() then timed(start) end
	return r == "quit" and "quit" or (r and true or false)
end

-- {------------------------- Readers ------------------------------

--[[
A reader is a source of lines: the terminal, standard input, a -c, a
file being sourced.  It holds what a line left pending ('pending'):
  { word, lines, where, src }   a here-document: 'lua <<WORD' at
                                where, the lines so far;
  { lesson }                    a lesson or quiz: each line is an answer,
                                lesson:answer(line), and lesson:stop(why)
                                ends it early (see lessons.lua);
  { text }                      at the terminal only, a 'lua' or '='
                                chunk Lua's parser found unfinished.
Elsewhere a line is one chunk, so that a bad line fails alone.
]]

-- A 'lua CHUNK' or '=EXPR' line whose chunk ends before its end.
local function unfinished(line)
	local expr = line:match("^%s*=(.*)$")
	if expr then return incomplete(expr, "expr") end
	local code = line:match("^%s*lua%s(.*)$")
	return code ~= nil and code:find("%S") ~= nil and
		incomplete(code, "repl")
end

-- Where a here-document opened at @where ("FILE:N") names its lines.
local function heredoc_src(where)
	local file, n = (where or ""):match("^(.*):(%d+)$")
	if not file then return { name = "=stdin", first = 2 } end
	return { name = "=" .. file, first = tonumber(n) + 1 }
end

local function run_heredoc(p)
	if not table.concat(p.lines):find("%S") then return true end
	return run_line("lua " .. table.concat(p.lines, "\n"), p.where, p.src)
end

-- Runs @line, from reader @rd, at @where (nil: at the terminal).
-- Return: as run_line; true while a chunk is pending.
function feed(rd, line, where)
	local p = rd.pending
	if p and p.lesson then
		local r, going = p.lesson:answer(line)
		if not going then rd.pending = nil end
		return r
	elseif p and p.word then
		if line:match("^%s*(.-)%s*$") ~= p.word then
			p.lines[#p.lines + 1] = line
			return true
		end
		rd.pending = nil
		return run_heredoc(p)
	elseif p then
		rd.pending = nil
		line = p.text .. "\n" .. line
	end
	local word = line:match("^%s*lua%s*<<%s*([%a_][%w_]*)%s*$")
	if word then
		rd.pending = { word = word, lines = {}, where = where,
			src = heredoc_src(where) }
		return true
	end
	if where == nil and unfinished(line) then
		rd.pending = { text = line }
		return true
	end
	local r = run_line(line, where)
	if sh.started then
		-- The line started a lesson: the lines after it answer.
		rd.pending, sh.started = { lesson = sh.started }, nil
	end
	return r
end

-- At the end of @rd's input: a here-document never closed is an error
-- at its opening line; an unfinished chunk says why it is.
function finish(rd)
	local p = rd.pending
	rd.pending = nil
	if p and p.lesson then
		return p.lesson:stop("the input ended")
	elseif p and p.word then
		report(p.where, "lua: no line '" .. p.word ..
			"' ends the here-document")
		return false
	elseif p then
		return run_line(p.text, nil)
	end
	return true
end

-- }----------------------------------------------------------------

-- The terminal, standard input and each -c share this reader.

return {
	timed = timed,
	command_word = command_word,
	dispatch = dispatch,
	run_line = run_line,
	feed = feed,
	finish = finish,
}
