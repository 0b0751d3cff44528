-- SPDX-License-Identifier: MIT
-- output.lua - what the shell prints: results on stdout, messages on
-- stderr as "idrsh: WHERE: message", values as the shell shows them,
-- and files written whole.

local sh = require "idrsh.state"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local io, ipairs, pairs, select, string, table, tostring, type = io,
	ipairs, pairs, select, string, table, tostring, type

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
local function report(where, msg)
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
}
