-- SPDX-License-Identifier: MIT
-- chunk.lua - running Lua as the shell does ('lua CHUNK', '=EXPR', -e,
-- a script): chunks compiled as lua5.4 compiles them, run with the
-- trees in scope, their results shown on one line each, their errors
-- with a stack traceback cut where the shell's own frames begin.

local output = require "idrsh.output"
local words = require "idrsh.words"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local debug, error, getmetatable, ipairs, load, math, next, pcall, rawget,
	string, table, tostring, type, xpcall = debug, error, getmetatable,
	ipairs, load, math, next, pcall, rawget, string, table, tostring,
	type, xpcall

local result, lua_value, done = output.result, output.lua_value,
	output.done
local INTERRUPTED = words.INTERRUPTED
local update_globals = trees.update_globals

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
	if r.n == 0 then return true end
	-- In JSON: one value, or several as an array.
	return result(function()
		if r.n == 1 then return lua_value(r[1]) end
		local list = {}
		for i = 1, r.n do list[i] = lua_value(r[i]) end
		return list
	end, table.concat(parts, "\t"))
end

-- }----------------------------------------------------------------

-- {--------------------- Running chunks -----------------------------

-- xpcall's handler: the message and a traceback (lua.c's), cut where
-- the shell's own frames begin.  No traceback for an interrupt, nor
-- when memory ran out (making it would fail too).
local function shell_frame(line)
	return line and line:find("^%s*lua/idrsh/[%w_]+%.lua:")
end

local function traceback(e)
	if e == INTERRUPTED or e == "not enough memory" then return e end
	local lines = {}
	for line in debug.traceback("", 2):gmatch("[^\n]+") do
		lines[#lines + 1] = line
	end
	-- lines[1] is "stack traceback:".  A C function the shell's own
	-- frames called (its print, io.write, idrsh.run) raised it: those
	-- go, the user's frames below them stay.
	local first = 2
	if lines[2] and lines[2]:find("^%s*%[C%]:") and shell_frame(lines[3]) then
		first = 3
		while shell_frame(lines[first]) do first = first + 1 end
	end
	local keep = { lines[1] }
	for i = first, #lines do
		if shell_frame(lines[i]) or
			lines[i]:find("^%s*%[C%]: in %a* ?'?xpcall'?") then
			break
		end
		keep[#keep + 1] = lines[i]
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
	-- In JSON, what it printed is one {"text": ...} line, before its
	-- result (-e and a script have no command to end).
	done()
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

return {
	KEYWORDS = KEYWORDS,
	run_fn = run_fn,
	run_chunk = run_chunk,
	incomplete = incomplete,
}
