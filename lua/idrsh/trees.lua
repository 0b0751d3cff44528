-- SPDX-License-Identifier: MIT
-- trees.lua - the shell's trees: trees.NAME, the current one, the kind
-- a command wants; and calling the library on them, its failures made
-- messages, as every family of commands does.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local _G, error, pairs, pcall, rawget, setmetatable, table, tostring,
	type = _G, error, pairs, pcall, rawget, setmetatable, table, tostring,
	type

local show, format_table, result, value = output.show,
	output.format_table, output.result, output.value
local quoted, number, numbers = words.quoted, words.number, words.numbers
local failure, range_text = words.failure, words.range_text
local INT_MAX, INT_MIN, U32_MAX = words.INT_MAX, words.INT_MIN, words.U32_MAX
local INTERRUPTED = words.INTERRUPTED

-- {=========================== Trees ==============================

-- What the binding says a tree is (t:info()), or nil for a userdata
-- that is no tree ('lua trees.x = io.stdout').
local function info_of(obj)
	local ok, info = pcall(function() return obj:info() end)
	if ok and type(info) == "table" then return info end
end

-- The kind of a tree: "idr", "tagged" or "ida", as the binding says.
local function kind_of(obj)
	local info = info_of(obj)
	if not info then return "?" end
	if info.kind == "ida" then return "ida" end
	return info.tagged and "tagged" or "idr"
end

-- Stores @obj under @name.
local function keep(name, obj)
	sh.trees[name] = obj
end

-- Anything but a userdata under trees.NAME ('lua trees.x = 2' may put
-- anything there) is no tree.
local function not_a_tree(name, obj)
	if type(obj) ~= "userdata" or not info_of(obj) then
		return "trees." .. name .. " is a " .. type(obj) ..
			", not an idr or an IDA"
	end
end

local function current()
	local obj = rawget(sh.trees, sh.current)
	if obj == nil then
		return nil, "no current tree ('" .. sh.current ..
			"' was dropped); try 'trees' and 'use NAME'"
	end
	local err = not_a_tree(sh.current, obj)
	if err then return nil, err end
	return obj, kind_of(obj)
end

-- The current tree, if it is of a kind @want accepts.
local WANT = {
	idr = { idr = true, tagged = true },
	tagged = { tagged = true },
	ida = { ida = true },
	any = { idr = true, tagged = true, ida = true },
}
local HINT = {
	idr = "is an IDA; use ida_alloc, ida_free, ida_exists",
	tagged = "is not tagged (new NAME --tagged BITS)",
	ida = "is not an IDA (new NAME --ida)",
}

local function tree(want)
	local obj, kind = current()
	if not obj then
		return nil, kind
	end
	if not WANT[want][kind] then
		return nil, "tree '" .. sh.current .. "' " .. HINT[want]
	end
	return obj
end

-- The tree named @name, whether current or not.
local function named(name)
	local obj = rawget(sh.trees, name)
	if obj == nil then
		return nil, "no tree named " .. quoted(name) .. " (see 'trees')"
	end
	local err = not_a_tree(name, obj)
	if err then return nil, err end
	return obj
end

local function tree_names()
	local names = {}
	for name in pairs(sh.trees) do
		if type(name) == "string" and type(sh.trees[name]) == "userdata" then
			names[#names + 1] = name
		end
	end
	table.sort(names)
	return names
end

-- The tree the shell last put in the global 't': while 't' still holds
-- it, 't' follows the current tree; once a chunk assigns 't', the
-- user's value stays.
local given_t

local function update_globals()
	_G.trees = sh.trees
	local cur = rawget(sh.trees, sh.current)
	if rawget(_G, "t") == given_t then
		_G.t, given_t = cur, cur
	end
	_G.idr = idr
end

-- trees.current is the current tree, whatever 't' holds: the name is
-- reserved ('new current' is refused), so it never collides.
setmetatable(sh.trees, { __index = function(_, k)
	if k == "current" then return rawget(sh.trees, sh.current) end
end })

local function valid_name(name)
	return #name <= 64 and name:find("^[%a_][%w_.-]*$") ~= nil
end

-- }===============================================================

-- {========================= Library calls ========================

-- Calls method @m of @obj; a raised error becomes a message.
local function call(obj, m, ...)
	if obj[m] == nil then
		return nil, "not available on this tree"
	end
	local r = table.pack(pcall(obj[m], obj, ...))
	if not r[1] then
		if r[2] == INTERRUPTED then
			error(r[2], 0)
		end
		return nil, tostring(r[2])
	end
	return table.unpack(r, 2, r.n)
end

-- Runs @fn(poll), a change made in steps, with interrupts held
-- (src/idrsh.c's hold_interrupts): @fn calls poll() between its steps,
-- which raises if Ctrl-C came.  If @fn
-- fails (nil, why) or raises, @undo() takes its steps back before the
-- error goes on; a Ctrl-C during @undo waits.  Return: as @fn.
local function all_or_none(fn, undo)
	local hold = sh.config.hold_interrupts
	hold(true)
	local r = table.pack(pcall(fn, function()
		if hold() then error(INTERRUPTED, 0) end
	end))
	if not (r[1] and r[2]) then undo() end
	hold(false)
	if not r[1] then error(r[2], 0) end
	return table.unpack(r, 2, r.n)
end

-- Prints the new ID, or says why there is none.
local function allocated(id, msg, errno, what)
	if id == nil then
		return nil, failure(msg, errno, what)
	end
	return result(id, id)
end

-- An entry: 'ID VALUE', or in JSON {"id": ID, "value": VALUE}.
local function entry(id, v)
	return { id = id, value = value(v) }
end

local function entry_text(id, v)
	return tostring(id) .. " " .. show(v)
end

local function print_entry(id, v)
	return result(entry, entry_text, id, v)
end

-- The largest ID a command that wants @want can take on @t: an idr's
-- IDs go up to 2^32 - 1 (alloc_u32); tagged IDs and an IDA's are int.
local function id_max(want, t)
	if want == "tagged" or kind_of(t) == "ida" then return INT_MAX end
	return U32_MAX
end

-- A command on one ID: checks the tree and the ID, then calls @fn(t, id).
local function on_id(want, what, fn)
	return function(args)
		local t, err = tree(want)
		if not t then return nil, err end
		local id, e = number(args[1], what, id_max(want, t))
		if not id then return nil, e end
		return fn(t, id, args)
	end
end

-- A raised error (a destroyed tree) comes as a message without an errno.
local function absent(id, msg, errno)
	if errno == "ENOENT" then
		-- A tagged idr's says the ID it read: "15 (tagged 63)".
		local read = type(msg) == "string" and msg:match("^no such id (.*)$")
		return nil, "no id " .. (read or id) .. " (ENOENT)"
	end
	return nil, failure(msg, errno)
end

-- A handler for on_id that prints the value method @m returns for the ID:
-- a lone nil is a reserved ID's.
local function print_value(m)
	return function(t, id)
		local v, msg, errno = call(t, m, id)
		if v == nil and msg ~= nil then return absent(id, msg, errno) end
		return result(value(v), show(v))
	end
end

-- A handler that prints what method @m of the current tree returns:
-- text, or a table as "key: value" lines.  @text_m, when the tree has
-- it, is asked instead.
local function print_result(m, text_m)
	return function()
		local t, err = tree("any")
		if not t then return nil, err end
		local s, msg = call(t, text_m and t[text_m] and text_m or m)
		if not s then return nil, msg end
		return result(s, type(s) == "table" and format_table(s) or s)
	end
end

-- Where an allocation from @start searches @t: the library starts one
-- below the base at the base, and the message says so.
local function search_from(t, start)
	local base = t:info().base
	return (start or 0) < base and base or start
end

-- alloc, alloc_cyclic and alloc_tagged: VALUE [START [END]].
local function alloc_with(method, args)
	local t, err = tree(method == "alloc_tagged" and "tagged" or "idr")
	if not t then return nil, err end
	local n, e = numbers(args, { 2, "START" },
		{ 3, "END", INT_MAX, INT_MIN })
	if not n then return nil, e end
	local id, msg, errno = call(t, method, args[1], n[1], n[2])
	return allocated(id, msg, errno, range_text(search_from(t, n[1]), n[2]))
end

-- }===============================================================

return {
	info_of = info_of,
	kind_of = kind_of,
	keep = keep,
	current = current,
	tree = tree,
	named = named,
	tree_names = tree_names,
	update_globals = update_globals,
	valid_name = valid_name,
	call = call,
	all_or_none = all_or_none,
	allocated = allocated,
	entry = entry,
	entry_text = entry_text,
	print_entry = print_entry,
	id_max = id_max,
	on_id = on_id,
	absent = absent,
	print_value = print_value,
	print_result = print_result,
	alloc_with = alloc_with,
	search_from = search_from,
}
