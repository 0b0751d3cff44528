-- SPDX-License-Identifier: MIT
-- tagged.lua - the commands of generation-tagged IDs: alloc_tagged,
-- find_tagged, remove_tagged, check, untag.

local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local string, type = string, type

local result = output.result
local failure = words.failure
local command = registry.command
local call, on_id, print_value, alloc_with = trees.call, trees.on_id,
	trees.print_value, trees.alloc_with

-- {========================= Tagged IDs ===========================

command {
	name = "alloc_tagged", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "allocate on a tagged tree; print the tagged ID",
	text = "idr_alloc_tagged(): the tagged ID is (generation << BITS) | ID; the\n" ..
		"generation of a slot advances each time its ID is freed.",
	example = "new conns --tagged 16\nalloc_tagged conn",
	run = function(args) return alloc_with("alloc_tagged", args) end,
}

command {
	name = "find_tagged", args = "TAGGED", min = 1,
	help = "print the value at a live tagged ID",
	text = "idr_find_tagged(): a stale tagged ID finds nothing (ESTALE), nor\n" ..
		"does one whose slot is free (ENOENT).",
	example = "new conns --tagged 16\nalloc_tagged a\nremove_tagged 0\nalloc_tagged conn\nfind_tagged 65536",
	run = on_id("tagged", "TAGGED", print_value("find_tagged")),
}

command {
	name = "remove_tagged", args = "TAGGED", min = 1,
	help = "free a live tagged ID; print its value",
	text = "idr_remove_tagged(): a stale tagged ID removes nothing (ESTALE).",
	example = "new conns --tagged 16\nalloc_tagged a\nremove_tagged 0\nalloc_tagged conn\nremove_tagged 65536",
	run = on_id("tagged", "TAGGED", print_value("remove_tagged")),
}

-- What check says of a tagged ID: { state, id, gen, and the
-- generation its slot is at and whether it is free, when known }.
local function tag_facts(t, tid, state)
	local id, gen = call(t, "untag", tid)
	local f = { state = state, id = id, gen = gen }
	local p = call(t, "path", tid)
	local tagged = t:info().tagged
	if type(p) == "table" and p.gen and tagged then
		f.slot_gen = p.gen % (1 << tagged.gen_bits)
		f.slot_free = p["end"] ~= "found"
	end
	return f
end

local CHECK_ERRNO = { live = "", stale = " (ESTALE)", free = " (ENOENT)" }

-- Why a tagged ID is live or stale, from its slot's generation.
local function tag_reason(f)
	local text = string.format("%s: id %d gen %d", f.state, f.id, f.gen)
	if f.slot_gen then
		text = text .. string.format("; %s gen %d", f.slot_free and
			"the slot is free, at" or "the slot is at", f.slot_gen)
	end
	return text .. CHECK_ERRNO[f.state]
end

-- A question, not an action: "stale" is an answer, and succeeds.
command {
	name = "check", args = "TAGGED", min = 1,
	help = "say whether a tagged ID is live or stale, and why",
	text = "idr_tag_check(): prints 'live', 'stale' or 'free', the tag's ID and\n" ..
		"generation, and the generation its slot is at now.",
	example = "new conns --tagged 16\nalloc_tagged a\nremove_tagged 0\nalloc_tagged conn\ncheck 65536",
	run = on_id("tagged", "TAGGED", function(t, id)
		local ok, msg, errno = call(t, "check", id)
		local state = ok and "live" or errno == "ESTALE" and "stale" or
			errno == "ENOENT" and "free"
		if not state then return nil, failure(msg, errno) end
		local f = tag_facts(t, id, state)
		return result(f, tag_reason(f))
	end),
}

command {
	name = "untag", args = "TAGGED", min = 1,
	help = "split a tagged ID into its ID and generation",
	example = "new conns --tagged 16\nuntag 65541",
	run = on_id("tagged", "TAGGED", function(t, id)
		local plain, gen = call(t, "untag", id)
		if plain == nil then return nil, failure(gen) end
		return result({ id = plain, gen = gen },
			string.format("id %d gen %d", plain, gen))
	end),
}

-- }===============================================================
