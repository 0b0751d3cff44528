-- step.lua - one event at a time: the node an event touched, drawn.
--
-- A reader of the event stream (see events.lua).  idr.event_text(ev)
-- turns one event table into a line that says what happened, in words,
-- and, for an event about a node, that node as a row of its slots with
-- the cell concerned marked under it:
--
--   full: leaf slot 1's full bit is set: the slot is used
--     L0 0..63
--     ##..............................................................
--      ^ slot 1 (ID 1)
--
-- The row is the node's full bitmap as the event reports it, at that
-- moment of the operation: in a leaf '#' is a slot in use, in an
-- interior node a slot whose subtree is full; '.' is any other slot (an
-- event says nothing of which interior slots hold a child: 'dump' does).
local idr, idr_methods, ida_methods, view = ...

local fmt = string.format

-- The slots of a node: the library's (geometry.lua).
local SLOTS = view("geometry").SLOTS

local function node_name(ev)
	return fmt("L%d %d..%d", ev.level, ev.first, ev.last)
end

local function leaf_or_node(ev)
	return ev.level == 0 and "leaf " or "node "
end

-- The IDs of leaf slot @e.slot: one in an idr, a bitmap's in an IDA.
local function slot_ids(e)
	local per = (e.last - e.first + 1) // SLOTS
	local first = e.first + e.slot * per
	if per == 1 then return "ID " .. first end
	return fmt("IDs %d..%d", first, first + per - 1)
end

local function nodes_text(n)
	return n == 1 and "1 node" or n .. " nodes"
end

-- What each event says, in words: a function of the event.
local SAY = {
	visit = function(e)
		return fmt("the way down goes through %s and takes its slot %d",
			node_name(e), e.slot)
	end,
	["no-room"] = function(e)
		return fmt("%s has no free slot at or after slot %d: back up " ..
			"to the parent's next slot (at the top: grow)",
			node_name(e), e.slot)
	end,
	op = function(e)
		-- A range for the allocations, an ID for the rest.
		local op, args = tostring(e.op), {}
		local keys = (op:find("alloc") or op:find("get_new"))
			and { "start", "end" } or { "id" }
		for _, k in ipairs(keys) do
			if e[k] ~= nil then args[#args + 1] = k .. " " .. e[k] end
		end
		return fmt("%s begins (%s)", op, table.concat(args, ", "))
	end,
	done = function(e)
		if e.errno then
			return fmt("%s is over: it fails with %s", tostring(e.op),
				e.errno)
		end
		return fmt("%s is over: it returns %s", tostring(e.op),
			tostring(e.result))
	end,
	malloc = function(e)
		return nodes_text(e.nodes) .. " allocated for this operation"
	end,
	["cache-take"] = function(e)
		return nodes_text(e.nodes) .. " taken from the idr's cache"
	end,
	["preload-take"] = function(e)
		return nodes_text(e.nodes) .. " taken from this thread's preload"
	end,
	["node-new"] = function(e)
		if e.aux == "bitmap" then
			return fmt("a new bitmap for IDs %d..%d hangs at its " ..
				"leaf's slot", e.first, e.last)
		elseif e.aux == "gens" then
			return fmt("leaf %s gets its generation counters",
				node_name(e))
		end
		return fmt("a new %s%s joins the tree", leaf_or_node(e),
			node_name(e))
	end,
	attach = function(e)
		return fmt("slot %d of %s now holds a child (the node just " ..
			"made, or the old top when growing)", e.slot, node_name(e))
	end,
	grow = function(e)
		return fmt("a level is added on top: %s holds the old top " ..
			"at slot 0 (height %d)", node_name(e), e.height)
	end,
	detach = function(e)
		return fmt("slot %d of %s no longer holds a child",
			e.slot, node_name(e))
	end,
	shrink = function(e)
		return fmt("the top held only slot 0: it is gone and %s is " ..
			"the top (height %d)", node_name(e), e.height)
	end,
	["node-free"] = function(e)
		if e.aux == "bitmap" then
			return fmt("the bitmap for IDs %d..%d is freed", e.first,
				e.last)
		elseif e.aux == "gens" then
			return fmt("leaf %s's generation counters go with it",
				node_name(e))
		end
		return fmt("%s%s leaves the tree", leaf_or_node(e), node_name(e))
	end,
	["cache-put"] = function()
		return "its memory goes to the idr's cache, for a later insertion"
	end,
	free = function()
		return "its memory goes back to the allocator"
	end,
	pack = function(e)
		return fmt("leaf %s is packed into a smaller block", node_name(e))
	end,
	["slot-set"] = function(e)
		return fmt("leaf slot %d (%s) now holds an entry", e.slot,
			slot_ids(e))
	end,
	["slot-clear"] = function(e)
		return fmt("leaf slot %d (%s) is freed", e.slot, slot_ids(e))
	end,
	full = function(e)
		return fmt("leaf slot %d's full bit is set: the slot is used",
			e.slot)
	end,
	open = function(e)
		return fmt("leaf slot %d's full bit is cleared: the slot is free",
			e.slot)
	end,
	["subtree-full"] = function(e)
		return fmt("slot %d's full bit is set: the subtree below is full",
			e.slot)
	end,
	["subtree-open"] = function(e)
		return fmt("slot %d's full bit is cleared: the subtree below " ..
			"has room again", e.slot)
	end,
	["bit-set"] = function(e)
		return fmt("ID %d is taken in the bitmap of %d..%d",
			e.first + e.slot, e.first, e.last)
	end,
	["bit-clear"] = function(e)
		return fmt("ID %d is freed in the bitmap of %d..%d",
			e.first + e.slot, e.first, e.last)
	end,
	["bitmap-full"] = function(e)
		return fmt("leaf slot %d's full bit is set: its bitmap is full",
			e.slot)
	end,
	["bitmap-open"] = function(e)
		return fmt("leaf slot %d's full bit is cleared: its bitmap has " ..
			"room again", e.slot)
	end,
}

-- Events about a node whose slot is no cell of interest.
local NO_MARK = { ["node-free"] = true, pack = true, shrink = true }
-- Events about memory, not a node, and the IDA's bits (a bitmap of
-- words, not a row of slots): no drawing.
local NO_ROW = { ["cache-put"] = true, free = true, ["bit-set"] = true,
	["bit-clear"] = true }

-- An event this file does not know (an "op" or "done", say): its fields.
local function fields(ev)
	local keys, parts = {}, {}
	for k in pairs(ev) do
		if k ~= "event" then keys[#keys + 1] = tostring(k) end
	end
	table.sort(keys)
	for _, k in ipairs(keys) do
		local v = ev[k]
		if type(v) == "table" then v = "{...}" end
		parts[#parts + 1] = k .. "=" .. tostring(v)
	end
	return table.concat(parts, " ")
end

-- The row of cells of an event's node, from its full bitmap.
local function row(ev, slots)
	local cells = {}
	for i = 0, slots - 1 do
		cells[#cells + 1] = ev.full >> i & 1 == 1 and "#" or "."
	end
	return table.concat(cells)
end

-- "^ slot N" under cell N; past the middle, "slot N ^" ends at it.
local function caret(ev, slots, indent)
	local label = "slot " .. ev.slot
	-- A slot is one ID in an idr's leaf, a bitmap in an IDA's.
	if ev.level == 0 and ev.slot < slots and
			ev.last - ev.first + 1 == slots then
		label = label .. " (ID " .. (ev.first + ev.slot) .. ")"
	end
	local at = math.min(ev.slot, slots - 1)
	if at + #label + 2 <= slots then
		return indent .. (" "):rep(at) .. "^ " .. label
	end
	local pad = at - #label - 1
	if pad < 0 then return indent .. (" "):rep(at) .. "^ " .. label end
	return indent .. (" "):rep(pad) .. label .. " ^"
end

local function is_node_event(ev)
	return ev.level ~= nil and ev.full ~= nil and ev.first ~= nil and
		ev.last ~= nil and not NO_ROW[ev.event] and not ev.aux
end

--- idr.event_text(ev) -> text: one event table (as t:trace() and
-- t:events() give them) as a line in words, then, for an event about a
-- node, the node's slots as a row with the cell concerned marked.  The
-- text ends with a newline.
function idr.event_text(ev)
	if type(ev) ~= "table" then
		error("bad argument #1 to 'event_text' (table expected, got " ..
			type(ev) .. ")", 2)
	end
	local name = tostring(ev.event)
	local say = SAY[name]
	local lines = { name .. ": " .. (say and say(ev) or fields(ev)) }
	if say and is_node_event(ev) then
		local slots = SLOTS
		lines[#lines + 1] = "  " .. node_name(ev) ..
			(ev.level == 0 and "  (# in use, . free)" or
			"  (# subtree full, . room)")
		lines[#lines + 1] = "  " .. row(ev, slots)
		if not NO_MARK[name] and ev.slot then
			lines[#lines + 1] = caret(ev, slots, "  ")
		end
	end
	return table.concat(lines, "\n") .. "\n"
end

--- t:event_text(ev) -> text: idr.event_text(ev).
function idr_methods.event_text(_, ev)
	return idr.event_text(ev)
end
ida_methods.event_text = idr_methods.event_text

--- t:step_text(fn, ...) -> text, ...: runs fn(...) as t:events() does
-- and returns every event it reported drawn, numbered, one after the
-- other, then fn's results.
function idr_methods:step_text(fn, ...)
	local r = table.pack(self:events(fn, ...))
	local parts = {}
	for i, ev in ipairs(r[1]) do
		parts[i] = "step " .. i .. ", " .. idr.event_text(ev)
	end
	return table.concat(parts), table.unpack(r, 2, r.n)
end

return idr
