-- SPDX-License-Identifier: MIT
-- legacy.lua - the commands of the 2004 API of the seed article:
-- pre_get, get_new, get_new_above; and of idr_preload: preload,
-- preload_end.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

local result = output.result
local number, failure, range_text = words.number, words.failure,
	words.range_text
local command = registry.command
local tree, call, allocated = trees.tree, trees.call, trees.allocated
local search_from = trees.search_from

-- {======================== The 2004 API ==========================

command {
	name = "pre_get",
	help = "fill the tree's node cache (the 2004 API); print its size",
	text = "idr_pre_get(): get_new and get_new_above take nodes only from\n" ..
		"this cache, and fail with EAGAIN when it runs short.  Prints how\n" ..
		"many nodes the cache holds now (stats says it too).",
	example = "pre_get",
	run = function()
		local t, err = tree("idr")
		if not t then return nil, err end
		local ok, msg, errno = call(t, "pre_get")
		if not ok then return nil, failure(msg, errno) end
		local cached = t:cache_count()
		return result(cached, "cached nodes: " .. cached)
	end,
}

-- idr_preload() is the C library's, per thread, not a tree's: the C
-- side hands the shell the two calls (config.preload, .preload_end).
command {
	name = "preload",
	help = "fill this thread's node cache for one allocation",
	text = "idr_preload(): the next allocation takes its nodes from the\n" ..
		"thread's cache, not malloc, until preload_end; 'stats' shows\n" ..
		"the nodes preloaded.",
	example = "preload",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		sh.config.preload()
		-- The thread's, which any tree's stats tell: an empty one's
		-- cost nothing to read, where the current tree's walk it.
		local preloaded = idr.new():stats().preloaded
		return result(preloaded, "preloaded nodes: " .. preloaded)
	end,
}

command {
	name = "preload_end",
	help = "end a preload section; free the nodes it did not use",
	text = "idr_preload_end().",
	example = "preload_end",
	run = function()
		sh.config.preload_end()
		return true
	end,
}

command {
	name = "get_new", args = "VALUE", min = 1,
	help = "store VALUE at the lowest free ID (2004 API)",
	text = "idr_get_new(): fails with EAGAIN when the node cache is short;\n" ..
		"run pre_get and try again.",
	example = "pre_get\nget_new eth0",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local id, msg, errno = call(t, "get_new", args[1])
		return allocated(id, msg, errno, "at all")
	end,
}

command {
	name = "get_new_above", args = "VALUE START", min = 2,
	help = "store VALUE at the lowest free ID >= START (2004 API)",
	text = "idr_get_new_above(): as get_new.",
	example = "pre_get\nget_new_above eth0 100",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local start, e = number(args[2], "START")
		if not start then return nil, e end
		local id, msg, errno = call(t, "get_new_above", args[1], start)
		return allocated(id, msg, errno, range_text(search_from(t, start)))
	end,
}

-- }===============================================================
