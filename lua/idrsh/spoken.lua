-- SPDX-License-Identifier: MIT
-- spoken.lua - answers as a person types them: numbers in words
-- ("sixty-four", "one thousand and twenty-four", "minus two") or with
-- thousands separators ("65,536"), and error names with or without
-- their E ("nospc" for ENOSPC), a count with its unit ("2 nodes", "slot
-- 2") or said as "none".  lesson.lua compares answers through it.

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, math, table = ipairs, math, table

local M = {}

local UNITS = {
	zero = 0, one = 1, two = 2, three = 3, four = 4, five = 5, six = 6,
	seven = 7, eight = 8, nine = 9, ten = 10, eleven = 11, twelve = 12,
	thirteen = 13, fourteen = 14, fifteen = 15, sixteen = 16,
	seventeen = 17, eighteen = 18, nineteen = 19,
}
local TENS = { twenty = 20, thirty = 30, forty = 40, fifty = 50,
	sixty = 60, seventy = 70, eighty = 80, ninety = 90 }
local SCALES = { thousand = 1000, million = 1000000, billion = 1000000000 }

--[[
The words, left to right: cur is the number below the last scale word
("two hundred five" of "one thousand two hundred five"), total what the
scale words before made; last, the kind of the word before, so that
"two three" or "twenty thirty" is no number.
]]
local function words(toks)
	local total, cur, last, scale = 0, 0, nil, math.huge
	for i, w in ipairs(toks) do
		local v = UNITS[w]
		if w == "a" and (toks[i + 1] == "hundred" or SCALES[toks[i + 1]]) then
			v = 1
		end
		if v then
			if last == "unit" or (last == "ten" and (v == 0 or v >= 10)) or
					(v == 0 and #toks > 1) then
				return nil
			end
			cur, last = cur + v, "unit"
		elseif TENS[w] then
			if last == "unit" or last == "ten" then return nil end
			cur, last = cur + TENS[w], "ten"
		elseif w == "hundred" then
			if last == "hundred" or cur % 100 ~= cur then return nil end
			cur, last = (cur == 0 and 1 or cur) * 100, "hundred"
		elseif SCALES[w] then
			local s = SCALES[w]
			if s >= scale then return nil end
			total, cur, last, scale = total + (cur == 0 and 1 or cur) * s, 0,
				"scale", s
		else
			return nil
		end
	end
	return total + cur
end

--- M.number(s) -> the integer @s (lower case, trimmed) says in words
-- or with thousands separators; nil when it says none.
function M.number(s)
	local sign, head, tail = s:match("^([-+]?)(%d%d?%d?)(,[%d,]+)$")
	if head then
		-- "65,536": groups of three after the first.
		if tail:gsub(",%d%d%d", "") ~= "" or #tail > 20 then return nil end
		return math.tointeger(((sign .. head .. tail):gsub(",", "")) + 0)
	end
	local toks, neg = {}, false
	for w in s:gsub("[-,]", " "):gmatch("%S+") do
		if w ~= "and" then toks[#toks + 1] = w end
	end
	if toks[1] == "minus" or toks[1] == "negative" then
		neg = true
		table.remove(toks, 1)
	end
	if #toks == 0 then return nil end
	local n = words(toks)
	return n and (neg and -n or n)
end

-- The error names a lesson's answer may be (the library's, and their
-- neighbours): with or without the E, with or without a minus.
local ERRNO = {}
for name in ([[enospc enoent eagain enomem einval ebusy eexist erange
	eoverflow eperm efault enodata enotsup eopnotsupp eintr ecanceled
	edeadlk enxio echild ebadf estale]]):gmatch("%S+") do
	ERRNO[name] = true
end

--- M.errno(s) -> the error name @s (lower case) says, as "enospc", or
-- nil: "-ENOSPC", "enospc", "nospc" and "-nospc" all say enospc.
function M.errno(s)
	local e = s:gsub("^%-", "")
	if ERRNO[e] then return e end
	if ERRNO["e" .. e] then return "e" .. e end
end

-- The words a count comes with, before it ("slot 2") or after it
-- ("three levels", "3856 bytes").
local UNIT = {}
for w in ([[slot slots level levels node nodes byte bytes id ids entry
	entries]]):gmatch("%S+") do
	UNIT[w] = true
end

--- M.unitless(s) -> @s (lower case, trimmed) without a unit word before
-- or after it: "slot 2" and "2 slots" are "2".
function M.unitless(s)
	local unit, rest = s:match("^(%S+)%s+(.-)$")
	if unit and UNIT[unit] then return rest end
	local head, last = s:match("^(.-)%s+(%S+)$")
	if last and UNIT[last] then return head end
	return s
end

--- M.ZERO[s]: true when @s (unitless) says a count of 0.
M.ZERO = { none = true, no = true, nothing = true, zero = true }

--- M.NO_ERROR[s]: true when @s says that no error came.
M.NO_ERROR = { none = true, nothing = true, ["no error"] = true,
	["no errors"] = true, ["no errno"] = true }

return M
