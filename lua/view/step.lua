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

-- The slots of a node: the library's (geometry.lua).
local SLOTS = view("geometry").SLOTS
-- What each event says: the one table of words.
local W = view "words"

-- Events about a node whose slot is no cell of interest.
local NO_MARK = { ["node-free"] = true, pack = true, shrink = true }
-- Events about memory, not a node, and the IDA's bits (a bitmap of
-- words, not a row of slots): no drawing.
local NO_ROW = { ["cache-put"] = true, free = true, ["bit-set"] = true,
	["bit-clear"] = true }

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
	local lines = { name .. ": " .. W.text(ev) }
	if is_node_event(ev) then
		local slots = SLOTS
		lines[#lines + 1] = "  " .. W.node(ev) ..
			(ev.level == 0 and "  (# in use, . free)" or
			"  (# subtree full, . room)")
		lines[#lines + 1] = "  " .. row(ev, slots)
		if not NO_MARK[name] and ev.slot then
			lines[#lines + 1] = caret(ev, slots, "  ")
		end
	end
	lines[#lines + 1] = "  kernel: " .. W.kernel(ev)
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
