-- SPDX-License-Identifier: MIT
-- json.lua - JSON text from Lua values: the project's one encoder, for
-- idrsh --json and the replay page.  It wraps dkjson (Debian's
-- lua-dkjson, one pure-Lua file found by require), loaded on first use
-- so that require "idr" works without it until JSON is asked for.
--
--   json.encode(v) -> text, one line
--   json.script(v) -> the same, also safe inside an HTML <script>
--                     element: <, > and & as \u escapes
--   json.object(t) -> t, marked to be an object ({}) even when empty
--   json.null      -> a value that encodes as null
--
-- What JSON gets, and why:
--   integers       exactly, as Lua prints them (64 bits: a reader that
--                  keeps numbers as doubles, as JavaScript does, loses
--                  precision above 2^53)
--   floats         the shortest text that reads back as the same
--                  double (%.17g at most), ".0" when whole; NaN and
--                  infinities null
--   tables         keys 1..n (or none): an array; else an object, its
--                  integer keys written out as text, every key sorted,
--                  so that the same value gives the same text (a key
--                  of another type, or two that read the same, raise)
--   strings        valid UTF-8 as it is, control characters escaped; a
--                  byte that is not part of valid UTF-8 (values are any
--                  bytes) as \udcXX, XX the byte: the lone surrogates
--                  of Python's "surrogateescape" (PEP 383), which no
--                  valid UTF-8 text contains, so a reader gets the
--                  bytes back exactly (Python:
--                  s.encode("utf-8", "surrogateescape")); a reader that
--                  rejects lone surrogates sees U+FFFD (jq does).
-- The text itself is always ASCII or valid UTF-8.
local idr = ...

local require, error, getmetatable, pairs, pcall, setmetatable, tonumber,
	type = require, error, getmetatable, pairs, pcall, setmetatable,
	tonumber, type
local concat, sort, format, utf8_len = table.concat, table.sort,
	string.format, utf8.len
local math_type, huge = math.type, math.huge

local M = {}

-- dkjson writes a value with a __tojson metamethod as that text, and
-- an empty table whose __jsontype is "object" as {}.
M.null = setmetatable({}, { __tojson = function() return "null" end })
local OBJECT = { __jsontype = "object" }

function M.object(t)
	return setmetatable(t, OBJECT)
end

local dkjson
local function encoder()
	if not dkjson then
		local ok, mod = pcall(require, "dkjson")
		if not ok then
			error("JSON needs the Lua module dkjson (Debian: " ..
				"apt install lua-dkjson)", 0)
		end
		dkjson = mod
	end
	return dkjson
end

-- A float as the shortest "%.Ng" text that reads back as the same
-- double (N at most 17), with ".0" when it looks whole, as Lua writes
-- it: dkjson's own is tostring's 14 digits, which lose bits.
local function float_text(x)
	local text
	for digits = 15, 17 do
		text = format("%." .. digits .. "g", x)
		if tonumber(text) == x then break end
	end
	if not text:find("[.e]") then text = text .. ".0" end
	return text
end

local function raw(text)
	return setmetatable({}, { __tojson = function() return text end })
end

-- An object's key @k as JSON text: a string, or an integer written out;
-- an error for any other key, or for one that @c, the object so far,
-- has already.
local function key_text(k, c)
	if math_type(k) == "integer" then k = format("%d", k) end
	if type(k) ~= "string" then
		error(format("a JSON object's keys are strings or integers, " ..
			"not %s", math_type(k) or type(k)), 0)
	end
	if c[k] ~= nil then error(format("the JSON key %q twice", k), 0) end
	return k
end

-- Whether dkjson writes @t as an array (its isarray()): keys positive
-- integers, with a few holes at most (written null), and maybe a count
-- n, as table.pack() sets (an integer: the copy a float n becomes is no
-- number to dkjson).
local function is_array(t)
	local count, max, n = 0, 0, 0
	for k, v in pairs(t) do
		if k == "n" and math_type(v) == "integer" then
			n = v
		elseif math_type(k) ~= "integer" or k < 1 then
			return false
		else
			count = count + 1
			if k > max then max = k end
		end
	end
	return max <= 10 or max <= n or max <= 2 * count
end

-- @v for dkjson: tables copied with their finite floats as float_text
-- (NaN and infinities stay, for dkjson's null); and every string key,
-- sorted, for its "keyorder".  A cycle raises, as dkjson would.
local function prepared(v)
	local keys, on_path = {}, {}
	local function copy(x)
		if math_type(x) == "float" and x == x and x ~= huge and x ~= -huge
		then
			return raw(float_text(x))
		elseif type(x) ~= "table" or getmetatable(x) and
			getmetatable(x).__tojson then
			return x
		end
		if on_path[x] then error("reference cycle", 0) end
		on_path[x] = true
		local c, array = {}, is_array(x)
		for k, y in pairs(x) do
			-- An object's keys are all text, sorted: its integer keys
			-- too, which dkjson would write after the sorted ones, and
			-- twice over when a string key spells the same.
			if not array then k = key_text(k, c) end
			if type(k) == "string" then keys[k] = true end
			c[k] = copy(y)
		end
		on_path[x] = nil
		return setmetatable(c, getmetatable(x))
	end
	local c = copy(v)
	local order = {}
	for k in pairs(keys) do order[#order + 1] = k end
	sort(order)
	return c, order
end

-- @text with each byte that is not part of valid UTF-8 as \udcXX.
-- Such bytes are at least 0x80, so they only occur inside strings.
local function escape_bytes(text)
	if utf8_len(text) then return text end
	local out, i = {}, 1
	while true do
		local ok, bad = utf8_len(text, i)
		if ok then break end
		out[#out + 1] = text:sub(i, bad - 1)
		out[#out + 1] = format("\\udc%02x", text:byte(bad))
		i = bad + 1
	end
	out[#out + 1] = text:sub(i)
	return concat(out)
end

function M.encode(v)
	local c, order = prepared(v)
	local text = encoder().encode(c, { keyorder = order })
	return escape_bytes(text)
end

local SCRIPT_ESC = { ["<"] = "\\u003c", [">"] = "\\u003e",
	["&"] = "\\u0026" }

-- <, > and & are only ever inside JSON strings, where \u escapes mean
-- the same.
function M.script(v)
	return (M.encode(v):gsub("[<>&]", SCRIPT_ESC))
end

-- The module's users (idrsh, scripts) reach it as idr.json.
idr.json = M

return M
