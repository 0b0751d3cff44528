-- SPDX-License-Identifier: MIT
-- save.lua - the commands that keep a session and bring IDs in: save,
-- load, import.  The file format is the module's (idr.save, idr.load:
-- lua/view/save.lua and load.lua); here are the session's side of it
-- (which trees, the current one, names already taken) and import's
-- lists of IDs.  None is allowed in a lesson (lessons.lua's allowlist):
-- they touch files.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local io, ipairs, pcall, rawget, table, tonumber, tostring =
	io, ipairs, pcall, rawget, table, tonumber, tostring

local report, read_file, result = output.report, output.read_file,
	output.result
local number, quoted, failure, INT_MAX, U32_MAX = words.number,
	words.quoted, words.failure, words.INT_MAX, words.U32_MAX
local command, usage = registry.command, registry.usage
local info_of, kind_of, keep, current, tree_names = trees.info_of,
	trees.kind_of, trees.keep, trees.current, trees.tree_names
local all_or_none = trees.all_or_none

-- An import file holds at most this many bytes.
local IMPORT_BYTES_MAX = 64 * 1024 * 1024

-- {======================== Save and load =========================

local function plural(n, word)
	return ("%d %s%s"):format(n, word, n == 1 and "" or "s")
end

-- The trees to save: all (NAME nil) or the one named; destroyed ones
-- (from Lua) cannot be.  Return: the set, and the names.
local function to_save(name)
	local names = name and { name } or tree_names()
	local set = {}
	for _, n in ipairs(names) do
		local obj, err = trees.named(n)
		if not obj then return nil, err end
		if info_of(obj).destroyed then
			return nil, "tree " .. quoted(n) .. " is destroyed"
		end
		set[n] = obj
	end
	return set, names
end

command {
	name = "save", args = "FILE [NAME]", min = 1, max = 2,
	help = "write every tree (or tree NAME) to FILE, to load later",
	text = "A readable text file (see idrsh(1) FILES): each tree's kind,\n" ..
		"base, tagging, cyclic cursor, IDs and values, reserved IDs, a\n" ..
		"tagged tree's generations and seed, and which tree is current.\n" ..
		"'load FILE' or 'idrsh --load FILE' builds them again.  FILE is\n" ..
		"replaced whole, or left as it was if writing fails.",
	example = "save session.idr",
	complete = "files",
	run = function(args)
		local set, names = to_save(args[2])
		if not set then return nil, names end
		local cur = args[2] or (set[sh.current] and sh.current)
		local done, ok, err, errno = pcall(idr.save, args[1], set, cur)
		if not done then return nil, tostring(ok) end
		-- The errno, as the shell's other failures end (--json reads it).
		if not ok then return nil, failure(tostring(err), errno) end
		return result({ saved = #names, trees = names, file = args[1],
			current = cur or idr.json.null },
			"saved " .. plural(#names, "tree") .. " to " .. args[1])
	end,
}

-- Installs the trees loaded, the old ones of the same names destroyed.
local function install(loaded, names, cur)
	for _, name in ipairs(names) do
		local old = rawget(sh.trees, name)
		keep(name, loaded[name])
		if old ~= nil and old.destroy then pcall(old.destroy, old) end
	end
	if cur then sh.current = cur end
end

-- Why tree @name of a file may not come in, or nil.
local function refused(name, replace, file)
	if name == "current" then
		return "'current' is reserved: the file's tree cannot be named so"
	end
	if rawget(sh.trees, name) ~= nil and not replace then
		return "a tree named " .. quoted(name) .. " exists; 'load --replace " ..
			file .. "' replaces it"
	end
end

local function load_file(file, replace)
	local _, loaded, cur, names = idr.load(file)
	if type(loaded) ~= "table" then return nil, loaded end
	for _, name in ipairs(names) do
		local why = refused(name, replace, file)
		if why then
			for _, obj in ipairs(names) do loaded[obj]:destroy() end
			return nil, why .. " (nothing was loaded)"
		end
	end
	install(loaded, names, cur)
	return result(function()
		local list = {}
		for i, name in ipairs(names) do
			list[i] = { name = name, ids = loaded[name]:count() }
		end
		return { loaded = #names, trees = list, file = file,
			current = cur or idr.json.null }
	end, "loaded " .. plural(#names, "tree") .. " from " .. file ..
		(cur and "; current: " .. cur or ""))
end

command {
	name = "load", args = "[--replace] FILE", min = 1, max = 2,
	help = "build the trees a 'save' wrote to FILE",
	text = "The whole file is read and checked first: a bad line (FILE:LINE\n" ..
		"says which), a truncated file or one of a newer format loads\n" ..
		"nothing.  A tree whose name is taken is refused, and so nothing\n" ..
		"loads, unless --replace: the old tree is then destroyed.  The\n" ..
		"file's current tree becomes current.  'source FILE' of a saved\n" ..
		"file loads it too.",
	example = "save session.idr\nload --replace session.idr",
	complete = function(text)
		if text:sub(1, 1) == "-" then return { "--replace" } end
		return "files"
	end,
	run = function(args)
		local replace = args[1] == "--replace"
		local file = replace and args[2] or not replace and not args[2]
			and args[1]
		if not file then return nil, usage("load") end
		return load_file(file, replace)
	end,
}

-- }===============================================================

-- {============================ Import ============================

-- The IDs @t may take: from its base up to its kind's largest.
local function id_bounds(t)
	local info = info_of(t)
	if kind_of(t) == "ida" then return 0, INT_MAX end
	if info.tagged then return info.base, (1 << info.tagged.id_bits) - 1 end
	return info.base, U32_MAX
end

local function in_use(t, id)
	if kind_of(t) == "ida" then return t:exists(id) end
	local v, _, code = t:find(id)
	return v ~= nil or code ~= "ENOENT"
end

-- Checks one entry { id, value, where } against @t and those before it.
local function check_entry(t, e, seen, lo, hi)
	if e.id < lo or e.id > hi then
		return ("id %d is outside [%d, %d]"):format(e.id, lo, hi)
	elseif seen[e.id] then
		return ("id %d comes twice (at %s too)"):format(e.id, seen[e.id])
	elseif in_use(t, e.id) then
		return ("id %d is allocated already"):format(e.id)
	elseif e.value and kind_of(t) == "ida" then
		return "an IDA's ids hold no value"
	end
end

local function give_back(t, took)
	for i = #took, 1, -1 do
		if kind_of(t) == "ida" then t:free(took[i]) else t:unalloc(took[i]) end
	end
end

-- Allocates every entry's ID in @t, or none (Ctrl-C too): nil, why.
local function take_all(t, entries)
	local took, ida = {}, kind_of(t) == "ida"
	return all_or_none(function(poll)
		for _, e in ipairs(entries) do
			local id, err
			if ida then
				id, err = t:alloc(e.id, e.id)
			else
				id, err = t:alloc_u32(e.value, e.id, e.id)
			end
			if not id then
				return nil, e.where .. ": " .. tostring(err) ..
					" (nothing was imported)"
			end
			took[#took + 1] = id
			poll()
		end
		return true
	end, function() give_back(t, took) end)
end

local function import_entries(t, entries)
	local lo, hi = id_bounds(t)
	local seen = {}
	for _, e in ipairs(entries) do
		local why = check_entry(t, e, seen, lo, hi)
		if why then return nil, e.where .. ": " .. why .. " (nothing was imported)" end
		seen[e.id] = e.where
	end
	return take_all(t, entries)
end

-- An import file's lines: "ID [VALUE]", the ID as the shell reads one,
-- VALUE the rest of the line after a space.
local function read_entries(file)
	local text, err = read_file(file, IMPORT_BYTES_MAX)
	if not text then return nil, err end
	local entries, n = {}, 0
	for line in (text:sub(-1) == "\n" and text or text .. "\n"):gmatch("(.-)\r?\n") do
		n = n + 1
		-- The ID is a word, so "12abc" is no ID 12 with a value abc.
		local word, value = line:match("^%s*(%S+)%s*(.-)%s*$")
		if word and word:sub(1, 1) ~= "#" then
			local id, why = number(word, "id", U32_MAX)
			if not id then
				return nil, ("%s:%d: %s (nothing was imported)"):format(
					file, n, why)
			end
			entries[#entries + 1] = { id = id,
				value = value ~= "" and value or nil,
				where = file .. ":" .. n }
		end
	end
	return entries
end

-- The processes of this system, from /proc: their PIDs, and their
-- names if @named.
local function proc_entries(named)
	local p = io.popen("ls -1 /proc 2>/dev/null")
	local list = p and p:read("a") or ""
	if p then p:close() end
	local entries = {}
	for pid in list:gmatch("%f[%w](%d+)%f[%W]") do
		local f = named and io.open("/proc/" .. pid .. "/comm")
		local comm = f and f:read("l")
		if f then f:close() end
		entries[#entries + 1] = { id = tonumber(pid), value = comm,
			where = "pid " .. pid }
	end
	table.sort(entries, function(a, b) return a.id < b.id end)
	if #entries == 0 then return nil, "no /proc here to read PIDs from" end
	return entries
end

-- The kernel's cyclic cursor: the PID after the last handed out.
local function next_pid()
	local f = io.open("/proc/sys/kernel/ns_last_pid")
	local last = f and tonumber(f:read("l"))
	if f then f:close() end
	return last and last + 1
end

command {
	name = "import", args = "FILE|pids", min = 1,
	help = "allocate the IDs listed in FILE (or this system's PIDs)",
	text = "FILE has one ID a line (decimal or 0x hex, as IDs are typed),\n" ..
		"then optionally blanks and a value: the rest of the line, with\n" ..
		"no blanks around it; blank lines and lines starting with # are\n" ..
		"skipped.  The current tree takes them all, or none (Ctrl-C too\n" ..
		"gives back those taken): a line that is no ID, an ID out of its\n" ..
		"range, listed twice or allocated already refuses the file,\n" ..
		"naming the line.\n" ..
		"'import pids' reads the running processes from /proc, each\n" ..
		"PID with its command name, and sets the cyclic cursor after the\n" ..
		"last PID the kernel handed out (its PIDs come from\n" ..
		"idr_alloc_cyclic).  A file named pids: import ./pids.",
	example = "import pids",
	complete = function(text)
		if text ~= "" and ("pids"):sub(1, #text) == text then
			return { "pids" }
		end
		return "files"
	end,
	run = function(args)
		local t, err = current()
		if not t then return nil, err end
		local pids = args[1] == "pids"
		local entries, rerr
		if pids then entries, rerr = proc_entries(kind_of(t) ~= "ida")
		else entries, rerr = read_entries(args[1]) end
		if not entries then return nil, rerr end
		local ok, ierr = import_entries(t, entries)
		if not ok then return nil, ierr end
		local cursor = pids and kind_of(t) ~= "ida" and next_pid()
		if cursor and cursor <= U32_MAX then t:set_cursor(cursor) end
		return result(function()
			local ids = {}
			for i, e in ipairs(entries) do ids[i] = e.id end
			return { imported = #entries, ids = ids,
				cursor = cursor or idr.json.null }
		end, "imported " .. plural(#entries, "id") ..
			(cursor and "; cursor " .. cursor or ""))
	end,
}

-- }===============================================================

-- --load FILE, at start-up: as 'load --replace FILE'.
local function load_at_start(file)
	local ok, err = load_file(file, true)
	if not ok then report("--load", err) end
	return ok and true or false
end

return {
	load_at_start = load_at_start,
}
