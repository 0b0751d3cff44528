-- SPDX-License-Identifier: MIT
-- events.lua - the readers of the library's events: the views that
-- follow operations as they run (trace, explain, step, record, a
-- lesson's page) each register one here, in the order they are made.

local sh = require "idrsh.state"
local trees = require "idrsh.trees"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, next, pairs, pcall, setmetatable, type = ipairs, next,
	pairs, pcall, setmetatable, type

local tree = trees.tree

-- {===================== Readers of the events ====================

--[[
The library reports each step of an operation as an event (t:trace()); the
shell's views are readers of that one stream (trace, explain, step, ...).
A reader is { name, event = function(ev, t), done = function(line) }:
'event' gets each event of each tree the shell names, as the binding
delivers them (after each operation); 'done' is called after each
command line.  While a reader is on (sh.on[name]), every tree under
trees.NAME is observed: its trace function is the shell's, which passes
each event on to the readers that are on, then to whatever trace function
the user had set ('lua t:trace(f)' still works).
]]
local READERS = {}

local function reader(r)
	READERS[#READERS + 1] = r
end

local function reading()
	return next(sh.on) ~= nil
end

local observers = setmetatable({}, { __mode = "k" }) -- tree -> function

local function observer(t)
	local fn = observers[t]
	if fn then return fn end
	fn = function(ev)
		for _, r in ipairs(READERS) do
			if sh.on[r.name] and r.event then r.event(ev, t) end
		end
		local user = sh.chained[t]
		if user then user(ev) end
	end
	observers[t] = fn
	return fn
end

-- Puts @fn as @t's trace function, keeping whatever else was there as
-- the user's; @fn nil: gives the user's back.
local function set_trace(t, fn)
	if type(t) ~= "userdata" or not t.trace then return end
	local ok, info = pcall(t.info, t)
	if not ok or info.destroyed then return end
	local obs = observer(t)
	local prev = t:trace(fn or sh.chained[t])
	if prev ~= obs then sh.chained[t] = prev end
end

-- Trees whose last operation's events are kept, for 'dot' to mark.
local keeping = setmetatable({}, { __mode = "k" })

--[[
Keeping events costs every operation the library's traced path, so a
tree keeps them only while something reads them: a reader that is on
(its trace function), or, once 'dot' was asked for in this session, the
marks of what each tree's last operation changed (t:keep_events, in C).
]]
local marking = false

local function keep_last(obj)
	if keeping[obj] or type(obj) ~= "userdata" or not obj.keep_events then
		return
	end
	if pcall(obj.keep_events, obj, true) then keeping[obj] = true end
end

-- Before a command: observe every tree, or none.
local function observe_trees()
	local on = reading()
	for _, obj in pairs(sh.trees) do
		if marking then keep_last(obj) end
		if on or observers[obj] then
			set_trace(obj, on and observer(obj) or nil)
		end
		if not on then observers[obj] = nil end
	end
end

-- 'dot' from now on: each tree keeps its last operation's events.
local function mark_changes()
	marking = true
	observe_trees()
end

-- After a command: each reader that is on hears that it is over.
local function command_done(line)
	for _, r in ipairs(READERS) do
		if sh.on[r.name] and r.done then r.done(line) end
	end
end

-- The run of a reader's 'NAME on|off' (trace, step): on the current
-- tree's events as on every named tree's; @after runs once it is set.
local function switch(name, after)
	return function(args)
		local _, err = tree("any")
		if err then return nil, err end
		if args[1] ~= "on" and args[1] ~= "off" then
			return nil, "say '" .. name .. " on' or '" .. name .. " off'"
		end
		sh.on[name] = args[1] == "on" or nil
		if after then after() end
		return true
	end
end

-- }===============================================================

return {
	reader = reader,
	observe_trees = observe_trees,
	mark_changes = mark_changes,
	command_done = command_done,
	switch = switch,
}
