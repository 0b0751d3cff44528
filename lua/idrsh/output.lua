-- SPDX-License-Identifier: MIT
-- output.lua - what the shell prints: results on stdout, messages on
-- stderr as "idrsh: WHERE: message", values as the shell shows them,
-- and files written whole.  Results come as data and text (result):
-- the format, text or JSON (idrsh --json, 'format json'), picks one.
-- idrsh.run's output goes to a buffer instead (capture).

local idr = require "idr"
local sh = require "idrsh.state"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, error, getmetatable, io, ipairs, math, next, pairs, pcall,
	rawset, select, setmetatable, string, table, tostring, type, utf8 =
	_G, error, getmetatable, io, ipairs, math, next, pairs, pcall, rawset,
	select, setmetatable, string, table, tostring, type, utf8

local json = idr.json

-- {============================ Output ============================

-- "text" or "json".
local format = "text"

-- While idrsh.run runs a line: { out = {...}, err = {...} }, what it
-- prints, and the io.stdout and io.stderr it found; nil: the streams.
local sink

-- While a replay is recorded, sh.capture (a list) also gets a copy of
-- what a command prints, for the frame.
local function captured(...)
	local c = sh.capture
	for i = 1, select("#", ...) do c[#c + 1] = tostring((select(i, ...))) end
end

local function append(list, ...)
	for i = 1, select("#", ...) do
		list[#list + 1] = tostring((select(i, ...)))
	end
end

-- Lua's own file method write, kept before the hooks below replace it.
local real_stdout = io.stdout
local file_methods = getmetatable(real_stdout).__index
local file_write, io_write = file_methods.write, io.write

-- stdout: a file (the real one) or what a lesson put there (a table).
local function to_stdout(...)
	local f = io.stdout
	if io.type(f) == "file" then file_write(f, ...) else f:write(...) end
end

-- The innermost capture wins: idrsh.run's sink, or a lesson's table put
-- in io.stdout after it.
local function write(...)
	if sink and io.stdout == sink.stdout then
		append(sink.out, ...)
	else
		to_stdout(...)
	end
	if sh.capture then captured(...) end
end

-- In JSON, the text a command prints that has no JSON form of its own
-- (help, dump ...), kept for one {"text": ...} line.
local pending = {}

local function flush_text()
	if #pending == 0 then return end
	local text = table.concat(pending)
	pending = {}
	write(json.encode({ text = text }), "\n")
end

local function out(...)
	if format == "json" then append(pending, ...) else write(...) end
end

local function outln(s)
	s = tostring(s)
	out(s, s:sub(-1) == "\n" and "" or "\n")
end

-- {------------------------ Lua's own output ----------------------

--[[
What a chunk prints with print, io.write or io.stdout:write goes through
out() as a command's text does: idrsh.run keeps it, a recording sees it,
and in JSON it is {"text": ...} lines, so that stdout stays JSON Lines.
io.write's conversions and errors are Lua's; an io.write after
io.output(FILE) goes to that file.
]]

-- @... as io.write converts it (floats "%.14g"), or an error as Lua's.
local function written(...)
	local parts = {}
	for i = 1, select("#", ...) do
		local v = select(i, ...)
		if math.type(v) == "float" then
			v = string.format("%.14g", v)
		elseif type(v) ~= "string" and type(v) ~= "number" then
			error(string.format("bad argument #%d to 'write' (string " ..
				"expected, got %s)", i, type(v)), 3)
		end
		parts[i] = v
	end
	return table.concat(parts)
end

local function lua_write(...)
	if io.output() ~= real_stdout then return io_write(...) end
	out(written(...))
	return real_stdout
end

local function stdout_write(f, ...)
	if f ~= real_stdout then return file_write(f, ...) end
	out(written(...))
	return f
end

local function lua_print(...)
	local parts = {}
	for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
	out(table.concat(parts, "\t"), "\n")
end

-- (rawset: the io table is the standard library's, changed on purpose.)
rawset(io, "write", lua_write)
file_methods.write, _G.print = stdout_write, lua_print

-- }----------------------------------------------------------------

-- One JSON value on a line of its own.
local function json_line(v)
	flush_text()
	write(json.encode(v), "\n")
end

-- @s with its control characters other than newline and tab shown as
-- \ddd, for text that came from the user's input and is shown back: an
-- escape sequence in it never reaches the terminal.
local function visible(s)
	return (s:gsub("[%z\1-\8\11-\31\127]", function(c)
		return string.format("\\%03d", c:byte())
	end))
end

-- The errno a message ends with, as the shell's failures say it
-- ("no id 5 (ENOENT)"), or nil.
local function errno_of(msg)
	return msg:match("%((E%u+)%)$") or msg:match("%((E%u+)%)\n")
end

-- As JSON, an error is an object: { message, errno (or null), where
-- (FILE:LINE, when a file's line failed) }.
local function error_json(where, msg)
	return json.encode({ message = msg, errno = errno_of(msg) or json.null,
		where = where })
end

-- "idrsh: WHERE: message" on stderr, after whatever stdout holds; a bad
-- line's bytes, which the message may quote, are made visible().
local function report(where, msg)
	flush_text()
	io.stdout:flush()
	local text = visible(where and ("idrsh: " .. where .. ": " .. msg)
		or ("idrsh: " .. msg))
	if sh.capture then captured(text, "\n") end
	if sink and io.stderr == sink.stderr then
		sink.err[#sink.err + 1] = text:gsub("^idrsh: ", "")
		return
	end
	if format == "json" then
		text = error_json(where, msg)
	elseif sh.config.color_err then
		text = "\27[31m" .. text .. "\27[0m"
	end
	io.stderr:write(text, "\n")
end

local function bold(s)
	return sh.config.color_out and ("\27[1m" .. s .. "\27[0m") or s
end

-- @s with each byte that is not part of valid UTF-8 as \ddd, as the
-- dumps (lua/view/entry.lua) show it.
local function invalid_bytes(s)
	local parts, i = {}, 1
	while true do
		local ok, bad = utf8.len(s, i)
		if ok then break end
		parts[#parts + 1] = s:sub(i, bad - 1)
		parts[#parts + 1] = string.format("\\%03d", s:byte(bad))
		i = bad + 1
	end
	parts[#parts + 1] = s:sub(i)
	return table.concat(parts)
end

-- A value as the shell shows it: bare if it needs no quotes.  The
-- dumps' lua/view/entry.lua quotes and escapes a string alike, and says
-- why it stays a function of its own.
-- An idr's value as list prints it; nil is a reserved ID's (a NULL
-- entry), and a string that could pass for that mark is quoted.
local function show(v)
	if v == nil then
		return "(reserved)"
	elseif type(v) ~= "string" then
		return tostring(v)
	end
	if v ~= "" and not v:find("^%(") and not v:find("[%s\"'\\%c]") and
		utf8.len(v) then
		return v
	end
	return '"' .. invalid_bytes(v:gsub('[\\"]', "\\%0"):gsub("\n", "\\n")
		:gsub("\t", "\\t"):gsub("%c", function(c)
			return string.format("\\%03d", c:byte())
		end)) .. '"'
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

-- Writes @text to @file: true, or nil and why.
local function write_file(file, text)
	local f, err = io.open(file, "w")
	if not f then return nil, err end
	local ok, werr = f:write(text)
	-- Buffered: a full disk may only show when closing.
	local closed, cerr = f:close()
	if not (ok and closed) then return nil, file .. ": " .. (werr or cerr) end
	return true
end

-- The bytes of @file when it holds at most @max (a file of any size
-- would be read whole otherwise): the text, or nil, why and, when the
-- file is longer, true.
local function read_file(file, max)
	local f, err = io.open(file, "rb")
	if not f then return nil, err end
	local text, rerr = f:read(max + 1)
	f:close()
	if rerr then return nil, file .. ": " .. rerr end
	text = text or ""
	if #text > max then
		return nil, file .. ": longer than " .. max .. " bytes", true
	end
	return text
end

-- }===============================================================

-- {============================ Results ===========================

-- Gets what @v is: @v itself, or what the function @v returns for ...
-- (nil, why: the result fails).
local function made(v, ...)
	if type(v) ~= "function" then return v end
	return v(...)
end

--[[
A command's result, as data and as text: in JSON one line of @data, in
text @text printed as outln does.  Either may be a function, run only
in its format with the arguments after them, that returns the data or
text (a text function may print it itself and return nothing), or nil
and why.  Return: true, or nil and why.
]]
local function result(data, text, ...)
	if format == "json" then
		local d, err = made(data, ...)
		if d == nil and err ~= nil then return nil, err end
		json_line(d == nil and json.null or d)
		return true
	end
	local s, err = made(text, ...)
	if s == nil and err ~= nil then return nil, err end
	if s ~= nil then outln(s) end
	return true
end

--[[
A result that is a list, item by item: items() -> list, list:add(data,
text, ...) as result() takes them, list:close().  Text prints each
item's line as it comes; JSON prints one array, on one line, at close.
]]
local Items = {}
Items.__index = Items

-- JSON encodes the items so many at a time, and keeps the text.
local ITEMS_JOIN = 1024

-- The items so far, encoded: "[a,b]" without its brackets.
function Items:join()
	if #self.part == 0 then return end
	self.parts[#self.parts + 1] = json.encode(self.part):sub(2, -2)
	self.part = {}
end

function Items:add(data, text, ...)
	if format ~= "json" then return result(nil, text, ...) end
	local d, err = made(data, ...)
	if d == nil and err ~= nil then return nil, err end
	self.part[#self.part + 1] = d == nil and json.null or d
	if #self.part >= ITEMS_JOIN then self:join() end
	return true
end

function Items:close()
	if format ~= "json" then return true end
	self:join()
	flush_text()
	write("[", table.concat(self.parts, ","), "]\n")
	return true
end

local function items()
	return setmetatable({ parts = {}, part = {} }, Items)
end

-- The end of a command: its text, in JSON, goes out as one line.
local function done()
	flush_text()
end

-- }===============================================================

-- {=========================== JSON shapes ========================

-- A stored value, as JSON has it: a string (another Lua value as the
-- shell shows it, tostring), or null for a reserved ID.
local function value(v)
	if v == nil then return json.null end
	return type(v) == "string" and v or tostring(v)
end

-- A 64-bit bitmap (a Lua integer, negative when its top bit is set) as
-- 16 hex digits, slot 0 the lowest bit.
local function bitmap(n)
	return string.format("%016x", n)
end

local BITMAPS = { full = true, present = true }

-- A copy of the library's table @t with its bitmaps in hex and its
-- values (fields in @values) as value() gives them.
local function shaped(t, values)
	local c = {}
	for k, v in pairs(t) do
		if BITMAPS[k] and math.type(v) == "integer" then
			v = bitmap(v)
		elseif values and values[k] then
			v = value(v)
		end
		c[k] = v
	end
	for k in pairs(values or {}) do
		if t[k] == nil then c[k] = json.null end
	end
	return c
end

-- What an op event's fields mean, by op: "range", start and end (an
-- allocation's; alloc_cyclic's id is its cursor); "none"; else id.
local OP_ARGS = {
	alloc = "range", alloc_u32 = "range", alloc_tagged = "range",
	ida_alloc_range = "range", ida_find_first_range = "range",
	get_new_above = "range", alloc_cyclic = "range and id",
	get_new = "none", pre_get = "none", for_each = "none",
	ida_count = "none", destroy = "none", ida_destroy = "none",
}

-- A trace event, {"trace": {event, op, level, first, ...}}; an op
-- event with only the fields its op gives (OP_ARGS).
local function event(ev)
	local c = shaped(ev)
	if ev.event == "op" then
		local args = OP_ARGS[ev.op] or "id"
		if not args:find("range") then c.start, c["end"] = nil, nil end
		if not args:find("id") then c.id = nil end
	end
	return { trace = c }
end

-- An ID's path (t:path()): an idr's ID found has its value, or null.
local function path(p)
	local c = shaped(p)
	if not p.ida and p["end"] == "found" then c.value = value(p.value) end
	return c
end

-- Any Lua value as JSON can have it: tables copied (a cycle, a table
-- with a __tostring, NaN, infinities and what JSON has no place for
-- as tostring gives them), nil as null.
local function lua_value(v, seen)
	local ty = type(v)
	if v == nil then return json.null end
	if ty == "number" and (v ~= v or v == math.huge or v == -math.huge) then
		return tostring(v)
	end
	if ty == "string" or ty == "number" or ty == "boolean" then return v end
	seen = seen or {}
	local mt = getmetatable(v)
	if ty ~= "table" or seen[v] or type(mt) == "table" and mt.__tostring then
		return tostring(v)
	end
	seen[v] = true
	local c = {}
	for k, x in next, v do
		if type(k) ~= "number" then k = tostring(k) end
		c[k] = lua_value(x, seen)
	end
	seen[v] = nil
	return c
end

local CHANGE_VALUES = {
	added = { value = true }, removed = { value = true },
	replaced = { from = true, to = true },
}

-- diff's changes (t:diff()), each shaped.
local function changes(list)
	local r = {}
	for i, c in ipairs(list) do
		r[i] = shaped(c, CHANGE_VALUES[c.change])
	end
	return r
end

-- }===============================================================

-- {============================ Timing ============================

-- 'timer on': each command's run time follows its output.
local timer = false

local function set_timer(on)
	timer = on
end

local function timing()
	return timer
end

-- Now: the wall clock's seconds and the CPU's, user and system
-- (src/idrsh.c's clock: clock_gettime and getrusage).
local function clock()
	local real, user, sys = sh.config.clock()
	return { real = real, user = user, sys = sys }
end

local function micro(x)
	return math.floor(x * 1e6 + 0.5) / 1e6
end

-- Prints the time since @start (a clock()), as sqlite3's .timer does:
-- "Run Time: real 0.001 user 0.000812 sys 0.000000".
local function run_time(start)
	local now = clock()
	local real, user, sys = now.real - start.real, now.user - start.user,
		now.sys - start.sys
	return result({ run_time = { real = micro(real), user = micro(user),
		sys = micro(sys) } }, string.format(
		"Run Time: real %.3f user %f sys %f", real, user, sys))
end

-- }===============================================================

-- {============================ Formats ===========================

local FORMATS = { text = true, json = true }

-- Sets the format: "text" or "json".  Return: true, or nil and why.
local function set_format(f)
	if not FORMATS[f] then
		return nil, "no format " .. string.format("%q", f) ..
			"; say 'format text' or 'format json'"
	end
	flush_text()
	format = f
	return true
end

local function get_format()
	return format
end

-- Runs @fn(...) with what it prints kept, not printed.  Return: the
-- text printed, the messages reported (a list), and what @fn returned;
-- an error it raised is raised again, once the streams are back.
local function capture(fn, ...)
	local saved_sink, saved_pending = sink, pending
	sink, pending = { out = {}, err = {}, stdout = io.stdout,
		stderr = io.stderr }, {}
	local r = table.pack(pcall(fn, ...))
	flush_text()
	local got = sink
	sink, pending = saved_sink, saved_pending
	if not r[1] then error(r[2], 0) end
	return table.concat(got.out), got.err, table.unpack(r, 2, r.n)
end

-- Runs @fn(...) in the text format, with no text of the caller's
-- pending: a lesson's commands print text for it to show and grade,
-- whatever the user's format.  Return: what @fn returned; an error it
-- raised is raised again, once the format is back.
local function as_text(fn, ...)
	local saved_format, saved_pending = format, pending
	format, pending = "text", {}
	local r = table.pack(pcall(fn, ...))
	format, pending = saved_format, saved_pending
	if not r[1] then error(r[2], 0) end
	return table.unpack(r, 2, r.n)
end

-- }===============================================================

return {
	out = out,
	outln = outln,
	visible = visible,
	report = report,
	bold = bold,
	show = show,
	format_table = format_table,
	write_file = write_file,
	read_file = read_file,
	result = result,
	items = items,
	done = done,
	value = value,
	event = event,
	path = path,
	changes = changes,
	lua_value = lua_value,
	set_format = set_format,
	set_timer = set_timer,
	timing = timing,
	clock = clock,
	run_time = run_time,
	format = get_format,
	capture = capture,
	as_text = as_text,
}
