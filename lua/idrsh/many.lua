-- SPDX-License-Identifier: MIT
-- many.lua - alloc_many, which lessons and quizzes build their trees
-- with: N IDs, all or none.

local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local string, table, tostring = string, table, tostring

local result = output.result
local numbers, failure, range_text = words.numbers, words.failure,
	words.range_text
local command = registry.command
local all_or_none, call, current = trees.all_or_none, trees.call,
	trees.current
local search_from = trees.search_from

-- {========================== alloc_many ===========================

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

-- Allocates @n[1] IDs from @n[2] up into @ids.  Return: true, or nil
-- and why the one that failed did.
local function alloc_all(t, kind, n, ids, poll)
	for _ = 1, n[1] do
		local id, msg, errno
		if kind == "ida" then
			id, msg, errno = call(t, "alloc", n[2])
		else
			id, msg, errno = call(t, "alloc", "v", n[2])
		end
		if id == nil then
			return nil, many_failed(msg, errno, search_from(t, n[2]),
				#ids, n[1])
		end
		ids[#ids + 1] = id
		poll()
	end
	return true
end

command {
	name = "alloc_many", args = "N [START]", min = 1, max = 2,
	help = "allocate N IDs, all or none, from START up; print them",
	text = "On an idr each ID holds the value 'v' (alloc v START); on an\n" ..
		"IDA, ida_alloc START.  Prints the IDs as runs: 0..63 70.  At\n" ..
		"most " .. FILL_MAX .. " at a time.  All or none: if one fails\n" ..
		"(ENOSPC, or ENOMEM after 'fail N') or Ctrl-C stops it, those\n" ..
		"before are given back and the tree is as it was, a tagged one's\n" ..
		"generations too (a tagged tree keeps the leaves it made, their\n" ..
		"counters at the seed: stats and save show them).",
	example = "alloc_many 64",
	run = function(args)
		local t, kind = current()
		if not t then return nil, kind end
		local n, e = numbers(args, { 1, "N", FILL_MAX }, { 2, "START" })
		if not n then return nil, e end
		local ids = {}
		-- Ctrl-C gives the IDs back too.
		local ok, why = all_or_none(function(poll)
			return alloc_all(t, kind, n, ids, poll)
		end, function() give_back(t, kind, ids) end)
		if not ok then return nil, why end
		table.sort(ids)
		-- In JSON, the IDs: an array of numbers, ascending.
		return result(ids, #ids == 0 and "0 IDs" or
			#ids .. (#ids == 1 and " ID: " or " IDs: ") .. runs(ids))
	end,
}

-- }===============================================================
