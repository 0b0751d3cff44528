-- SPDX-License-Identifier: MIT
-- ida.lua - the commands of the IDA: ida_alloc, ida_free, ida_exists.

local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local string = string

local result = output.result
local numbers, INT_MAX = words.numbers, words.INT_MAX
local command = registry.command
local tree, call, allocated, on_id, absent = trees.tree, trees.call,
	trees.allocated, trees.on_id, trees.absent

-- {============================ IDA ===============================

command {
	name = "ida_alloc", args = "[MIN [MAX]]", max = 2,
	help = "allocate the lowest free ID in [MIN, MAX] of an IDA",
	text = "ida_alloc_range(): MAX is inclusive.",
	example = "new ids --ida\nida_alloc 1 255",
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
	example = "new ids --ida\nida_alloc 3 3\nida_free 3",
	run = on_id("ida", "ID", function(a, id)
		local ok, msg, errno = call(a, "free", id)
		if not ok then return absent(id, msg, errno) end
		return true
	end),
}

command {
	name = "ida_exists", args = "ID", min = 1,
	help = "print yes if ID is allocated in the IDA, else no",
	example = "new ids --ida\nida_alloc 3 3\nida_exists 3",
	run = on_id("ida", "ID", function(a, id)
		local yes = call(a, "exists", id) and true or false
		return result(yes, yes and "yes" or "no")
	end),
}

-- }===============================================================
