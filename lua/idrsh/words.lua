-- SPDX-License-Identifier: MIT
-- words.lua - the words of a command line and the errors made of them:
-- splitting a line into words ("..." and '...' quote), numbers as the
-- commands take them, a word quoted back in a message, and the messages
-- of the library's failures.
--
-- Conventions of the shell: a handler returns true, false (a failure
-- already reported), "quit", or nil and a message, printed as
-- "CMD: message".  Library failures (nil, msg, errno) end in
-- " (ERRNO)".  Nothing is changed before every argument has been
-- checked.

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, math, string, table, tonumber, tostring = ipairs, math,
	string, table, tonumber, tostring

local INT_MAX = 0x7fffffff
local INT_MIN = -0x80000000
local U32_MAX = 0xffffffff
-- What src/idrsh.c's hook raises on Ctrl-C: no command may swallow it.
local INTERRUPTED = "interrupted!"

-- {========================== Parsing =============================

-- Splits a line into words; "..." (with \ escapes) and '...' quote.
local ESCAPES = { n = "\n", t = "\t", r = "\r", ["\\"] = "\\", ['"'] = '"' }

-- The byte an escape after the \ at @i of @line stands for, and the
-- index after it: \ddd (decimal, as list prints a byte) and \xHH (as a
-- save file writes one), so that what is printed can be typed back;
-- else nil (the backslash stands for itself, as in sh).
local function byte_escape(line, i)
	local d = line:match("^%d%d?%d?", i + 1)
	if d and tonumber(d) <= 255 then
		return string.char(tonumber(d)), i + 1 + #d
	end
	local h = line:match("^x(%x%x)", i + 1)
	if h then return string.char(tonumber(h, 16)), i + 4 end
end

-- The quoted text that starts at @i, after the quote @q: the text and
-- the index after its closing quote, or nil and why.
local function unquote(line, i, q)
	local buf = {}
	while true do
		local c = line:sub(i, i)
		if c == "" then
			return nil, "unterminated " .. (q == '"' and "double" or
				"single") .. " quote"
		elseif c == q then
			return table.concat(buf), i + 1
		elseif c == "\\" and q == '"' and line:sub(i + 1, i + 1) ~= "" then
			local e, after = line:sub(i + 1, i + 1), i + 2
			local b, j = byte_escape(line, i)
			if b then
				buf[#buf + 1], after = b, j
			else
				buf[#buf + 1] = ESCAPES[e] or ("\\" .. e)
			end
			i = after
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
				local s, j = unquote(line, i + 1, c)
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

-- {=========================== Errors =============================

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

-- A command's failure as reported: "NAME: why", but a usage line, or the
-- error of '=' or of an empty name, as it is.
local function failure_text(name, err)
	local bare = name == "=" or name == "" or err:find("^usage: ")
	return (bare and "" or name .. ": ") .. err
end

-- }===============================================================

return {
	INT_MAX = INT_MAX,
	INT_MIN = INT_MIN,
	U32_MAX = U32_MAX,
	INTERRUPTED = INTERRUPTED,
	split = split,
	quoted = quoted,
	number = number,
	numbers = numbers,
	failure = failure,
	range_text = range_text,
	failure_text = failure_text,
}
