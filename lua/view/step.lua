-- step.lua - one event at a time: the node an event touched, drawn.
--
-- A reader of the event stream (see events.lua).  Each event is told
-- in the words of words.lua and, for an event about a node, that node
-- is drawn as a row of its slots, in the dump's symbols, as it is just
-- after the event, with the cell concerned marked under it:
--
--   slot-set: leaf slot 1 (ID 1) now holds an entry
--     L0 0..63  (# in use, . free)
--     ##..............................................................
--      ^ slot 1 (ID 1)
--
-- An event reports its node's full bitmap, not which slots hold a child
-- or an entry: t:step_texts(events) works that out backwards, from the
-- tree as it is after the events, undoing them one by one.
local idr, idr_methods, ida_methods, view = ...

-- The slots of a node: the library's (geometry.lua).
local G = view "geometry"
local O = view "options"
local M = view "marks"
local SLOTS = G.SLOTS
-- What each event says: the one table of words.
local W = view "words"

-- Events about a node whose slot is no cell of interest.
local NO_MARK = { ["node-new"] = true, ["node-free"] = true, pack = true,
	shrink = true }
-- Events about memory, not a node, and the IDA's bits (a bitmap of
-- words, not a row of slots): no drawing.
local NO_ROW = { ["cache-put"] = true, free = true, ["bit-set"] = true,
	["bit-clear"] = true }

-- The row of cells of an event's node, in the dump's symbols when
-- what the slots hold is known (@present: a bitmap), else from the full
-- bitmap alone.
local function row(ev, present, ida)
	local cells = {}
	for i = 0, SLOTS - 1 do
		local full = ev.full >> i & 1 == 1
		local c
		if not present then
			c = full and "#" or "."
		elseif present >> i & 1 == 0 then
			c = (ev.level > 0 or ida) and "-" or "."
		elseif ev.level == 0 and not ida then
			c = "#"
		else
			c = full and "#" or "+"
		end
		cells[#cells + 1] = c
	end
	return table.concat(cells)
end

-- The row's legend, as the dump's.
local function legend(ev, present, ida)
	if not present then return "(# full, . not full)" end
	if ev.level == 0 and not ida then return "(# in use, . free)" end
	return "(# full, + room below, - empty)"
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

--- idr.event_text(ev [, present [, ida]]) -> text: one event table (as
-- t:trace() and t:events() give them) as a line in words, then, for an
-- event about a node, the node's slots as a row with the cell concerned
-- marked, then the kernel's step.  @present: which slots of the node
-- hold something just after the event (a bitmap, as t:step_texts()
-- works it out); without it the row shows the full bitmap only.  @ida:
-- the node is an IDA's.  The text ends with a newline.
-- idr.event_text()'s text, @mark as marks.lua marks @ev.
local function event_text(ev, present, ida, mark)
	local name = tostring(ev.event)
	local lines = { name .. ": " .. W.text(ev, mark) }
	if is_node_event(ev) then
		local keys = ev.level == 0 and (mark == "run" or mark == "block")
		lines[#lines + 1] = "  " .. W.node(ev) .. (keys and
			", keys of a keyed block" or "") .. "  " ..
			legend(ev, present, ida)
		lines[#lines + 1] = "  " .. row(ev, present, ida)
		if not NO_MARK[name] and ev.slot then
			lines[#lines + 1] = caret(ev, SLOTS, "  ")
		end
	end
	lines[#lines + 1] = "  kernel: " .. W.kernel(ev, nil, mark)
	return table.concat(lines, "\n") .. "\n"
end

function idr.event_text(ev, present, ida)
	O.event("event_text", ev, 1)
	W.told("event_text", { ev }, 1)
	if present ~= nil and math.type(present) ~= "integer" then
		O.bad("event_text", "present must be an integer bitmap")
	end
	return event_text(ev, present, ida)
end

--- t:event_text(ev) -> text: idr.event_text(ev).
function idr_methods.event_text(_, ev)
	return idr.event_text(ev)
end
ida_methods.event_text = idr_methods.event_text

-- {================ What the slots held, event by event =============

local function key(ev)
	return ev.level .. ":" .. ev.first
end

-- The present bitmap of the node of @ev in @t as it is now; 0 if the
-- tree has no such node (any more).
local function present_now(t, ev)
	local n = t:top()
	while n and ev.first >= n.first and ev.first <= n.last do
		if n.level == ev.level then
			return n.first == ev.first and n.present or 0
		end
		n = t:child(n, G.slot_of(n, ev.first))
	end
	return 0
end

-- The present bitmap just before @ev, from the one just after it; @mark
-- as marks.lua marks @ev.  An attach of a copy in its old block's slot
-- leaves the slot holding a child, and a copy's node-new leaves the
-- place to the old block (see old_block()).
local PUT = { ["slot-set"] = true, attach = true }
local TAKE = { ["slot-clear"] = true, detach = true }
local function undo(ev, after, mark)
	local bit = 1 << ev.slot
	-- A split's leaf takes over a run of keys: they were there before.
	if M.REPLACES[mark] and ev.event ~= "node-free" or
		mark == "keys" and ev.event == "node-new" then
		return after
	end
	if PUT[ev.event] then return after & ~bit end
	if TAKE[ev.event] then return after | bit end
	if ev.event == "node-new" then return 0 end
	return after
end

-- The present bitmap of the keyed block that the node-new events[@i]
-- (a copy or a split, @mark) replaces, in the operation events[@a..@b],
-- from the new node's @new then: a slot holds a run of keys if its run
-- had keys before the operation.  A split's leaves are made with the
-- block's keys (@at: the rows just after each event); a copy's runs
-- are read as they were before the operation: @now (the rows so far,
-- undone to events[@i]) or the tree's, with the operation's changes
-- before @i undone too (an RCU idr's removal takes the key out first).
local function old_block(t, events, i, a, b, s)
	local ev, bits, runs = events[i], s.new, {}
	local function set(first, had)
		local bit = 1 << (first - ev.first) // G.SLOTS
		bits = had and bits | bit or bits & ~bit
	end
	for j = a, b do
		local e = events[j]
		if e.level == 0 and is_node_event(e) and e.first >= ev.first and
			e.first <= ev.last then
			if s.mark == "split" and e.event == "node-new" and j > i then
				set(e.first, s.at[j] ~= 0)
			elseif s.mark == "copy" then
				runs[key(e)] = e
			end
		end
	end
	for k, e in pairs(runs) do
		local v = s.now[k]
		if v == nil then v = present_now(t, e) end
		for j = i - 1, a, -1 do
			if is_node_event(events[j]) and key(events[j]) == k then
				v = undo(events[j], v, s.marks[events[j]])
			end
		end
		set(e.first, v ~= 0)
	end
	return bits
end

--- t:step_texts(events) -> list: each of @events (the last ones @t
-- reported) drawn as idr.event_text() draws it, the rows as the node
-- was just after each event (of a destroyed tree, and before a clear:
-- the full bits only),
-- and the events of a keyed block or a packed node's copy told as that
-- (marks.lua), which the list shows and no one event does.
local function step_texts(t, events)
	if type(events) ~= "table" then
		O.bad("step_texts", "events must be a list of events (see " ..
			"t:events())")
	end
	W.told("step_texts", events, #events)
	local info = t:info()
	local ida = info.kind == "ida"
	local shape = M.shape(t)
	local marks, texts = M.of(events, shape), {}
	-- The node-free of a block a copy replaced, by place: drawn as the
	-- old block once its copy's node-new, earlier, tells what it held.
	local now, at, old_free = {}, {}, {}
	-- Each event's operation, events[op[i][1] .. op[i][2]].
	local op = {}
	for _, r in ipairs(M.ops(events)) do
		for i = r[1], r[2] do op[i] = r end
	end
	-- A block changed in place, not made anew with its keys, holds a
	-- run of keys in a slot while the run holds keys.
	local renewed = {}
	for i, ev in ipairs(events) do
		if ev.event == "node-new" and ev.level == 1 and not ev.aux then
			renewed[op[i][1] .. ":" .. M.range_of(shape, ev)] = true
		end
	end
	local function run_changed(ev, i)
		local x = M.range_of(shape, ev)
		if renewed[op[i][1] .. ":" .. x] then return end
		local k1 = "1:" .. x
		if now[k1] == nil then
			now[k1] = present_now(t, { level = 1, first = x })
		end
		local bit = 1 << (ev.first - x) // G.SLOTS
		now[k1] = now[key(ev)] ~= 0 and now[k1] | bit or now[k1] & ~bit
	end
	-- A destroyed tree has no nodes to read, and a clear (t:clear(),
	-- idr_destroy()) freed them untraced: the rows before it show full
	-- bits only.
	local from = 1
	for i, ev in ipairs(events) do
		if ev.event == "op" and W.FAMILY[ev.op] == "destroy" then
			from = i + 1
		end
	end
	for i = info.destroyed and 0 or #events, from, -1 do
		local ev = events[i]
		if is_node_event(ev) then
			local k, mark = key(ev), marks[ev]
			if now[k] == nil then now[k] = present_now(t, ev) end
			at[i] = now[k]
			now[k] = undo(ev, now[k], mark)
			if ev.event == "node-free" and M.REPLACES[mark] then
				old_free[k] = i
			elseif ev.event == "node-new" and (mark == "copy" or
				mark == "split") then
				now[k] = old_block(t, events, i, op[i][1], op[i][2],
					{ mark = mark, new = now[k], now = now, at = at,
					marks = marks })
			end
			if ev.event == "node-new" and old_free[k] then
				at[old_free[k]], old_free[k] = now[k], nil
			end
			if mark == "run" then run_changed(ev, i) end
		end
	end
	for i, ev in ipairs(events) do
		texts[i] = event_text(ev, at[i], ida, marks[ev])
	end
	return texts
end
idr_methods.step_texts = step_texts
ida_methods.step_texts = step_texts

--- t:step_text(fn, ...) -> text, ...: runs fn(...) as t:events() does
-- and returns every event it reported drawn, numbered, one after the
-- other, then fn's results.
local function step_text(t, fn, ...)
	local r = table.pack(t:events(fn, ...))
	local parts = {}
	for i, text in ipairs(step_texts(t, r[1])) do
		parts[i] = "step " .. i .. ", " .. text
	end
	return table.concat(parts), table.unpack(r, 2, r.n)
end
idr_methods.step_text = step_text
ida_methods.step_text = step_text

-- }================================================================

return idr
