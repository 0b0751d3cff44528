-- SPDX-License-Identifier: MIT
-- manage.lua - the commands that manage the trees: new, use, trees,
-- drop.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, pcall, rawget, string, tostring = ipairs, pcall, rawget,
	string, tostring

local items = output.items
local quoted, number, INT_MAX = words.quoted, words.number, words.INT_MAX
local command = registry.command
local info_of, kind_of, keep, named, tree_names, valid_name = trees.info_of,
	trees.kind_of, trees.keep, trees.named, trees.tree_names,
	trees.valid_name

-- {======================== Managing trees ========================

local NEW_OPTIONS = { "--base", "--tagged", "--retire", "--ida", "--rcu" }

local function parse_new(args)
	local o, i = { name = args[1] }, 2
	while args[i] do
		local a = args[i]
		if a == "--ida" or a == "--retire" or a == "--rcu" then
			o[a:sub(3)] = true
			i = i + 1
		elseif a == "--base" or a == "--tagged" then
			if not args[i + 1] then return nil, a .. " needs a number" end
			local n, err = number(args[i + 1],
				a == "--tagged" and "BITS" or "BASE",
				a == "--tagged" and 30 or INT_MAX,
				a == "--tagged" and 1 or 0)
			if not n then return nil, err end
			o[a:sub(3)] = n
			i = i + 2
		else
			return nil, "unknown option " .. quoted(a)
		end
	end
	if o.ida and (o.base or o.tagged or o.rcu) then
		return nil, "an IDA takes no --base, --tagged or --rcu"
	end
	if o.retire and not o.tagged then
		return nil, "--retire needs --tagged BITS"
	end
	if o.tagged and (o.base or 0) >> o.tagged ~= 0 then
		return nil, string.format("--base %d is past the %d IDs that" ..
			" --tagged %d gives", o.base, 1 << o.tagged, o.tagged)
	end
	return o
end

-- A new tree from the options of parse_new.
local function make(o)
	if o.ida then
		return idr.ida()
	end
	local opts = { base = o.base, rcu = o.rcu }
	if o.tagged then
		opts.tagged = { id_bits = o.tagged, retire = o.retire or false }
	end
	return idr.new(opts)
end

command {
	name = "new",
	args = "NAME [--base N] [--tagged BITS [--retire]] [--rcu] [--ida]",
	min = 1, max = 7,
	help = "make a tree (or an IDA) and switch to it",
	text = "--base N: IDs start at N.  --tagged BITS: IDs have BITS bits (so\n" ..
		"each ID must be below 2^BITS) and the bits above hold a generation\n" ..
		"(see alloc_tagged); --retire never reuses a slot whose\n" ..
		"generations ran out.  --rcu: an RCU idr (idr_init_rcu, or\n" ..
		"idr_init_rcu_base with --base): the nodes it lets go of are\n" ..
		"freed after a grace period; stats and mem show them waiting,\n" ..
		"rcu_barrier waits for them.  --ida: an IDA, IDs without values\n" ..
		"(ida_alloc, ida_free, ida_exists).",
	example = "new handles --base 1",
	complete = NEW_OPTIONS,
	run = function(args)
		local o, err = parse_new(args)
		if not o then return nil, err end
		if not valid_name(o.name) then
			return nil, "bad NAME " .. quoted(o.name) .. ": a letter or _, then" ..
				" letters, digits, _ . - (64 at most)"
		end
		if o.name == "current" then
			return nil, "'current' is reserved: trees.current is " ..
				"the current tree"
		end
		if rawget(sh.trees, o.name) ~= nil then
			return nil, "a tree named '" .. o.name .. "' exists"
		end
		local ok, obj = pcall(make, o)
		if not ok then return nil, tostring(obj) end
		keep(o.name, obj)
		sh.current = o.name
		return true
	end,
}

command {
	name = "use", args = "NAME", min = 1,
	help = "make NAME the current tree",
	example = "use default",
	complete = tree_names,
	run = function(args)
		local obj, err = named(args[1])
		if not obj then return nil, err end
		sh.current = args[1]
		return true
	end,
}

command {
	name = "trees",
	help = "list the trees; * marks the current one",
	example = "trees",
	run = function()
		local list = items()
		for _, name in ipairs(tree_names()) do
			local obj = sh.trees[name]
			local info = info_of(obj)
			local ok, n = pcall(function() return #obj end)
			local size = info and info.destroyed and "destroyed"
				or not ok and "?"
				or string.format("%d %s", n, n == 1 and "id" or "ids")
			if info and info.rcu then size = size .. ", rcu" end
			list:add({ name = name, current = name == sh.current,
				kind = kind_of(obj), ids = ok and n or nil,
				destroyed = info and info.destroyed or false,
				rcu = info and info.rcu or false },
				string.format("%s %-12s %-6s %s",
				name == sh.current and "*" or " ", name,
				kind_of(obj), size))
		end
		return list:close()
	end,
}

command {
	name = "drop", args = "NAME", min = 1,
	help = "destroy and forget a tree (not the current one)",
	example = "new handles\nuse default\ndrop handles",
	complete = tree_names,
	run = function(args)
		local obj, err = named(args[1])
		if not obj then return nil, err end
		if args[1] == sh.current then
			return nil, "'" .. args[1] ..
				"' is the current tree; 'use' another first"
		end
		sh.trees[args[1]] = nil
		if obj.destroy then pcall(obj.destroy, obj) end
		return true
	end,
}

-- }===============================================================
