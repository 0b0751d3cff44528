-- entry.lua - a leaf slot as the dumps print it: "ID:value", a tagged
-- slot's generation after it ("@g3"), an IDA bitmap as "first..last:N"
-- (N IDs taken).  A value prints as the shell's 'list' shows it: a
-- number plain (a float keeps its ".0"), a string bare when it needs no
-- quotes, else in double quotes with \\ \" \n \t and \ddd escapes (a
-- control byte, or one that is not part of valid UTF-8), any
-- other value by its type, a reserved ID as (reserved).  A string is
-- cut to 40 characters ("..." after it, never inside a UTF-8
-- character), so that its line fits 80 columns at any depth.
local _, _, _, view = ...

local G = view "geometry"

local E = {}

local PRINT_MAX = 40

local byte, sub = string.byte, string.sub

local function needs_quotes(s)
	-- Quoted, "(reserved)" cannot pass for a reserved ID's mark.
	return s == "" or s:find("[\0-\32\127\"'\\]") ~= nil or
		byte(s, 1) == 40 or	-- "("
		not utf8.len(s)
end

-- Byte @c inside double quotes.
local function quoted_char(c)
	if c == 92 or c == 34 then return "\\" .. string.char(c) end
	if c == 10 then return "\\n" end
	if c == 9 then return "\\t" end
	-- A byte of 128 or more is here only when no valid UTF-8 holds it.
	if c < 32 or c >= 127 then return ("\\%03d"):format(c) end
	return string.char(c)
end

-- The bytes of the UTF-8 character its lead byte @c begins, or 1.
local function char_len(c)
	if c >= 0xf0 then return 4 end
	if c >= 0xe0 then return 3 end
	if c >= 0xc0 then return 2 end
	return 1
end

--[[
@s as pieces to print: each valid UTF-8 character as it is, each other
byte as quoted_char gives it; a stray continuation byte after a valid
character is that byte alone, as utf8.len finds it (the shell's show,
lua/idrsh/output.lua, escapes the same bytes).  The shell's show and
this stay two functions: the presentation package cannot reach the
shell, and they differ on purpose: a dump cuts a value to 40
characters and names a non-string value by its type; 'list' shows
the value whole, as tostring gives it.
]]
local function pieces(s)
	local out, i = {}, 1
	while i <= #s do
		local step = char_len(byte(s, i))
		local piece = sub(s, i, i + step - 1)
		if step == 1 or utf8.len(piece) ~= 1 then
			piece, step = quoted_char(byte(s, i)), 1
		end
		out[#out + 1] = piece
		i = i + step
	end
	return out
end

local function quoted(s)
	local p = pieces(s)
	local total = 2 + #table.concat(p)
	local out, n = { '"' }, 1
	for _, piece in ipairs(p) do
		-- Too long: stop where the quote and "..." still fit.
		if total > PRINT_MAX and n + #piece + 4 > PRINT_MAX then
			out[#out + 1] = '"...'
			return table.concat(out)
		end
		out[#out + 1] = piece
		n = n + #piece
	end
	out[#out + 1] = '"'
	return table.concat(out)
end

local function string_text(s)
	if needs_quotes(s) then return quoted(s) end
	if #s <= PRINT_MAX then return s end
	local n = PRINT_MAX - 3
	while n > 0 and byte(s, n + 1) & 0xc0 == 0x80 do n = n - 1 end
	return sub(s, 1, n) .. "..."
end

--- E.value_text(v): a value as the dumps show it.
function E.value_text(v)
	local ty = math.type(v)
	if ty == "integer" then return tostring(v) end
	if ty == "float" then
		local s = ("%.14g"):format(v)
		if s:find("^[-0-9]+$") then s = s .. ".0" end
		return s
	end
	if type(v) == "string" then return string_text(v) end
	if type(v) == "boolean" then return tostring(v) end
	return type(v)
end

--- E.text(s, tagged): leaf slot @s (a table from t:slot()) as
-- "ID:value", in an IDA "first..last:N"; @tagged adds the slot's
-- generation, "@gN".
function E.text(s, tagged)
	if s.bits then
		return ("%d..%d:%d"):format(s.first, s.first + G.CHUNK - 1, s.bits)
	end
	local v = s.retired and "(retired)" or s.value == nil and
		"(reserved)" or E.value_text(s.value)
	local text = s.first .. ":" .. v
	if tagged then text = text .. "@g" .. s.gen end
	return text
end

return E
