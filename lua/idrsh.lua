-- SPDX-License-Identifier: MIT
-- idrsh.lua - the command language of idrsh.
--
-- Compiled into the idrsh binary; src/idrsh.c loads this chunk, which
-- returns the module M below.  Every command is one record, made by
-- command { ... } beside its handler: dispatch, help, "help CMD",
-- completion and the man page's test all read that record, and 'help'
-- lists the commands in the order this file makes them.
--
-- Conventions in this file: a handler (a record's 'run') gets (args,
-- rest): the words after the command, and the raw rest of the line.  It
-- returns true, false (a failure already reported), "quit", or nil and a
-- message, printed as "CMD: message".
-- Library failures (nil, msg, errno) end in " (ERRNO)".  Nothing is
-- changed before every argument has been checked.

local idr = require "idr"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, assert, error, io, ipairs, load, loadfile = _G, assert, error,
	io, ipairs, load, loadfile
local math, os, pairs, pcall, setmetatable, string, table = math, os,
	pairs, pcall, setmetatable, string, table
local tonumber, tostring, type, xpcall = tonumber, tostring, type, xpcall
local debug, getmetatable, next, rawget, rawlen, select = debug,
	getmetatable, next, rawget, rawlen, select

local M = {}

local INT_MAX = 0x7fffffff
local INT_MIN = -0x80000000
local U32_MAX = 0xffffffff
local SOURCE_DEPTH_MAX = 16
-- What src/idrsh.c's hook raises on Ctrl-C: no command may swallow it.
local INTERRUPTED = "interrupted!"

-- The shell's state: the trees by name, which one is current, options.
local sh = {
	trees = {},		-- name -> idr or ida object (the Lua global 'trees')
	current = "default",
	config = {},
	depth = 0,		-- nesting of 'source'
	on = {},		-- reader name -> true while it reads events
	marks = {},		-- 'mark' name -> { snap, of = { tree } (weak), tree }
	tty = false,		-- the line running came from the terminal
	only = nil,		-- in a lesson: only(line) -> true, or nil, why not
	chained = setmetatable({}, { __mode = "k" }), -- tree -> user's trace
}

-- {============================ Output ============================

-- While a replay is recorded, sh.capture (a list) also gets a copy of
-- what a command prints, for the frame.
local function captured(...)
	local c = sh.capture
	for i = 1, select("#", ...) do c[#c + 1] = tostring((select(i, ...))) end
end

local function out(...)
	io.stdout:write(...)
	if sh.capture then captured(...) end
end

local function outln(s)
	s = tostring(s)
	out(s, s:sub(-1) == "\n" and "" or "\n")
end

-- @s with its control characters other than newline and tab shown as
-- \ddd, for text that came from the user's input and is shown back: an
-- escape sequence in it never reaches the terminal.
local function visible(s)
	return (s:gsub("[%z\1-\8\11-\31\127]", function(c)
		return string.format("\\%03d", c:byte())
	end))
end

-- "idrsh: WHERE: message" on stderr, after whatever stdout holds; a bad
-- line's bytes, which the message may quote, are made visible().
function M.report(where, msg)
	io.stdout:flush()
	local text = visible(where and ("idrsh: " .. where .. ": " .. msg)
		or ("idrsh: " .. msg))
	if sh.capture then captured(text, "\n") end
	if sh.config.color_err then
		text = "\27[31m" .. text .. "\27[0m"
	end
	io.stderr:write(text, "\n")
end

local function bold(s)
	return sh.config.color_out and ("\27[1m" .. s .. "\27[0m") or s
end

-- A value as the shell shows it: bare if it needs no quotes.
-- An idr's value as list prints it; nil is a reserved ID's (a NULL
-- entry), and a string that could pass for that mark is quoted.
local function show(v)
	if v == nil then
		return "(reserved)"
	elseif type(v) ~= "string" then
		return tostring(v)
	end
	if v ~= "" and not v:find("^%(") and not v:find("[%s\"'\\%c]") then
		return v
	end
	return '"' .. v:gsub('[\\"]', "\\%0"):gsub("\n", "\\n")
		:gsub("\t", "\\t"):gsub("%c", function(c)
			return string.format("\\%03d", c:byte())
		end) .. '"'
end

-- Any table as "key: value" lines, keys sorted.
local function format_table(t)
	local keys, lines = {}, {}
	for k in pairs(t) do
		keys[#keys + 1] = k
	end
	table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
	for _, k in ipairs(keys) do
		local v = t[k]
		if type(v) == "table" then
			local parts = {}
			for i, x in ipairs(v) do
				parts[i] = tostring(x)
			end
			v = table.concat(parts, " ")
		end
		lines[#lines + 1] = tostring(k) .. ": " .. tostring(v)
	end
	return table.concat(lines, "\n")
end

local TRACE_FIELDS = { "level", "first", "last", "slot", "nodes", "aux" }
local TRACE_HEIGHT = { grow = true, shrink = true }

-- An operation's arguments: a range for the allocations and searches,
-- the ID for the rest (none for for_each, pre_get, get_new).
local function op_args(ev)
	local op = ev.op
	if op:find("alloc") or op:find("find_first") or op == "get_new_above" then
		return "start=" .. ev.start .. " end=" .. ev["end"]
	elseif op == "for_each" or op == "pre_get" or op == "get_new" then
		return nil
	end
	return "id=" .. ev.id
end

-- op and done: "trace: op alloc start=0 end=0", "trace: done alloc result=5"
local function op_line(ev)
	local parts = { "trace:", ev.event, ev.op }
	if ev.event == "op" then
		parts[#parts + 1] = op_args(ev)
	else
		parts[#parts + 1] = "result=" .. ev.result
		parts[#parts + 1] = ev.errno and "errno=" .. ev.errno
	end
	return table.concat(parts, " ")
end

-- One trace event (the binding's table) as one line.
local function trace_line(ev)
	if ev.op then return outln(op_line(ev)) end
	local parts = { "trace:", tostring(ev.event) }
	for _, k in ipairs(TRACE_FIELDS) do
		if ev[k] ~= nil then
			parts[#parts + 1] = k .. "=" .. tostring(ev[k])
		end
	end
	if TRACE_HEIGHT[ev.event] and ev.height then
		parts[#parts + 1] = "height=" .. tostring(ev.height)
	end
	outln(table.concat(parts, " "))
end

-- }===============================================================

-- {===================== Readers of the events ====================

--[[
The library reports each step of an operation as an event (t:trace()); the
shell's views are readers of that one stream (trace, explain, step, ...).
A reader is { name, event = function(ev, t), done = function(line) }:
'event' gets each event of each tree the shell names, as the binding
delivers them (after each operation); 'done' is called after each
command line.  While a reader is on (sh.on[name]), every tree under
trees.NAME is observed: its trace function is the shell's, which passes
each event on to the readers that are on, then to whatever trace function
the user had set ('lua t:trace(f)' still works).
]]
local READERS = {}

local function reader(r)
	READERS[#READERS + 1] = r
end

local function reading()
	return next(sh.on) ~= nil
end

local observers = setmetatable({}, { __mode = "k" }) -- tree -> function

local function observer(t)
	local fn = observers[t]
	if fn then return fn end
	fn = function(ev)
		for _, r in ipairs(READERS) do
			if sh.on[r.name] and r.event then r.event(ev, t) end
		end
		local user = sh.chained[t]
		if user then user(ev) end
	end
	observers[t] = fn
	return fn
end

-- Puts @fn as @t's trace function, keeping whatever else was there as
-- the user's; @fn nil: gives the user's back.
local function set_trace(t, fn)
	if type(t) ~= "userdata" or not t.trace then return end
	local ok, info = pcall(t.info, t)
	if not ok or info.destroyed then return end
	local obs = observer(t)
	local prev = t:trace(fn or sh.chained[t])
	if prev ~= obs then sh.chained[t] = prev end
end

-- Trees whose last operation's events are kept, for 'dot' to mark.
local keeping = setmetatable({}, { __mode = "k" })

-- Before a command: observe every tree, or none.
local function observe_trees()
	local on = reading()
	for _, obj in pairs(sh.trees) do
		if not keeping[obj] and type(obj) == "userdata" and
				obj.keep_events and pcall(obj.keep_events, obj, true) then
			keeping[obj] = true
		end
		if on or observers[obj] then
			set_trace(obj, on and observer(obj) or nil)
		end
		if not on then observers[obj] = nil end
	end
end

-- After a command: each reader that is on hears that it is over.
local function command_done(line)
	for _, r in ipairs(READERS) do
		if sh.on[r.name] and r.done then r.done(line) end
	end
end

reader { name = "trace", event = function(ev) trace_line(ev) end }

-- }===============================================================

-- {========================== Parsing =============================

-- Splits a line into words; "..." (with \ escapes) and '...' quote.
local ESCAPES = { n = "\n", t = "\t", ["\\"] = "\\", ['"'] = '"' }

local function quoted(line, i, q)
	local buf = {}
	while true do
		local c = line:sub(i, i)
		if c == "" then
			return nil, "unterminated " .. (q == '"' and "double" or
				"single") .. " quote"
		elseif c == q then
			return table.concat(buf), i + 1
		elseif c == "\\" and q == '"' and line:sub(i + 1, i + 1) ~= "" then
			local e = line:sub(i + 1, i + 1)
			buf[#buf + 1] = ESCAPES[e] or ("\\" .. e)
			i = i + 2
		else
			buf[#buf + 1] = c
			i = i + 1
		end
	end
end

-- A '#' that starts a word starts a comment, as in sh: "a#b" and "#"
-- in quotes are no comment.
local function split(line)
	local words, i = {}, 1
	while true do
		i = line:find("%S", i)
		if not i or line:sub(i, i) == "#" then
			return words
		end
		local word, c = {}, line:sub(i, i)
		while c ~= "" and not c:find("%s") do
			if c == '"' or c == "'" then
				local s, j = quoted(line, i + 1, c)
				if not s then
					return nil, j
				end
				word[#word + 1], i = s, j
			else
				local j = line:find("[%s\"']", i) or #line + 1
				word[#word + 1], i = line:sub(i, j - 1), j
			end
			c = line:sub(i, i)
		end
		words[#words + 1] = table.concat(word)
	end
end

-- A word the user typed, quoted for a message that names it: cut to 40
-- characters and "...", so that a huge word makes no huge line.
local function quoted(s)
	s = tostring(s)
	return "'" .. (#s > 40 and s:sub(1, 40) .. "..." or s) .. "'"
end

-- A number: decimal or 0x hex, with an optional sign, in @min .. @max
-- (defaults 0 .. INT_MAX).  Return: the number, or nil, why.
local function number(s, what, max, min)
	max, min = max or INT_MAX, min or 0
	local sign, digits = s:match("^([-+]?)(.*)$")
	local n
	if digits:find("^%d+$") then
		local d = digits:gsub("^0+(%d)", "%1") -- leading zeros change nothing
		n = #d <= 15 and tonumber(d) or math.huge
	elseif digits:find("^0[xX]%x+$") then
		local x = digits:sub(3):gsub("^0+(%x)", "%1")
		n = #x <= 12 and tonumber(x, 16) or math.huge
	else
		return nil, string.format("bad %s %s: not a number", what, quoted(s))
	end
	if sign == "-" then n = -n end
	if n > max or n < min then
		return nil, string.format("bad %s %s: out of range %d .. %d",
			what, quoted(s), min, max)
	end
	return math.tointeger(n)
end

-- Converts args[i] for each spec {i, what, max, min}; optional when
-- absent.
local function numbers(args, ...)
	local r = {}
	for k, spec in ipairs({ ... }) do
		local s = args[spec[1]]
		if s then
			local n, err = number(s, spec[2], spec[3], spec[4])
			if not n then
				return nil, err
			end
			r[k] = n
		end
	end
	return r
end

-- }===============================================================

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
  example   one example line
  complete  completion of the arguments: nil, "files", a list of words,
            or a function returning one
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

-- {=========================== Trees ==============================

-- What the binding says a tree is (t:info()), or nil for a userdata
-- that is no tree ('lua trees.x = io.stdout').
local function info_of(obj)
	local ok, info = pcall(function() return obj:info() end)
	if ok and type(info) == "table" then return info end
end

-- The kind of a tree: "idr", "tagged" or "ida", as the binding says.
local function kind_of(obj)
	local info = info_of(obj)
	if not info then return "?" end
	if info.kind == "ida" then return "ida" end
	return info.tagged and "tagged" or "idr"
end

-- Stores @obj under @name.
local function keep(name, obj)
	sh.trees[name] = obj
end

-- Anything but a userdata under trees.NAME ('lua trees.x = 2' may put
-- anything there) is no tree.
local function not_a_tree(name, obj)
	if type(obj) ~= "userdata" or not info_of(obj) then
		return "trees." .. name .. " is a " .. type(obj) ..
			", not an idr or an IDA"
	end
end

local function current()
	local obj = rawget(sh.trees, sh.current)
	if obj == nil then
		return nil, "no current tree ('" .. sh.current ..
			"' was dropped); try 'trees' and 'use NAME'"
	end
	local err = not_a_tree(sh.current, obj)
	if err then return nil, err end
	return obj, kind_of(obj)
end

-- The current tree, if it is of a kind @want accepts.
local WANT = {
	idr = { idr = true, tagged = true },
	tagged = { tagged = true },
	ida = { ida = true },
	any = { idr = true, tagged = true, ida = true },
}
local HINT = {
	idr = "is an IDA; use ida_alloc, ida_free, ida_exists",
	tagged = "is not tagged (new NAME --tagged BITS)",
	ida = "is not an IDA (new NAME --ida)",
}

local function tree(want)
	local obj, kind = current()
	if not obj then
		return nil, kind
	end
	if not WANT[want][kind] then
		return nil, "tree '" .. sh.current .. "' " .. HINT[want]
	end
	return obj
end

-- The tree named @name, whether current or not.
local function named(name)
	local obj = rawget(sh.trees, name)
	if obj == nil then
		return nil, "no tree named " .. quoted(name) .. " (see 'trees')"
	end
	local err = not_a_tree(name, obj)
	if err then return nil, err end
	return obj
end

local function tree_names()
	local names = {}
	for name in pairs(sh.trees) do
		if type(name) == "string" and type(sh.trees[name]) == "userdata" then
			names[#names + 1] = name
		end
	end
	table.sort(names)
	return names
end

-- The tree the shell last put in the global 't': while 't' still holds
-- it, 't' follows the current tree; once a chunk assigns 't', the
-- user's value stays.
local given_t

local function update_globals()
	_G.trees = sh.trees
	local cur = rawget(sh.trees, sh.current)
	if rawget(_G, "t") == given_t then
		_G.t, given_t = cur, cur
	end
	_G.idr = idr
end

-- trees.current is the current tree, whatever 't' holds: the name is
-- reserved ('new current' is refused), so it never collides.
setmetatable(sh.trees, { __index = function(_, k)
	if k == "current" then return rawget(sh.trees, sh.current) end
end })

local function valid_name(name)
	return #name <= 64 and name:find("^[%a_][%w_.-]*$") ~= nil
end

-- }===============================================================

-- {========================= Library calls ========================

-- Turns (nil, msg, errno) into a message; @what describes the attempt.
local function failure(msg, errno, what)
	local text = msg or "failed"
	if errno == "ENOSPC" and what then
		text = "no free id " .. what
	elseif errno == "ENOMEM" then
		text = "out of memory"
	elseif errno == "EAGAIN" then
		text = "the node cache is short; run pre_get and retry"
	end
	return errno and (text .. " (" .. errno .. ")") or text
end

-- Calls method @m of @obj; a raised error becomes a message.
local function call(obj, m, ...)
	if obj[m] == nil then
		return nil, "not available on this tree"
	end
	local r = table.pack(pcall(obj[m], obj, ...))
	if not r[1] then
		if r[2] == INTERRUPTED then
			error(r[2], 0)
		end
		return nil, tostring(r[2])
	end
	return table.unpack(r, 2, r.n)
end

local function range_text(start, stop)
	start = start or 0
	if stop and stop > 0 and stop <= start then
		return string.format("in [%d, %d): the range is empty",
			start, stop)
	elseif stop and stop > 0 then
		return string.format("in [%d, %d)", start, stop)
	end
	return string.format("at or above %d", start)
end

-- Prints the new ID, or says why there is none.
local function allocated(id, msg, errno, what)
	if id == nil then
		return nil, failure(msg, errno, what)
	end
	outln(id)
	return true
end

local function print_entry(id, v)
	outln(tostring(id) .. " " .. show(v))
end

-- The largest ID a command that wants @want can take on @t: an idr's
-- IDs go up to 2^32 - 1 (alloc_u32); tagged IDs and an IDA's are int.
local function id_max(want, t)
	if want == "tagged" or kind_of(t) == "ida" then return INT_MAX end
	return U32_MAX
end

-- A command on one ID: checks the tree and the ID, then calls @fn(t, id).
local function on_id(want, what, fn)
	return function(args)
		local t, err = tree(want)
		if not t then return nil, err end
		local id, e = number(args[1], what, id_max(want, t))
		if not id then return nil, e end
		return fn(t, id, args)
	end
end

-- A raised error (a destroyed tree) comes as a message without an errno.
local function absent(id, msg, errno)
	if errno == "ENOENT" then
		return nil, "no id " .. id .. " (ENOENT)"
	end
	return nil, failure(msg, errno)
end

-- A handler for on_id that prints the value method @m returns for the ID:
-- a lone nil is a reserved ID's.
local function print_value(m)
	return function(t, id)
		local v, msg, errno = call(t, m, id)
		if v == nil and msg ~= nil then return absent(id, msg, errno) end
		outln(show(v))
		return true
	end
end

-- A handler that prints what method @m of the current tree returns:
-- text, or a table as "key: value" lines.  @text_m, when the tree has
-- it, is asked instead.
local function print_result(m, text_m)
	return function()
		local t, err = tree("any")
		if not t then return nil, err end
		local s, msg = call(t, text_m and t[text_m] and text_m or m)
		if not s then return nil, msg end
		outln(type(s) == "table" and format_table(s) or s)
		return true
	end
end

-- }===============================================================

-- {======================== Managing trees ========================

local NEW_OPTIONS = { "--base", "--tagged", "--retire", "--ida" }

local function parse_new(args)
	local o, i = { name = args[1] }, 2
	while args[i] do
		local a = args[i]
		if a == "--ida" or a == "--retire" then
			o[a:sub(3)] = true
			i = i + 1
		elseif a == "--base" or a == "--tagged" then
			if not args[i + 1] then return nil, a .. " needs a number" end
			local n, err = number(args[i + 1],
				a == "--tagged" and "BITS" or "BASE",
				a == "--tagged" and 30 or INT_MAX,
				a == "--tagged" and 1 or 0)
			if not n then return nil, err end
			o[a:sub(3)] = n
			i = i + 2
		else
			return nil, "unknown option " .. quoted(a)
		end
	end
	if o.ida and (o.base or o.tagged) then
		return nil, "an IDA takes no --base or --tagged"
	end
	if o.retire and not o.tagged then
		return nil, "--retire needs --tagged BITS"
	end
	if o.tagged and (o.base or 0) >> o.tagged ~= 0 then
		return nil, string.format("--base %d is past the %d IDs that" ..
			" --tagged %d gives", o.base, 1 << o.tagged, o.tagged)
	end
	return o
end

-- A new tree from the options of parse_new.
local function make(o)
	if o.ida then
		return idr.ida()
	end
	local opts = { base = o.base }
	if o.tagged then
		opts.tagged = { id_bits = o.tagged, retire = o.retire or false }
	end
	return idr.new(opts)
end

command {
	name = "new", args = "NAME [--base N] [--tagged BITS [--retire]] [--ida]",
	min = 1, max = 6,
	help = "make a tree (or an IDA) and switch to it",
	text = "--base N: IDs start at N.  --tagged BITS: IDs have BITS bits (so\n" ..
		"N must be below 2^BITS) and the bits above hold a generation\n" ..
		"(see alloc_tagged); --retire never reuses a slot whose\n" ..
		"generations ran out.  --ida: an IDA, IDs without values\n" ..
		"(ida_alloc, ida_free, ida_exists).",
	example = "new handles --base 1",
	complete = NEW_OPTIONS,
	run = function(args)
		local o, err = parse_new(args)
		if not o then return nil, err end
		if not valid_name(o.name) then
			return nil, "bad NAME " .. quoted(o.name) .. ": a letter or _, then" ..
				" letters, digits, _ . - (64 at most)"
		end
		if o.name == "current" then
			return nil, "'current' is reserved: trees.current is " ..
				"the current tree"
		end
		if rawget(sh.trees, o.name) ~= nil then
			return nil, "a tree named '" .. o.name .. "' exists"
		end
		local ok, obj = pcall(make, o)
		if not ok then return nil, tostring(obj) end
		keep(o.name, obj)
		sh.current = o.name
		return true
	end,
}

command {
	name = "use", args = "NAME", min = 1,
	help = "make NAME the current tree",
	example = "use default",
	complete = tree_names,
	run = function(args)
		local obj, err = named(args[1])
		if not obj then return nil, err end
		sh.current = args[1]
		return true
	end,
}

command {
	name = "trees",
	help = "list the trees; * marks the current one",
	example = "trees",
	run = function()
		for _, name in ipairs(tree_names()) do
			local obj = sh.trees[name]
			local info = info_of(obj)
			local ok, n = pcall(function() return #obj end)
			local size = info and info.destroyed and "destroyed"
				or not ok and "?"
				or string.format("%d %s", n, n == 1 and "id" or "ids")
			outln(string.format("%s %-12s %-6s %s",
				name == sh.current and "*" or " ", name,
				kind_of(obj), size))
		end
		return true
	end,
}

command {
	name = "drop", args = "NAME", min = 1,
	help = "destroy and forget a tree (not the current one)",
	example = "drop handles",
	complete = tree_names,
	run = function(args)
		local obj, err = named(args[1])
		if not obj then return nil, err end
		if args[1] == sh.current then
			return nil, "'" .. args[1] ..
				"' is the current tree; 'use' another first"
		end
		sh.trees[args[1]] = nil
		if obj.destroy then pcall(obj.destroy, obj) end
		return true
	end,
}

-- }===============================================================

-- {=========================== The idr ============================

-- alloc, alloc_cyclic and alloc_tagged: VALUE [START [END]].
local function alloc_with(method, args)
	local t, err = tree(method == "alloc_tagged" and "tagged" or "idr")
	if not t then return nil, err end
	local n, e = numbers(args, { 2, "START" },
		{ 3, "END", INT_MAX, INT_MIN })
	if not n then return nil, e end
	local id, msg, errno = call(t, method, args[1], n[1], n[2])
	return allocated(id, msg, errno, range_text(n[1], n[2]))
end

command {
	name = "alloc", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "store VALUE at the lowest free ID in [START, END); print the ID",
	text = "idr_alloc(): START defaults to 0 (or the tree's base), END <= 0 or\n" ..
		"absent means no limit.  Fails with ENOSPC when the range is full.\n" ..
		"A range of one ID (alloc v 7000 7001) makes packed nodes: see\n" ..
		"'lesson packed'.",
	example = "alloc eth0 5 30",
	run = function(args) return alloc_with("alloc", args) end,
}

command {
	name = "alloc_cyclic", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "like alloc, but search on from the last ID handed out",
	text = "idr_alloc_cyclic(): IDs are not reused at once after a remove,\n" ..
		"as PIDs are not; the search wraps to START when it reaches END.",
	example = "alloc_cyclic job 1 100",
	run = function(args) return alloc_with("alloc_cyclic", args) end,
}

command {
	name = "alloc_u32", args = "VALUE START MAX", min = 3,
	help = "store VALUE at the lowest free ID in [START, MAX]; print the ID",
	text = "idr_alloc_u32(): MAX is inclusive and may reach 4294967295.",
	example = "alloc_u32 dev 10 20",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local n, e = numbers(args, { 2, "START", U32_MAX },
			{ 3, "MAX", U32_MAX })
		if not n then return nil, e end
		local id, msg, errno = call(t, "alloc_u32", args[1], n[1], n[2])
		return allocated(id, msg, errno,
			string.format("in [%d, %d]", n[1], n[2]))
	end,
}

command {
	name = "find", args = "ID", min = 1,
	help = "print the value stored at ID",
	text = "idr_find(): fails with ENOENT when ID is not allocated.  A\n" ..
		"reserved ID (allocated with no value: lua t:alloc(nil)) prints\n" ..
		"(reserved), though idr_find() gives NULL for it as for a free one.",
	example = "find 5",
	run = on_id("idr", "ID", print_value("find")),
}

command {
	name = "remove", args = "ID", min = 1,
	help = "free ID and print the value it held",
	text = "idr_remove(): the nodes only ID kept alive are freed.  A\n" ..
		"reserved ID prints (reserved); a free one fails with ENOENT.",
	example = "remove 5",
	run = on_id("idr", "ID", print_value("remove")),
}

command {
	name = "replace", args = "ID VALUE", min = 2,
	help = "store VALUE at ID; print the old value",
	text = "idr_replace(): ID must be allocated (else ENOENT).",
	example = "replace 5 eth1",
	run = on_id("idr", "ID", function(t, id, args)
		local old, msg, errno = call(t, "replace", id, args[2])
		if old == nil and msg then return absent(id, msg, errno) end
		outln(show(old))
		return true
	end),
}

command {
	name = "next", args = "ID", min = 1,
	help = "print the first entry at or above ID",
	text = "idr_get_next(): prints 'ID VALUE'; ENOENT when there is none.",
	example = "next 0",
	run = on_id("idr", "ID", function(t, id)
		local nid, v = call(t, "get_next", id)
		if nid == nil and v ~= nil then return nil, v end
		if type(nid) ~= "number" then
			return nil, failure("no entry at or above " .. id, "ENOENT")
		end
		print_entry(nid, v)
		return true
	end),
}

command {
	name = "list",
	help = "print every entry as 'ID VALUE' (an IDA's IDs), in ID order",
	text = "idr_for_each(), and the reserved IDs it skips, as\n" ..
		"'ID (reserved)'; on an IDA, one ID a line.  A string value that\n" ..
		"starts with ( is quoted, so that it cannot pass for one.",
	example = "list",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local ida = kind_of(t) == "ida"
		local step, state, key = call(t, "pairs",
			not ida and { reserved = true } or nil)
		if not step then return nil, state end
		for id, v in step, state, key do
			if ida then outln(id) else print_entry(id, v) end
		end
		return true
	end,
}

command {
	name = "cursor", args = "[N]", max = 1,
	help = "print alloc_cyclic's cursor, or set it to N",
	text = "idr_get_cursor(), idr_set_cursor(): alloc_cyclic searches on\n" ..
		"from the cursor, the ID after the last one it handed out.",
	example = "cursor 100",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		if not args[1] then
			outln(t:get_cursor())
			return true
		end
		local n, e = number(args[1], "N", U32_MAX)
		if not n then return nil, e end
		local ok, msg = call(t, "set_cursor", n)
		if ok == nil and msg then return nil, msg end
		return true
	end,
}

command {
	name = "count",
	help = "print how many IDs are allocated",
	example = "count",
	run = print_result("count"),
}

command {
	name = "empty",
	help = "print yes if no ID is allocated, else no",
	text = "idr_is_empty().",
	example = "empty",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local e, msg = call(t, "is_empty")
		if e == nil then return nil, msg end
		outln(e and "yes" or "no")
		return true
	end,
}

-- The binding's destroy() ends the object; the shell's keeps a usable,
-- empty tree of the same kind under the same name.
command {
	name = "destroy",
	help = "free every ID and node of the current tree",
	text = "idr_destroy(): the tree stays usable.",
	example = "destroy",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local info = t:info()
		local ok, fresh = pcall(function()
			return info.kind == "ida" and idr.ida() or idr.new(info)
		end)
		if not ok then return nil, tostring(fresh) end
		if t.trace and sh.chained[t] then
			fresh:trace(sh.chained[t])
		end
		t:destroy()
		keep(sh.current, fresh)
		return true
	end,
}

-- }===============================================================

-- {======================== The 2004 API ==========================

command {
	name = "pre_get",
	help = "fill the tree's node cache (the 2004 API); print its size",
	text = "idr_pre_get(): get_new and get_new_above take nodes only from\n" ..
		"this cache, and fail with EAGAIN when it runs short.  Prints how\n" ..
		"many nodes the cache holds now (stats says it too).",
	example = "pre_get",
	run = function()
		local t, err = tree("idr")
		if not t then return nil, err end
		local ok, msg, errno = call(t, "pre_get")
		if not ok then return nil, failure(msg, errno) end
		outln("cached nodes: " .. t:stats().cached)
		return true
	end,
}

-- idr_preload() is the C library's, per thread, not a tree's: the C
-- side hands the shell the two calls (config.preload, .preload_end).
command {
	name = "preload",
	help = "fill this thread's node cache for one allocation",
	text = "idr_preload(): the next allocation takes its nodes from the\n" ..
		"thread's cache, not malloc, until preload_end; 'stats' shows\n" ..
		"the nodes preloaded.",
	example = "preload",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		sh.config.preload()
		outln("preloaded nodes: " .. t:stats().preloaded)
		return true
	end,
}

command {
	name = "preload_end",
	help = "end a preload section; free the nodes it did not use",
	text = "idr_preload_end().",
	example = "preload_end",
	run = function()
		sh.config.preload_end()
		return true
	end,
}

command {
	name = "get_new", args = "VALUE", min = 1,
	help = "store VALUE at the lowest free ID (2004 API)",
	text = "idr_get_new(): fails with EAGAIN when the node cache is short;\n" ..
		"run pre_get and try again.",
	example = "get_new eth0",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local id, msg, errno = call(t, "get_new", args[1])
		return allocated(id, msg, errno, "at all")
	end,
}

command {
	name = "get_new_above", args = "VALUE START", min = 2,
	help = "store VALUE at the lowest free ID >= START (2004 API)",
	text = "idr_get_new_above(): as get_new.",
	example = "get_new_above eth0 100",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local start, e = number(args[2], "START")
		if not start then return nil, e end
		local id, msg, errno = call(t, "get_new_above", args[1], start)
		return allocated(id, msg, errno, range_text(start))
	end,
}

-- }===============================================================

-- {========================= Tagged IDs ===========================

command {
	name = "alloc_tagged", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "allocate on a tagged tree; print the tagged ID",
	text = "idr_alloc_tagged(): the tagged ID is (generation << BITS) | ID; the\n" ..
		"generation of a slot advances each time its ID is freed.",
	example = "alloc_tagged conn",
	run = function(args) return alloc_with("alloc_tagged", args) end,
}

command {
	name = "find_tagged", args = "TAGGED", min = 1,
	help = "print the value at a live tagged ID",
	text = "idr_find_tagged(): a stale tagged ID finds nothing (ESTALE), nor\n" ..
		"does one whose slot is free (ENOENT).",
	example = "find_tagged 65536",
	run = on_id("tagged", "TAGGED", print_value("find_tagged")),
}

command {
	name = "remove_tagged", args = "TAGGED", min = 1,
	help = "free a live tagged ID; print its value",
	text = "idr_remove_tagged(): a stale tagged ID removes nothing (ESTALE).",
	example = "remove_tagged 65536",
	run = on_id("tagged", "TAGGED", print_value("remove_tagged")),
}

-- Why a tagged ID is live or stale, from its slot's generation.
local function tag_reason(t, tid)
	local id, gen = call(t, "untag", tid)
	local p = call(t, "path", tid)
	local tagged = t:info().tagged
	if type(p) ~= "table" or not p.gen or not tagged then
		return string.format("id %d gen %d", id, gen)
	end
	local slot_gen = p.gen % (1 << tagged.gen_bits)
	local where = p["end"] == "found" and "the slot is at" or
		"the slot is free, at"
	return string.format("id %d gen %d; %s gen %d", id, gen, where, slot_gen)
end

-- A question, not an action: "stale" is an answer, and succeeds.
command {
	name = "check", args = "TAGGED", min = 1,
	help = "say whether a tagged ID is live or stale, and why",
	text = "idr_tag_check(): prints 'live', 'stale' or 'free', the tag's ID and\n" ..
		"generation, and the generation its slot is at now.",
	example = "check 65536",
	run = on_id("tagged", "TAGGED", function(t, id)
		local ok, msg, errno = call(t, "check", id)
		if ok then
			outln("live: " .. tag_reason(t, id))
		elseif errno == "ESTALE" then
			outln("stale: " .. tag_reason(t, id) .. " (ESTALE)")
		elseif errno == "ENOENT" then
			outln("free: " .. tag_reason(t, id) .. " (ENOENT)")
		else
			return nil, failure(msg, errno)
		end
		return true
	end),
}

command {
	name = "untag", args = "TAGGED", min = 1,
	help = "split a tagged ID into its ID and generation",
	example = "untag 65541",
	run = on_id("tagged", "TAGGED", function(t, id)
		local plain, gen = call(t, "untag", id)
		if plain == nil then return nil, failure(gen) end
		outln(string.format("id %d gen %d", plain, gen))
		return true
	end),
}

-- }===============================================================

-- {============================ IDA ===============================

command {
	name = "ida_alloc", args = "[MIN [MAX]]", max = 2,
	help = "allocate the lowest free ID in [MIN, MAX] of an IDA",
	text = "ida_alloc_range(): MAX is inclusive.",
	example = "ida_alloc 1 255",
	run = function(args)
		local a, err = tree("ida")
		if not a then return nil, err end
		local n, e = numbers(args, { 1, "MIN" }, { 2, "MAX" })
		if not n then return nil, e end
		local id, msg, errno = call(a, "alloc", n[1], n[2])
		return allocated(id, msg, errno, string.format("in [%d, %d]",
			n[1] or 0, n[2] or INT_MAX))
	end,
}

command {
	name = "ida_free", args = "ID", min = 1,
	help = "free an ID of an IDA",
	text = "ida_free(): ENOENT if ID is not allocated.",
	example = "ida_free 3",
	run = on_id("ida", "ID", function(a, id)
		local ok, msg, errno = call(a, "free", id)
		if not ok then return absent(id, msg, errno) end
		return true
	end),
}

command {
	name = "ida_exists", args = "ID", min = 1,
	help = "print yes if ID is allocated in the IDA, else no",
	example = "ida_exists 3",
	run = on_id("ida", "ID", function(a, id)
		outln(call(a, "exists", id) and "yes" or "no")
		return true
	end),
}

-- }===============================================================

-- {========================= Seeing inside ========================

-- The terminal's height, when the shell reads a person's lines at one and
-- writes to it; nil in scripts and pipes, which are never paged.
local function screen_lines()
	if not sh.tty or sh.depth > 0 or
		not os.execute("test -t 1") then
		return nil
	end
	-- readline keeps LINES up to date; stty asks the terminal itself.
	local n = tonumber(os.getenv("LINES") or "")
	if not n or n < 2 then
		local p = io.popen("stty size 2>/dev/null")
		n = p and tonumber((p:read("l") or ""):match("^(%d+) ")) or 0
		if p then p:close() end
	end
	return n >= 2 and math.tointeger(n) or 24
end

-- Shows @text through $PAGER (less -R by default) when it is longer than
-- @rows, the terminal's height; else, or off a terminal, prints it.
local function page(text, rows)
	local _, lines = text:gsub("\n", "")
	if not rows or lines < rows then
		outln(text)
		return true
	end
	local pager = os.getenv("PAGER")
	if not pager or not pager:find("%S") then pager = "less -R" end
	io.stdout:flush()
	local p = io.popen(pager, "w")
	if p then
		-- A pager that quits before the end ends the output, not the
		-- shell: the write fails (EPIPE), and that is no error.
		sh.config.pipe_quiet(true)
		p:write(text)
		local ok, _, code = p:close()
		sh.config.pipe_quiet(false)
		if ok or code ~= 127 then return true end
	end
	outln(text)
	return nil, "cannot run the pager '" .. pager .. "' (set PAGER)"
end

local DUMP_OPTIONS = { "--depth", "--at", "--range", "--entries", "--full" }
local DUMP_FLAGS = { full = "--full", depth = "--depth N", at = "--at ID",
	range = "--range A B" }

-- A limited dump's last line names the options that show more as
-- t:dump{} takes them ("more: full, depth, at, range)"): say the flags.
local function dump_flags(text)
	return (text:gsub("; more: ([%a, ]+)%)\n$", function(names)
		return "; more: " .. names:gsub("%a+", DUMP_FLAGS) .. ")\n"
	end))
end

-- Options of dump, as t:dump{} takes them, or nil, why.
local function parse_dump(args, t)
	local o, i, idmax = {}, 1, id_max("any", t)
	-- The number after option args[i], as @what: "--at ID".
	local function num(what, max, min)
		local s = args[i + 1]
		if not s then return nil, what .. ": a number is missing" end
		return number(s, what, max, min)
	end
	while args[i] do
		local a, n, err = args[i], nil, nil
		if a == "--full" then
			o.full, i = true, i + 1
		elseif a == "--depth" or a == "--entries" then
			n, err = num(a .. " N", a == "--depth" and 34 or 64, 1)
			if not n then return nil, err end
			o[a:sub(3)], i = n, i + 2
		elseif a == "--at" then
			n, err = num("--at ID", idmax)
			if not n then return nil, err end
			o.at, i = n, i + 2
		elseif a == "--range" then
			local first, e1 = num("--range A", idmax)
			if not first then return nil, e1 end
			i = i + 1
			local last, e2 = num("--range B", idmax)
			if not last then return nil, e2 end
			if last < first then
				return nil, string.format("bad --range %d %d: A " ..
					"must not be above B", first, last)
			end
			o.range, i = { first, last }, i + 2
		else
			return nil, a:sub(1, 1) == "-" and
				"unknown option " .. quoted(a) or usage("dump")
		end
	end
	if o.at and o.range then
		return nil, "give --at or --range, not both"
	end
	return o
end

command {
	name = "dump",
	args = "[--depth N] [--at ID | --range A B] [--entries N] [--full]",
	max = 8,
	help = "print the tree: two lines a node, then a leaf's entries",
	text = "Each node's range and use, then a map of its slots: '#' full,\n" ..
		"'+' in use with room below, '.' free, '-' no child; then a\n" ..
		"leaf's entries (8 at most; --entries N shows up to N).\n" ..
		"Runs of alike siblings print as one line: 'L0 64..4031: 62 full\n" ..
		"leaves', 'L0 0..4095: 64 leaves of 1/64'; a gap between children,\n" ..
		"as 'L1 4096..8191: 1 empty slot'.  A dump longer than a screen\n" ..
		"(the terminal's height; 50 lines off a terminal) shows fewer\n" ..
		"levels, and its last line says so, unless --depth or --full\n" ..
		"is given.\n" ..
		"  --depth N    draw N levels from the top; below, runs only;\n" ..
		"               whole, however long: at a terminal, paged\n" ..
		"  --at ID      only the way down to ID, and its leaf\n" ..
		"  --range A B  only the nodes and entries of IDs A to B\n" ..
		"  --entries N  show up to N of a leaf's entries (1 to 64)\n" ..
		"  --full       every node, no collapsing, however long;\n" ..
		"               at a terminal, through $PAGER (less -R)",
	example = "dump --at 8300",
	complete = DUMP_OPTIONS,
	run = function(args)
		local t, err = tree("any")
		if not t then return nil, err end
		local o, e = parse_dump(args, t)
		if not o then return nil, e end
		local rows = screen_lines()
		-- Only the default is fitted: a depth asked for is honoured.
		if not o.full and not o.depth then
			-- Room for the prompt under a screenful.
			o.max_lines = rows and math.max(rows - 1, 2) or 50
		end
		local text, msg = call(t, "dump", o)
		if not text then return nil, msg end
		return page(dump_flags(text), rows)
	end,
}

local function shell_quote(s)
	return "'" .. s:gsub("'", "'\\''") .. "'"
end

local function write_file(file, text)
	local f, err = io.open(file, "w")
	if not f then return nil, err end
	local ok, werr = f:write(text)
	-- Buffered: a full disk may only show when closing.
	local closed, cerr = f:close()
	if not (ok and closed) then return nil, file .. ": " .. (werr or cerr) end
	return true
end

local function render(text, format, file)
	if not os.execute("command -v dot >/dev/null 2>&1") then
		return nil, "Graphviz 'dot' is not installed; write the DOT " ..
			"text with 'dot FILE' and render it elsewhere"
	end
	local p = io.popen("dot -T" .. format .. " -o " .. shell_quote(file), "w")
	p:write(text)
	local ok = p:close()
	if not ok then
		return nil, "dot failed to render " .. file
	end
	return true
end

-- {------------------------- dot ----------------------------------

-- The format FILE's extension names: "svg", "png", nil for DOT text
-- (.dot, .gv, or none); else nil, why, so that no picture's name gets
-- DOT text.
local function format_of(file)
	local ext = file:match("%.([^./]*)$")
	local e = ext and ext:lower()
	if not ext or e == "dot" or e == "gv" then return nil end
	if e == "svg" or e == "png" then return e end
	return nil, "no format is named " .. quoted("." .. ext) ..
		": name FILE .dot or .gv (DOT text), .svg or .png"
end

-- dot's arguments: { at = ID, format = "svg" | "png" | nil, file = FILE }.
local function dot_args(t, args)
	local o, i = {}, 1
	while args[i] do
		local a = args[i]
		if a == "--at" and args[i + 1] and o.at == nil then
			local id, err = number(args[i + 1], "ID", id_max("any", t))
			if not id then return nil, err end
			o.at, i = id, i + 2
		elseif (a == "--svg" or a == "--png") and args[i + 1] and
				not o.file then
			o.format, o.file, i = a:sub(3), args[i + 1], i + 2
		elseif a:sub(1, 1) ~= "-" and not o.file then
			o.file, i = a, i + 1
			local err
			o.format, err = format_of(a)
			if err then return nil, err end
		else
			return nil, usage("dot")
		end
	end
	return o
end

command {
	name = "dot", args = "[--at ID] [FILE | --svg FILE | --png FILE]",
	max = 4,
	help = "draw the tree as Graphviz DOT (or render it with dot)",
	text = "Each node's slots are a row of cells, slot 0 at the left: '\u{b7}'\n" ..
		"free, '\u{25cf}' in use, '\u{25a0}' full below, '\u{25b8}' a " ..
		"child with room;\nover them the full bitmap in hex, a digit " ..
		"for four slots, the\nleftmost slot its high bit.  '\u{25c6}' " ..
		"marks the cells the last operation\nchanged; --at ID draws " ..
		"the way down to ID in blue.  Large trees\nare collapsed to " ..
		"fit 4000 pixels a side, and the picture says so.\n" ..
		"With no FILE the DOT text goes to standard output.  FILE's\n" ..
		"extension names the format: .dot or .gv (or none) DOT text,\n" ..
		".svg or .png a picture; --svg and --png name it whatever FILE\n" ..
		"is called.  Pictures need Graphviz's 'dot' program.",
	example = "dot --at 70 --svg tree.svg",
	complete = function(text)
		if text:sub(1, 1) == "-" then return { "--at", "--svg", "--png" } end
		return "files"
	end,
	run = function(args)
		local t, err = tree("any")
		if not t then return nil, err end
		local o, oerr = dot_args(t, args)
		if not o then return nil, oerr end
		local text, msg = call(t, "dot",
			{ at = o.at, changed = t:last_events() })
		if not text then return nil, msg end
		if o.format then return render(text, o.format, o.file) end
		if o.file then return write_file(o.file, text) end
		outln(text)
		return true
	end,
}

-- }---------------------------------------------------------------

command {
	name = "path", args = "ID", min = 1,
	help = "show the way down the tree to ID, level by level",
	example = "path 8300",
	run = on_id("any", "ID", function(t, id)
		local s, msg = call(t, t.path_text and "path_text" or "path", id)
		if not s then return nil, msg end
		outln(type(s) == "table" and format_table(s) or s)
		return true
	end),
}

command {
	name = "stats",
	help = "print IDs, nodes, how full each level is, bytes against a flat array",
	text = "Counts: IDs, height, nodes a level.  Then one bar a level: the\n" ..
		"slots in use of all the slots of that level's nodes (an IDA: and\n" ..
		"the bits set of its bitmaps' bits).  Then packed nodes, nodes in\n" ..
		"the tree's cache and this thread's preload, and the bytes: all\n" ..
		"of them, per ID, and against a flat array of the same IDs (8\n" ..
		"bytes an ID; an IDA also 1 bit an ID): 'tree / flat pointer\n" ..
		"array: 1.06' means the tree takes 1.06 times the array's bytes.",
	example = "stats",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local s, msg = call(t, t.stats_text and "stats_text" or "stats")
		if not s then return nil, msg end
		if type(s) == "table" then s = format_table(s) end
		outln(s)
		return true
	end,
}

-- The run of a reader's 'NAME on|off' (trace, step): on the current
-- tree's events as on every named tree's; @after runs once it is set.
local function switch(name, after)
	return function(args)
		local _, err = tree("any")
		if err then return nil, err end
		if args[1] ~= "on" and args[1] ~= "off" then
			return nil, "say '" .. name .. " on' or '" .. name .. " off'"
		end
		sh.on[name] = args[1] == "on" or nil
		if after then after() end
		return true
	end
end

command {
	name = "trace", args = "on|off", min = 1,
	help = "print each step of later operations",
	text = "One line a step, as the commands run, on every tree:\n" ..
		"  op, done       an operation begins (name, arguments); it ends\n" ..
		"                 (result=ID, or errno=...)\n" ..
		"  visit          a node on the way down; slot= is the one taken\n" ..
		"  no-room        no free slot in the node from slot= on: go back\n" ..
		"                 up and right, or grow the tree\n" ..
		"  malloc, cache-take, preload-take   nodes= came from there\n" ..
		"  node-new       a node joined the tree (aux=gens: a tagged\n" ..
		"                 leaf's generations; aux=bitmap: an IDA bitmap)\n" ..
		"  attach         it hangs from slot= of the parent named\n" ..
		"  grow, shrink   a level added on top, or the top removed\n" ..
		"  detach         the node named lets go of its child at slot=\n" ..
		"  node-free      a node left the tree; then cache-put (kept in\n" ..
		"                 the idr's cache) or free (back to malloc)\n" ..
		"  pack           a sparse leaf packed into a smaller block\n" ..
		"  slot-set, slot-clear   a leaf slot took or lost its entry\n" ..
		"  full, open     a leaf slot's full bit set (used) or cleared\n" ..
		"  subtree-full, subtree-open   an interior slot's full bit set\n" ..
		"                 (child full) or cleared (room below again)\n" ..
		"  bit-set, bit-clear   IDA: ID first+slot taken or freed\n" ..
		"  bitmap-full, bitmap-open   IDA: a bitmap became full, or not\n" ..
		"level=0 is a leaf; first..last are the IDs the node covers.  The\n" ..
		"kernel marks free slots (IDR_FREE) where this tree sets full bits.\n" ..
		"See also: explain, idr(3).",
	example = "trace on",
	complete = { "on", "off" },
	run = switch("trace"),
}

-- 'fail N' as set: N, and the allocator's count of refused allocations
-- then; those refused since come off N.
local fault = { n = 0, failed = 0 }

local function fails_left()
	local left = fault.n - (idr.mem().failed - fault.failed)
	return left > 0 and left or 0
end

command {
	name = "fail", args = "[N]", max = 1,
	help = "make the next N allocations of tree operations fail (ENOMEM)",
	text = "Fault injection, to watch a failed operation leave the tree as it\n" ..
		"was.  Only what the library allocates for a tree operation (alloc,\n" ..
		"preload, ...) counts: what the views (dump, dot, stats, path, list)\n" ..
		"and the shell allocate for themselves never fails nor uses N up.\n" ..
		"'fail 0' turns it off; 'fail' prints how many allocations are still\n" ..
		"set to fail.",
	example = "fail 1",
	run = function(args)
		if not args[1] then
			outln("allocations set to fail: " .. fails_left())
			return true
		end
		local n, err = number(args[1], "N")
		if not n then return nil, err end
		idr.fault(0, n)
		fault.n, fault.failed = n, idr.mem().failed
		return true
	end,
}

command {
	name = "mem",
	help = "print the allocator's counters, and the allocations set to fail",
	example = "mem",
	run = function()
		local m = idr.mem()
		m.fail_pending = fails_left()
		outln(format_table(m))
		return true
	end,
}

-- }===============================================================

-- {========================== Lua, files ==========================

-- {------------------------ Showing values ------------------------

local RENDER_DEPTH = 4		-- tables nested deeper show as {...}
local RENDER_ITEMS = 30		-- fields of one table shown, then ...
local RENDER_WIDTH = 76		-- a wider table shows a field a line

local TYPE_ORDER = { number = 1, string = 2, boolean = 3 }

local function key_less(a, b)
	local ta, tb = TYPE_ORDER[type(a)] or 4, TYPE_ORDER[type(b)] or 4
	if ta ~= tb then return ta < tb end
	if ta < 3 then return a < b end
	return tostring(a) < tostring(b)
end

local render

local KEYWORDS = {}
for w in ("and break do else elseif end false for function goto if in " ..
	"local nil not or repeat return then true until while"):gmatch("%a+") do
	KEYWORDS[w] = true
end

local function render_key(k, seen, depth)
	if type(k) == "string" and k:find("^[%a_][%w_]*$") and
		not KEYWORDS[k] then
		return k
	end
	return "[" .. render(k, depth, seen) .. "]"
end

-- The fields of @t: its sequence 1..n, then the other keys, sorted.
local function fields(t)
	local n, keys = 0, {}
	while rawget(t, n + 1) ~= nil do n = n + 1 end
	for k in next, t do
		if not (math.type(k) == "integer" and k >= 1 and k <= n) then
			keys[#keys + 1] = k
		end
	end
	table.sort(keys, key_less)
	return n, keys
end

local function render_table(t, depth, seen)
	local mt = getmetatable(t)
	if type(mt) == "table" and rawget(mt, "__tostring") then
		return tostring(t)
	end
	if seen[t] then return "{<cycle>}" end
	if depth >= RENDER_DEPTH then return "{...}" end
	seen[t] = true
	local n, keys = fields(t)
	local parts = {}
	for i = 1, n do
		if #parts >= RENDER_ITEMS then break end
		parts[#parts + 1] = render(rawget(t, i), depth + 1, seen)
	end
	for _, k in ipairs(keys) do
		if #parts >= RENDER_ITEMS then break end
		parts[#parts + 1] = render_key(k, seen, depth + 1) .. " = " ..
			render(rawget(t, k), depth + 1, seen)
	end
	if n + #keys > #parts then parts[#parts + 1] = "..." end
	seen[t] = nil
	return parts, "{" .. table.concat(parts, ", ") .. "}"
end

-- @v as one line: a table's fields sorted, bounded and cycle-safe;
-- strings inside a table quoted.  May raise (a __tostring that does).
function render(v, depth, seen)
	if type(v) == "string" then
		return depth > 0 and string.format("%q", v):gsub("\\\n", "\\n") or v
	elseif type(v) ~= "table" then
		return tostring(v)
	end
	local parts, line = render_table(v, depth, seen)
	return line or parts
end

-- A result as '=' and 'lua' print it: a wide table a field a line.
local function show_result(v)
	if type(v) ~= "table" then return render(v, 0, {}) end
	local parts, line = render_table(v, 0, {})
	if not line then return parts end
	if #line <= RENDER_WIDTH or not next(v) or rawget(v, 1) ~= nil then
		return line
	end
	return "{\n  " .. table.concat(parts, ",\n  ") .. "\n}"
end

local function print_values(r)
	local parts = {}
	for i = 1, r.n do
		local ok, text = pcall(show_result, r[i])
		if not ok then
			if text == INTERRUPTED then error(text, 0) end
			return nil, "cannot show the result: " ..
				(type(text) == "string" and text or
				"(error object is a " .. type(text) .. " value)")
		end
		parts[i] = text
	end
	if r.n > 0 then outln(table.concat(parts, "\t")) end
	return true
end

-- }----------------------------------------------------------------

-- {--------------------- Running chunks -----------------------------

-- xpcall's handler: the message and a traceback (lua.c's), cut where
-- the shell's own frames begin.  No traceback for an interrupt, nor
-- when memory ran out (making it would fail too).
local function traceback(e)
	if e == INTERRUPTED or e == "not enough memory" then return e end
	local tb = debug.traceback("", 2)
	local keep = {}
	for line in tb:gmatch("[^\n]+") do
		if line:find("^%s*%[C%]: in %a* ?'?xpcall'?") or
			line:find("idrsh%.lua:") then
			break
		end
		keep[#keep + 1] = line
	end
	return { err = e, traceback = table.concat(keep, "\n") }
end

-- A Lua error as (nil, message[, traceback]); an interrupt goes on up.
local function lua_error(err)
	local tb
	if type(err) == "table" and getmetatable(err) == nil and err.traceback then
		err, tb = err.err, err.traceback
	end
	if err == INTERRUPTED then error(err, 0) end
	-- An error object's __tostring may itself fail.
	local ok, msg = pcall(tostring, err)
	msg = ok and type(msg) == "string" and msg
		or "(error object is a " .. type(err) .. " value)"
	if tb and tb:find("\n") then msg = msg .. "\n" .. tb end
	return nil, msg
end

-- Compiles @chunk in @mode: "expr" (=EXPR) as 'return CHUNK';
-- "repl" (lua CHUNK) as lua.c does, as 'return CHUNK' first, so that a
-- bare expression prints its value, else as statements; "script" (-e,
-- a here-document) as statements.
local function compile(chunk, name, mode)
	if mode ~= "script" then
		local fn, err = load("return " .. chunk, name, "t")
		if fn or mode == "expr" then return fn, err end
	end
	return load(chunk, name, "t")
end

-- Calls @fn with the trees in scope; @show: print what it returns.
local function run_fn(fn, show, ...)
	update_globals()
	local r = table.pack(xpcall(fn, traceback, ...))
	if not r[1] then return lua_error(r[2]) end
	if not show then return true end
	return print_values(table.pack(table.unpack(r, 2, r.n)))
end

-- Runs @chunk (see compile for @mode); @name names it in errors, and
-- its first line is line @first (a here-document's) or 1.  -e prints
-- nothing, as lua5.4 -e does.
local function run_chunk(chunk, name, mode, first)
	if first then chunk = string.rep("\n", first - 1) .. chunk end
	local fn, err = compile(chunk, name, mode)
	if not fn then return nil, err end
	return run_fn(fn, name ~= "=-e")
end

-- True if @chunk ends before its end: Lua's parser stopped at <eof>.
local function incomplete(chunk, mode)
	local fn, err = compile(chunk, "=stdin", mode)
	return not fn and err:sub(-5) == "<eof>"
end

-- }----------------------------------------------------------------

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

local run_line, dispatch, feed, finish

-- A command's failure as reported: "NAME: why", but a usage line, or the
-- error of '=' or of an empty name, as it is.
local function failure_text(name, err)
	local bare = name == "=" or name == "" or err:find("^usage: ")
	return (bare and "" or name .. ": ") .. err
end

local function source_lines(file)
	local f, err = io.open(file, "r")
	if not f then return nil, err end
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

-- {====================== Lessons and quizzes ======================

--[[
A lesson (lua/view/lesson.lua parses it) is played by a runner; the
shell gives it three things: a way to run a command (run_line, its
output captured), the current tree's stats, and a printer.  The
answers come from the same input as the commands: 'lesson' leaves the
lesson pending in the reader it came from (as 'lua <<WORD' leaves a
here-document), and feed() hands it the lines that follow, one answer
each; at the terminal the prompt says 'answer> '.  A lesson plays in a
sandbox of its own trees, so that it neither sees nor changes the
user's, and runs only the commands of LESSON_ALLOWED: none runs Lua,
reads or writes a file, or waits for input, so a lesson file from
anyone is safe to open.
]]
local LESSON_ALLOWED = {}
for w in ([[new use trees drop alloc alloc_cyclic alloc_u32 find remove
	replace next list cursor count empty destroy pre_get preload
	preload_end get_new get_new_above alloc_tagged find_tagged
	remove_tagged check untag ida_alloc ida_free ida_exists alloc_many dump
	path stats trace mem help explain mark diff]]):gmatch("%S+") do
	LESSON_ALLOWED[w] = true
end

local QUIZ_MAX = 100
-- The bytes a lesson file or an answers file may hold: 25 times the
-- longest lesson shipped.
local LESSON_BYTES_MAX = 65536

-- allowed(command) for idr.lesson_parse, and sh.only while a lesson
-- runs (dispatch asks it of every line, so a command that runs another,
-- as 'explain COMMAND', has its line checked too): true, or nil and why.
local function lesson_allowed(line)
	if line:find("^%s*=") then
		return nil, "'=' runs Lua: a lesson runs only idrsh commands"
	end
	local name, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
	if not name then return nil, "a command is missing" end
	if not LESSON_ALLOWED[name] then
		return nil, quoted(name) .. " is not allowed in a lesson: it " ..
			"runs only idrsh commands that run no Lua and touch no file"
	end
	local runs = BY_NAME[name].runs
	local inner = runs and runs(rest)
	if inner then return lesson_allowed(inner) end
	return true
end

-- The text of a lesson or answers @file, at most LESSON_BYTES_MAX bytes.
local function lesson_text(file)
	local f, err = io.open(file, "r")
	if not f then return nil, err end
	local text, rerr = f:read(LESSON_BYTES_MAX + 1)
	f:close()
	if rerr then return nil, file .. ": " .. rerr end
	if text and #text > LESSON_BYTES_MAX then
		return nil, file .. ": longer than " .. LESSON_BYTES_MAX ..
			" bytes: too long for a lesson"
	end
	return text or ""
end

-- {------------------------ alloc_many ------------------------------

-- "0..63 65 67..70": @ids (sorted) as runs.
local function runs(ids)
	local parts, i = {}, 1
	while ids[i] do
		local j = i
		while ids[j + 1] == ids[j] + 1 do j = j + 1 end
		parts[#parts + 1] = j > i and (ids[i] .. ".." .. ids[j])
			or tostring(ids[i])
		i = j + 1
	end
	return table.concat(parts, " ")
end

local FILL_MAX = 1000000

-- Gives back @ids, the newest first, as if they had never been handed
-- out: an idr's unalloc, not remove, so that no tagged slot's generation
-- advances.  (alloc, unlike alloc_cyclic, leaves the cursor alone.)
local function give_back(t, kind, ids)
	local m = kind == "ida" and "free" or "unalloc"
	for i = #ids, 1, -1 do
		call(t, m, ids[i])
	end
end

-- Why the @n-th ID of @want failed, once the @n - 1 before are given back.
local function many_failed(msg, errno, start, done, want)
	local why = failure(msg, errno, range_text(start))
	if done == 0 then return why end
	local back = done == 1 and "it is" or ("the " .. done .. " are")
	return (why:gsub(" %((%u+)%)$", string.format(" after %d of %d; " ..
		"%s given back (%%1)", done, want, back)))
end

command {
	name = "alloc_many", args = "N [START]", min = 1, max = 2,
	help = "allocate N IDs, all or none, from START up; print them",
	text = "On an idr each ID holds the value 'v' (alloc v START); on an\n" ..
		"IDA, ida_alloc START.  Prints the IDs as runs: 0..63 70.  At\n" ..
		"most " .. FILL_MAX .. " at a time.  All or none: if one fails\n" ..
		"(ENOSPC, or ENOMEM after 'fail N'), those before are given back\n" ..
		"and the tree is as it was, a tagged one's generations too.",
	example = "alloc_many 64",
	run = function(args)
		local t, kind = current()
		if not t then return nil, kind end
		local n, e = numbers(args, { 1, "N", FILL_MAX }, { 2, "START" })
		if not n then return nil, e end
		local ids = {}
		for _ = 1, n[1] do
			local id, msg, errno
			if kind == "ida" then
				id, msg, errno = call(t, "alloc", n[2])
			else
				id, msg, errno = call(t, "alloc", "v", n[2])
			end
			if id == nil then
				give_back(t, kind, ids)
				return nil, many_failed(msg, errno, n[2], #ids, n[1])
			end
			ids[#ids + 1] = id
		end
		table.sort(ids)
		outln(#ids == 0 and "0 IDs" or
			#ids .. (#ids == 1 and " ID: " or " IDs: ") .. runs(ids))
		return true
	end,
}

-- }----------------------------------------------------------------

-- {------------------------- The sandbox ----------------------------

-- Marks are the sandbox's own too: a lesson's 'mark' must not replace
-- the user's mark of the same name.
local function sandbox()
	local trees = setmetatable({}, getmetatable(sh.trees))
	trees.default = idr.new {}
	return { trees = trees, current = "default", on = {}, marks = {},
		preloaded = 0 }
end

-- This thread's preloaded nodes (idr_preload() is no tree's: any tree
-- tells them).
local preload_probe
local function preloaded()
	preload_probe = preload_probe or idr.new {}
	return preload_probe:stats().preloaded
end

-- Makes this thread's preload @n nodes as near as preload and
-- preload_end can: none, or a full one.
local function preload_as(n)
	if preloaded() == n then return end
	sh.config.preload_end()
	if n > 0 then sh.config.preload() end
end

-- Calls @fn(...) with @box's trees, readers, marks and preload as the
-- shell's, and only the lines a lesson may run.
local function inside(box, fn, ...)
	local trees, cur, on, marks = sh.trees, sh.current, sh.on, sh.marks
	local only, users_preload = sh.only, preloaded()
	sh.trees, sh.current, sh.on = box.trees, box.current, box.on
	sh.marks, sh.only = box.marks, lesson_allowed
	preload_as(box.preloaded)
	local r = table.pack(pcall(fn, ...))
	box.current, box.preloaded = sh.current, preloaded()
	preload_as(users_preload)
	sh.trees, sh.current, sh.on, sh.marks = trees, cur, on, marks
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
	local done, r = pcall(run_line, line, nil)
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

-- }----------------------------------------------------------------

-- {------------------------ Showing steps ---------------------------

local function show_command(s)
	outln("idr> " .. s.command .. (s.times and s.times > 1 and
		"    (" .. s.times .. " times; the last one shows)" or ""))
	if s.output and s.output ~= "" then out(s.output) end
end

local function show_question(q, r)
	local text = q.text:gsub("\n", "\n  ")
	outln(bold("Question " .. q.number .. " of " .. r.total .. ": ") .. text)
end

local function show_grade(q)
	show_command(q)
	if q.answer == nil then
		outln("The lesson's answer is missing: " .. tostring(q.error))
	elseif q.right then
		outln(bold("Right: ") .. q.answer .. ".")
	else
		outln(bold("Wrong: ") .. "you said " .. visible(q.given) ..
			"; the answer is " .. q.answer .. ".")
		if q.why then outln("Why: " .. q.why:gsub("\n", "\n  ")) end
	end
	outln("")
end

local function show_end(e, r)
	if e.answered < r.total then
		outln(string.format("Score: %d of %d (%d answered).", e.score,
			r.total, e.answered))
	else
		outln(string.format("Score: %d of %d.", e.score, r.total))
	end
end

local SHOW = {
	text = function(s) outln(s.text) outln("") end,
	run = function(s) show_command(s) outln("") end,
	ask = show_question,
	graded = show_grade,
	["end"] = show_end,
}

local function emit(step, what, r)
	SHOW[what](step, r)
end

-- }----------------------------------------------------------------

-- {------------------------- A session ------------------------------

--[[
A session: { box, runner }.  lesson_answer() gives it one line of
input; lesson_stop() ends it at the end of the input.  Both return
true while it goes on, then true if every question was answered
right, else false (so that a script that grades answers exits 1).
]]
local function session(lesson)
	local s = { box = sandbox() }
	s.runner = idr.lesson_runner(lesson, { run = captured,
		stats = tree_stats, emit = emit })
	return s
end

local function over(s)
	local r = s.runner
	return r.score == r.total
end

local function lesson_answer(s, line)
	if line:find("^%s*$") or line:find("^%s*#") then return true, true end
	local r = s.runner
	inside(s.box, function()
		r:answer(line:match("^%s*(.-)%s*$"))
		r:advance()
	end)
	if r.over then return over(s), false end
	return true, true
end

-- The input ended before the answer to the question asked.
local function lesson_stop(s, why)
	local r = s.runner
	if r.over then return over(s) end
	if r.q then
		outln("No answer to question " .. r.q.number .. ": " .. why .. ".")
	end
	inside(s.box, r.stop, r)
	return false
end

-- Answers from @text (of @file), a line each; the lesson ends with it.
local function answers_from(s, text, file)
	for line in text:gmatch("[^\n]*") do
		local r, going = lesson_answer(s, line)
		if not going then return r end
	end
	return lesson_stop(s, "the answers in " .. file .. " ended")
end

-- Plays @lesson up to its first question; the rest of its answers come
-- from @answers (a file), or from the lines after this one.
local function start(lesson, answers)
	local text, err
	if answers then
		text, err = lesson_text(answers)
		if not text then return nil, err end
	end
	local s = session(lesson)
	outln(bold(lesson.title))
	outln("")
	inside(s.box, s.runner.advance, s.runner)
	if s.runner.over then return over(s) end
	if answers then return answers_from(s, text, answers) end
	sh.started = s
	return true
end

-- }----------------------------------------------------------------

-- {------------------------ As a replay -----------------------------

--[[
'lesson NAME --html OUT.html': the lesson played in a sandbox with no
one to answer (idr.lesson_play), made into a replay page: a frame for
each command it runs, with the events a reader of its own heard; its
paragraphs go with the frame that follows them; a question is a frame
with the tree as the question finds it, and its answer (the command's
output, and why) is behind "Show the answer".  The answer command's
changes show in the frames after it.
]]
local heard = { events = {} } -- the events of the command running

reader {
	name = "lesson-html",
	event = function(ev, t)
		heard.events[#heard.events + 1] = ev
		heard.tree = t
	end,
}

-- A paragraph as the page shows it: the file's line breaks are not the
-- author's, the blank lines between paragraphs are.
local function prose(s)
	return s and (s:gsub("\n", " ")) or nil
end

-- The recorder's frame for the step just played, with the paragraphs
-- that came before it.
local function lesson_frame(p, f)
	f.tree, f.events = heard.tree or current(), heard.events
	if #p.text > 0 then f.text = table.concat(p.text, "\n\n") end
	p.text, heard.events, heard.tree = {}, {}, nil
	return p.rec:frame(f)
end

local function lesson_emit(p, step, what, r)
	if what == "text" then
		p.text[#p.text + 1] = prose(step.text)
	elseif what == "run" then
		lesson_frame(p, { command = step.command, output = step.output })
	elseif what == "ask" then
		p.asked = lesson_frame(p, { question = { text = prose(step.text),
			number = string.format("Question %d of %d:", step.number,
				r.total) } })
	elseif what == "revealed" then
		local t = heard.tree or current()
		p.rec:amend(p.asked, { question = {
			number = string.format("Question %d of %d:", step.number,
				r.total),
			text = prose(step.text), command = step.command,
			answer = step.answer or ("(none: " ..
				tostring(step.error) .. ")"),
			output = step.output, why = prose(step.why),
			narration = p.rec:narrate(t, heard.events) } })
		heard.events, heard.tree = {}, nil
	end
end

-- Plays @lesson with no one to answer; returns its recorder and the
-- number of questions.
local function lesson_replay(lesson)
	local p = { rec = idr.recorder { title = lesson.title }, text = {} }
	local box = sandbox()
	box.on["lesson-html"] = true
	local function run(command, answer)
		heard.events, heard.tree = {}, nil
		return captured(command, answer)
	end
	local played = inside(box, function()
		local steps = idr.lesson_play(lesson, { run = run,
			stats = tree_stats, emit = function(step, what, r)
				lesson_emit(p, step, what, r)
			end })
		-- Paragraphs after the last command: a frame of their own.
		if #p.text > 0 then lesson_frame(p, {}) end
		return steps
	end)
	local asked = 0
	for _, s in ipairs(played) do
		if s.kind == "question" then asked = asked + 1 end
	end
	return p.rec, asked
end

local function lesson_html(lesson, file)
	local rec, asked = lesson_replay(lesson)
	local ok, err = write_file(file, rec:html())
	if not ok then return nil, err end
	outln(string.format("wrote %d frames, %d question%s, to %s",
		rec:count(), asked, asked == 1 and "" or "s", file))
	return true
end

-- }----------------------------------------------------------------

-- {------------------------ The commands ----------------------------

-- Splits "--answers FILE", "--html FILE" (and "--seed S" when @seed)
-- off @args.
local function lesson_options(args, seed)
	local o, rest, i = {}, {}, 1
	while args[i] do
		local a = args[i]
		if a == "--answers" or a == "--html" or
				(seed and a == "--seed") then
			if not args[i + 1] then return nil, a .. " needs a value" end
			o[a:sub(3)] = args[i + 1]
			i = i + 2
		elseif a:sub(1, 2) == "--" then
			return nil, "unknown option " .. quoted(a)
		else
			rest[#rest + 1] = a
			i = i + 1
		end
	end
	if o.answers and o.html then
		return nil, "--html asks no one: not with --answers"
	end
	return o, rest
end

local function list_lessons()
	for _, name in ipairs(idr.lessons()) do
		local l = idr.lesson(name)
		outln(string.format("%-14s %s", name, l and l.title or "?"))
	end
	outln("Type 'lesson NAME' to take one, or 'lesson FILE' for your own.")
	return true
end

-- A lesson compiled in, else a file of the format.
local function load_lesson(name)
	if (idr.lesson_texts or {})[name] then
		return idr.lesson(name, lesson_allowed)
	end
	local f, err = io.open(name, "r")
	if not f then
		return nil, "no lesson " .. quoted(name) .. " (see 'lesson'); " .. err
	end
	f:close()
	local text, rerr = lesson_text(name)
	if not text then return nil, rerr end
	return idr.lesson_parse(text, name, lesson_allowed)
end

command {
	name = "lesson", args = "[NAME | FILE] [--answers FILE | --html OUT.html]",
	max = 3,
	help = "take a lesson: text, commands run for you, and questions",
	text = "With no NAME, lists the lessons.  A question's answer is what an\n" ..
		"idrsh command prints when it runs after you answer: the library\n" ..
		"grades you.  At the terminal 'answer> ' asks for each answer\n" ..
		"(Ctrl-C or Ctrl-D leaves the lesson); in a script or a pipe the lines\n" ..
		"after the command are its answers, and --answers FILE reads\n" ..
		"them from FILE.  A lesson ends with the score, and fails (exit\n" ..
		"status 1) unless every answer was right.  'lesson FILE' runs a\n" ..
		"file of your own (the format is in idrsh(1), LESSON FILES); it\n" ..
		"runs only idrsh commands that run no Lua and touch no file, on\n" ..
		"trees of its own.  A lesson or answers file holds at most\n" ..
		LESSON_BYTES_MAX .. " bytes.  --html OUT.html asks nothing: it plays the\n" ..
		"lesson and writes it as a replay page (see 'record'), a frame\n" ..
		"a command, its paragraphs with them, and each question with\n" ..
		"its answer hidden until 'Show the answer' is clicked.",
	example = "lesson lowest-free --html lowest-free.html",
	complete = function(text)
		if text:sub(1, 1) == "-" then return { "--answers", "--html" } end
		local l = idr.lessons()
		for _, name in ipairs(l) do
			if name:sub(1, #text) == text then return l end
		end
		return "files"
	end,
	run = function(args)
		local o, rest = lesson_options(args)
		if not o then return nil, rest end
		if #rest > 1 then return nil, usage("lesson") end
		if not rest[1] then
			if o.answers or o.html then return nil, usage("lesson") end
			return list_lessons()
		end
		local l, err = load_lesson(rest[1])
		if not l then return nil, err end
		if o.html then return lesson_html(l, o.html) end
		return start(l, o.answers)
	end,
}

command {
	name = "quiz", args = "[N] [--seed S] [--answers FILE | --html OUT.html]",
	max = 5,
	help = "answer N questions (5) on random trees; the library grades",
	text = "Each question has a tree of its own, made by the commands shown:\n" ..
		"which ID alloc or alloc_cyclic returns next, how many nodes an\n" ..
		"allocation makes, which slot of the root an ID goes through,\n" ..
		"whether a tagged ID is live.  --seed S asks the same questions\n" ..
		"each time (the title says the seed of a quiz without one).\n" ..
		"Answers come as for 'lesson'; --html OUT.html writes the quiz\n" ..
		"as a replay page, as 'lesson' does.",
	example = "quiz 5 --seed 1",
	complete = { "--seed", "--answers", "--html" },
	run = function(args)
		local o, rest = lesson_options(args, true)
		if not o then return nil, rest end
		if #rest > 1 then return nil, usage("quiz") end
		local n, e = number(rest[1] or "5", "N", QUIZ_MAX, 1)
		if not n then return nil, e end
		local seed = os.time()
		if o.seed then
			seed, e = number(o.seed, "S", INT_MAX)
			if not seed then return nil, e end
		end
		if o.html then return lesson_html(idr.quiz(n, seed), o.html) end
		return start(idr.quiz(n, seed), o.answers)
	end,
}

-- }----------------------------------------------------------------

-- }===============================================================

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
			snap.height, plural(#snap.nodes, "node", "nodes")))
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
		local all, words = false, {}
		for _, a in ipairs(args) do
			if a == "--all" then
				all = true
			elseif a:sub(1, 1) == "-" or #words > 0 then
				return nil, usage("diff")
			else
				words[1] = a
			end
		end
		local name, err = mark_name(words, 1)
		if not name then return nil, err end
		local m = sh.marks[name]
		if not m then
			return nil, "no mark '" .. name .. "'; make one with 'mark" ..
				(name == "mark" and "" or " " .. name) .. "'"
		end
		local t, terr = marked_tree(name, m)
		if not t then return nil, terr end
		local text, msg = call(t, "diff_text", m.snap,
			{ max_lines = all and 0 or nil })
		if not text then return nil, msg end
		out(text)
		return true
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

-- {============================ Replay ============================
-- 'record' and --html: a reader that makes a frame of each command line
-- (lua/view/replay.lua), with the events it caused and what it printed.

-- record.rec: the recorder, once started; events: those of the operation
-- going on; ops: the frames of the line's operations so far.
-- rest: the line's operations past OPS_MAX, which share its last frame;
-- more: their events past the 400 that frame keeps.
local record = { events = {}, ops = {}, rest = 0, more = 0 }

-- Each frame costs the whole tree (rec:frame compares every node), so a
-- line of 10^5 operations, a frame each, took hours; no one steps
-- through that many.
local OPS_MAX = 100

local function record_start(title)
	record.rec = idr.recorder { title = title }
	record.events, record.tree, record.ops = {}, nil, {}
	record.rest, record.more = 0, 0
	sh.on.record = true
	sh.capture = {}
end

local function record_stop()
	sh.on.record = nil
	sh.capture = nil
end

-- Where the library marks operations (events "op" ... "done"), each is
-- a frame, made as it ends, while the tree is as it left it; the line
-- names them once it is over.  A line with no operation is one frame.
local function record_op(t)
	local ops = record.ops
	if #ops >= OPS_MAX then
		record.rest = record.rest + 1
		return
	end
	local evs = record.events
	record.events = {}
	ops[#ops + 1] = record.rec:frame { tree = t, events = evs }
end

-- The line over: its operations' frames are named after it; a line that
-- ran none (@whole) is a frame of its own.
local function record_line(line, whole)
	local evs, t = record.events, record.tree or current()
	local text, ops = table.concat(sh.capture or {}), record.ops
	local rest, more = record.rest, record.more
	record.events, record.tree, record.ops = {}, nil, {}
	record.rest, record.more = 0, 0
	sh.capture = {}
	if line:find("^%s*record%f[%s%z]") then return end
	if #ops == 0 and whole then
		record.rec:frame { tree = t, command = line, output = text,
			events = evs }
	end
	local total = #ops + rest
	if rest > 0 then
		ops[#ops + 1] = record.rec:frame { tree = t, events = evs,
			more = more }
	end
	for i, n in ipairs(ops) do
		local what = total == 1 and line or
			string.format("%s  [operation %d of %d]", line, i, total)
		if i > OPS_MAX then
			what = string.format("%s  [operations %d to %d of %d]",
				line, i, total, total)
		end
		record.rec:amend(n, { output = i == #ops and text or "",
			command = what })
	end
end

reader {
	name = "record",
	event = function(ev, t)
		local evs = record.events
		if #record.ops < OPS_MAX or #evs < 400 then
			evs[#evs + 1] = ev
		else
			record.more = record.more + 1
		end
		record.tree = t
		if ev.event == "done" then record_op(t) end
	end,
	done = function(line) record_line(line, true) end,
}

local function record_save(file)
	if not record.rec then
		return nil, "nothing recorded: say 'record on' first"
	end
	return write_file(file, record.rec:html())
end

command {
	name = "record", args = "on|off|save FILE", min = 1, max = 2,
	help = "record the commands that follow, for a replay in a browser",
	text = "'record on' starts a new recording: each operation on a tree\n" ..
		"makes a frame (the tree, the command, its output, its events);\n" ..
		"a line with none makes one too, and a line's operations past\n" ..
		"its 100th share one last frame.\n" ..
		"'record save FILE' writes the frames so far as one HTML page\n" ..
		"that needs no network; 'record off' stops recording.",
	example = "record save replay.html",
	complete = function(text)
		if text == "" or ("on off save"):find(text, 1, true) then
			return { "on", "off", "save" }
		end
		return "files"
	end,
	run = function(args)
		local what = args[1]
		if what == "on" and not args[2] then
			record_start("idrsh replay")
			return true
		elseif what == "off" and not args[2] then
			record_stop()
			return true
		elseif what == "save" and args[2] then
			local ok, err = record_save(args[2])
			if not ok then return nil, err end
			outln("wrote " .. record.rec:count() .. " frames to " .. args[2])
			return true
		end
		return nil, usage("record")
	end,
}

-- }===============================================================

-- {============================ Help ==============================

local function help_on(c)
	outln(usage(c.name))
	outln("")
	outln(c.help)
	if c.text then outln(""); outln(c.text) end
	outln("")
	outln("example:")
	outln("  " .. c.example)
end

local function help(args)
	if args[1] then
		local c = BY_NAME[args[1]]
		if not c then
			return nil, "no command " .. quoted(args[1]) ..
				did_you_mean(args[1])
		end
		help_on(c)
		return true
	end
	for _, c in ipairs(COMMANDS) do
		outln(string.format("%s%s %s", bold(c.name),
			string.rep(" ", math.max(1, 15 - #c.name)), c.help))
	end
	outln("Type 'help CMD' for more; =EXPR prints a Lua expression.")
	return true
end

-- help's and quit's other names are those of sqlite3, python3 and
-- redis-cli.
for _, name in ipairs({ "help", ".help", "?" }) do
	command {
		name = name, args = "[CMD]", max = 1,
		help = name == "help" and "list the commands, or explain one"
			or "the same as help",
		example = name .. " alloc",
		complete = command_names,
		run = help,
	}
end

for _, name in ipairs({ "quit", "exit", ".quit" }) do
	command {
		name = name,
		help = name == "quit" and "leave idrsh (so does Ctrl-D)"
			or "the same as quit",
		example = name,
		run = function() return "quit" end,
	}
end

-- }===============================================================

-- {========================== Running =============================

function dispatch(line, src)
	if sh.only then
		local ok, why = sh.only(line)
		if not ok then return "", nil, why end
	end
	local expr = line:match("^%s*=(.*)$")
	if expr then
		return "=", run_chunk(expr, "=expr", "expr")
	end
	local name, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
	local c = BY_NAME[name]
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

-- Runs one line.  Return: true, false (the error is reported), or "quit".
function run_line(line, where, src)
	if line:find("\0", 1, true) then
		M.report(where, "the line holds a NUL byte")
		return false
	end
	if line:find("^%s*$") or line:find("^%s*#") then
		return true
	end
	observe_trees()
	local tty = sh.tty
	sh.tty = tty and where == nil
	local ok, name, r, err = pcall(dispatch, line, src)
	sh.tty = tty
	if not ok and name == "not enough memory" then
		-- No bug: the command ran out of memory.  Say which one.
		r, err = nil, name
		name = line:match("^%s*=") and "=" or line:match("^%s*(%S+)")
	elseif not ok then
		if name == INTERRUPTED then
			command_done(line)
			error(name, 0)
		end
		r, err = nil, tostring(name):gsub("^idrsh%.lua:%d+: ", "")
		name = "internal error"
	end
	if r == nil and err then M.report(where, failure_text(name, err)) end
	-- After the report: a reader may keep the error with the command.
	command_done(line)
	return r == "quit" and "quit" or (r and true or false)
end

-- {------------------------- Readers ------------------------------

--[[
A reader is a source of lines: the terminal, standard input, a -c, a
file being sourced.  It holds what a line left pending ('pending'):
  { word, lines, where, src }   a here-document: 'lua <<WORD' at
                                where, the lines so far;
  { lesson }                    a lesson or quiz: each line is an answer
                                (see "Lessons and quizzes");
  { text }                      at the terminal only, a 'lua' or '='
                                chunk Lua's parser found unfinished.
Elsewhere a line is one chunk, so that a bad line fails alone.
]]

-- A 'lua CHUNK' or '=EXPR' line whose chunk ends before its end.
local function unfinished(line)
	local expr = line:match("^%s*=(.*)$")
	if expr then return incomplete(expr, "expr") end
	local chunk = line:match("^%s*lua%s(.*)$")
	return chunk ~= nil and chunk:find("%S") ~= nil and
		incomplete(chunk, "repl")
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
		local r, going = lesson_answer(p.lesson, line)
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
		return lesson_stop(p.lesson, "the input ended")
	elseif p and p.word then
		M.report(p.where, "lua: no line '" .. p.word ..
			"' ends the here-document")
		return false
	elseif p then
		return run_line(p.text, nil)
	end
	return true
end

-- }----------------------------------------------------------------

-- The terminal, standard input and each -c share this reader.
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
	if p and p.lesson then lesson_stop(p.lesson, "Ctrl-C") end
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
		lesson_stop(p.lesson, "Ctrl-D")
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
		-- No command lines: a frame each operation instead, on any
		-- tree (the reader sees only those under trees.NAME).
		sh.on.record = nil
		r, err = record.rec:watch(source, file, args)
		sh.on.record = true
	else
		r, err = source(file, args)
	end
	if r == nil and err then M.report(nil, err) end
	return r == "quit" and "quit" or (r and true or false)
end

function M.run_lua(chunk, name)
	observe_trees()
	local ok, err = run_chunk(chunk, name, "script")
	if not ok then M.report(nil, err) end
	if sh.on.record then record_line("-e " .. chunk, false) end
	return ok and true or false
end

-- --html FILE: record from the start; M.html_save(FILE) at the end.
function M.html_start(title)
	record_start(title)
	return true
end

function M.html_save(file)
	local ok, err = record_save(file)
	if not ok then M.report(nil, "--html: " .. err) end
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
		return prefixed(command_names(), text)
	end
	local c = BY_NAME[cmd]
	-- Past the last argument the command takes, nothing fits.
	local words = select(2, before:gsub("%S+", "")) - 1
	if not c or not c.raw and words >= c.max then return {} end
	local how = c.complete
	if type(how) == "function" then how = how(text) end
	if how == "files" then
		return "files"
	elseif type(how) == "table" then
		return prefixed(how, text)
	end
	return {}
end

function M.setup(config)
	sh.config = config
	keep("default", idr.new {})
	update_globals()
end

M.commands = COMMANDS

return M
