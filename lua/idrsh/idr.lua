-- SPDX-License-Identifier: MIT
-- idr.lua - the commands of today's kernel API (idr_alloc, idr_find,
-- idr_remove, ...): alloc, alloc_cyclic, alloc_u32, find, remove,
-- replace, next, list, cursor, count, empty, destroy.

local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local error, pcall, string, type = error, pcall, string, type

local show, result, items, value = output.show, output.result,
	output.items, output.value
local number, numbers, failure = words.number, words.numbers, words.failure
local U32_MAX = words.U32_MAX
local command, usage = registry.command, registry.usage
local tree, call, allocated, print_entry, on_id, absent, print_value,
	print_result, kind_of, alloc_with, id_max, entry, entry_text =
	trees.tree, trees.call, trees.allocated, trees.print_entry,
	trees.on_id, trees.absent, trees.print_value, trees.print_result,
	trees.kind_of, trees.alloc_with, trees.id_max, trees.entry,
	trees.entry_text
local search_from = trees.search_from

-- {=========================== The idr ============================

command {
	name = "alloc", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "store VALUE at the lowest free ID in [START, END); print the ID",
	text = "idr_alloc(): START defaults to 0; below the tree's base the\n" ..
		"search starts at the base.  END <= 0 or absent means no limit.\n" ..
		"Fails with ENOSPC when the range is full.\n" ..
		"A lone ID makes packed nodes: a range of one (alloc v 7000 7001),\n" ..
		"or a START that is free with START-1 not taken: see 'lesson packed'.",
	example = "alloc eth0 5 30",
	run = function(args) return alloc_with("alloc", args) end,
}

command {
	name = "alloc_cyclic", args = "VALUE [START [END]]", min = 1, max = 3,
	help = "like alloc, but search on from the last ID handed out",
	text = "idr_alloc_cyclic(): IDs are not reused at once after a remove,\n" ..
		"as PIDs are not; the search wraps to START when it reaches END.",
	example = "alloc_cyclic job 1 100",
	run = function(args) return alloc_with("alloc_cyclic", args) end,
}

command {
	name = "alloc_u32", args = "VALUE START MAX", min = 3,
	help = "store VALUE at the lowest free ID in [START, MAX]; print the ID",
	text = "idr_alloc_u32(): MAX is inclusive and may reach 4294967295.",
	example = "alloc_u32 dev 10 20",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		local n, e = numbers(args, { 2, "START", U32_MAX },
			{ 3, "MAX", U32_MAX })
		if not n then return nil, e end
		local id, msg, errno = call(t, "alloc_u32", args[1], n[1], n[2])
		return allocated(id, msg, errno,
			string.format("in [%d, %d]", search_from(t, n[1]), n[2]))
	end,
}

command {
	name = "find", args = "ID", min = 1,
	help = "print the value stored at ID",
	text = "idr_find(): fails with ENOENT when ID is not allocated.  A\n" ..
		"reserved ID (allocated with no value: lua t:alloc(nil)) prints\n" ..
		"(reserved), though idr_find() gives NULL for it as for a free one.",
	example = "alloc_many 6\nfind 5",
	run = on_id("idr", "ID", print_value("find")),
}

command {
	name = "remove", args = "ID", min = 1,
	help = "free ID and print the value it held",
	text = "idr_remove(): the nodes only ID kept alive are freed.  A\n" ..
		"reserved ID prints (reserved); a free one fails with ENOENT.",
	example = "alloc_many 6\nremove 5",
	run = on_id("idr", "ID", print_value("remove")),
}

command {
	name = "replace", args = "ID VALUE", min = 2,
	help = "store VALUE at ID; print the old value",
	text = "idr_replace(): ID must be allocated (else ENOENT).",
	example = "alloc_many 6\nreplace 5 eth1",
	run = on_id("idr", "ID", function(t, id, args)
		local old, msg, errno = call(t, "replace", id, args[2])
		if old == nil and msg then return absent(id, msg, errno) end
		return result(value(old), show(old))
	end),
}

command {
	name = "next", args = "ID", min = 1,
	help = "print the first entry at or above ID",
	text = "idr_get_next(): prints 'ID VALUE'; ENOENT when there is none.",
	example = "alloc eth0 10\nnext 0",
	run = on_id("idr", "ID", function(t, id)
		local nid, v = call(t, "get_next", id)
		if nid == nil and v ~= nil then return nil, v end
		if type(nid) ~= "number" then
			return nil, failure("no entry at or above " .. id, "ENOENT")
		end
		return print_entry(nid, v)
	end),
}

-- list's arguments: { first, last, count }, each optional, or nil, why.
local function list_args(args, t)
	local o, ids, i, idmax = {}, {}, 1, id_max("any", t)
	while args[i] do
		local a, n, err = args[i]
		if a == "--count" and args[i + 1] and not o.count then
			n, err = number(args[i + 1], "--count N")
			o.count, i = n, i + 2
		elseif (a:sub(1, 1) ~= "-" or a:find("^%-%d")) and #ids < 2 then
			n, err = number(a, #ids == 0 and "A" or "B", idmax)
			ids[#ids + 1], i = n, i + 1
		else
			return nil, usage("list")
		end
		if not n then return nil, err end
	end
	if #ids == 1 then return nil, usage("list") end
	if ids[2] and ids[2] < ids[1] then
		return nil, string.format("bad range %d %d: A must not be " ..
			"above B", ids[1], ids[2])
	end
	o.first, o.last = ids[1], ids[2]
	return o
end

-- How list shows an ID of @t: a tagged tree's as its tagged ID, as
-- alloc_tagged gave it, and true; else as it is.
local function shown_id(t)
	if not t:info().tagged then return function(id) return id end end
	return function(id) return t:tagged_id(id) end, true
end

-- Runs @fn() with @t's trace function off: list is no operation of the
-- tree's, and the idr_get_next() its steps stand for (one a leaf) would
-- fill the views with operations no command asked for.
local function untraced(t, fn)
	local prev = t:trace(nil)
	local ok, why = pcall(fn)
	t:trace(prev)
	if not ok then error(why, 0) end
end

command {
	name = "list", args = "[A B] [--count N]", max = 4,
	help = "print the entries as 'ID VALUE' (an IDA's IDs), in ID order",
	text = "idr_for_each(), and the reserved IDs it skips, as\n" ..
		"'ID (reserved)'; on an IDA, one ID a line.  A string value that\n" ..
		"starts with ( is quoted, so that it cannot pass for one.  On a\n" ..
		"tagged tree each ID is tagged, as alloc_tagged printed it, in\n" ..
		"slot order, and A B bound the tagged IDs.  The walk is not\n" ..
		"traced: trace, explain and step show nothing for it.\n" ..
		"  A B          only the IDs from A to B, both included\n" ..
		"  --count N    only the first N entries (of those)",
	example = "list 100 200 --count 10",
	complete = function(_, before)
		return before:find("%s%-%-count%s") and {} or { "--count" }
	end,
	run = function(args)
		local t, err = tree("any")
		if not t then return nil, err end
		local o, e = list_args(args, t)
		if not o then return nil, e end
		local ida = kind_of(t) == "ida"
		local step, state = call(t, "pairs",
			not ida and { reserved = true } or nil)
		if not step then return nil, state end
		local shown, tagged = shown_id(t)
		-- The walk starts after its control value: the ID before A.  A
		-- tagged tree's A and B bound the tagged IDs: it walks them all.
		local from = not tagged and o.first and o.first > 0 and
			o.first - 1 or nil
		local list, n = items(), 0
		untraced(t, function()
			for raw, v in step, state, from do
				local id = shown(raw)
				if not tagged and id > (o.last or id) or
					n >= (o.count or n + 1) then
					break
				end
				if id >= (o.first or id) and id <= (o.last or id) then
					n = n + 1
					if ida then list:add(id, id) else
						list:add(entry, entry_text, id, v) end
				end
			end
		end)
		return list:close()
	end,
}

command {
	name = "cursor", args = "[N]", max = 1,
	help = "print alloc_cyclic's cursor, or set it to N",
	text = "idr_get_cursor(), idr_set_cursor(): alloc_cyclic searches on\n" ..
		"from the cursor, the ID after the last one it handed out.",
	example = "cursor 100",
	run = function(args)
		local t, err = tree("idr")
		if not t then return nil, err end
		if not args[1] then return result(t:get_cursor(), t:get_cursor()) end
		local n, e = number(args[1], "N", U32_MAX)
		if not n then return nil, e end
		local ok, msg = call(t, "set_cursor", n)
		if ok == nil and msg then return nil, msg end
		return true
	end,
}

command {
	name = "count",
	help = "print how many IDs are allocated",
	example = "count",
	run = print_result("count"),
}

command {
	name = "empty",
	help = "print yes if no ID is allocated, else no",
	text = "idr_is_empty().",
	example = "empty",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local e, msg = call(t, "is_empty")
		if e == nil then return nil, msg end
		return result(e, e and "yes" or "no")
	end,
}

-- The binding's destroy() ends the object; the shell's is clear(): the
-- same object, so its cursor, its tagging's generations (old tags stay
-- stale) and the handles and marks taken from it live on.
command {
	name = "destroy",
	help = "free every ID and node of the current tree",
	text = "idr_destroy(): the tree stays usable, with its base, its\n" ..
		"cursor and its tagging (a tag made stale stays stale).",
	example = "destroy",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		local ok, msg = call(t, "clear")
		if ok == nil and msg then return nil, msg end
		return true
	end,
}

-- }===============================================================
