-- marks.lua - what an operation's events show together that no one of
-- them says: a keyed block, and a packed node that moved.
--
-- A view that words events one by one (step, the replay page) or in
-- sentences (explain) reads the marks of the list first, so that an
-- event of a keyed block is not told as a leaf slot's, nor a packed
-- node's copy as a new node:
--
--   M.of(events, shape) -> marks: marks[ev] is the kind of event @ev,
--   or nil for an event that reads as it says.  @shape: { base = the
--   idr's base, ida = true for an IDA (no keyed blocks, no packing) }.
--   M.shape(t) -> the shape of tree @t: { ida, base, rcu, id_bits (of a
--   tagged idr), tree = @t (read for "kept" below) }.
--   M.range_of(shape, ev) -> the first ID of the L1 range @ev is in.
--   M.ops(events) -> each operation's first and last index.
--
-- A keyed block (an L1 node's few lone IDs as sorted keys in one small
-- block, no leaves) reports the events a node would: node-new, attach,
-- node-free at L1, slot-set and slot-clear at L0 with its run's bitmap.
-- No event says "keyed", so an operation's events are read whole, and
-- an L1 range is a keyed block's when they show one:
--   copy   node-new and node-free of it, a slot set or cleared in it,
--          and no leaf made or freed in it (a block is as big as its
--          keys: an insertion makes a copy with the key added, and so
--          does an RCU idr's removal, as readers may be in the block);
--   new    node-new of it and a slot set in it, no leaf made;
--   gone   node-free of it after a slot cleared in it, no leaf freed;
--   split  node-new of it, leaves made in it, then node-free of it: a
--          L1 node and its leaves take the block's IDs;
--   kept   none of these, and the range is a keyed block after the
--          events (shape.tree): a lookup, or a plain idr's removal,
--          which takes the key out in place.
-- Its slot-set and slot-clear are marked "run" (a split's: none, they
-- are in a leaf), its visits "block", and a split's leaves "keys": each
-- is made with a run of the block's keys, which it takes over.
--
-- A packed node with no room left moves when it grows: node-new of its
-- range, perhaps its parent's attach, then node-free of the same range.
-- All three are marked "moved".  On an RCU idr a packed node changes in
-- place only by an entry or child going last, which moves nothing under
-- a reader (the slot is set, then the bit that shows it); any other
-- insertion, and a removal, makes a copy with the change, which takes
-- its place, marked "copied".
--
-- An attach takes the mark of the node-new it hangs (a copy, a block),
-- "made" for a plain new node, "top" for the old top under a new one:
-- so an attach that puts a copy in its old block's slot (M.REPLACES)
-- is not told, nor drawn, as a slot that held nothing.
local _, _, _, view = ...

local G = view "geometry"

local M = {}

-- The marks of a keyed block's own L1 events, and those of a node-new
-- and node-free that are a new block taking an old one's place (the
-- node's range, and its box on the page, stay).
M.BLOCK = { new = true, copy = true, gone = true, split = true }
M.REPLACES = { moved = true, copied = true, copy = true, split = true }

local KEY_SPAN = G.SLOTS * G.SLOTS -- the IDs a keyed block's range holds

function M.shape(t)
	local info = t:info()
	return { ida = info.kind == "ida", base = info.base or 0,
		rcu = info.rcu, id_bits = info.tagged and info.tagged.id_bits,
		tree = t }
end

function M.range_of(shape, ev)
	return ev.first - (ev.first - shape.base) % KEY_SPAN
end

local function is(ev, name, level, first)
	return ev and ev.event == name and (level == nil or ev.level == level)
		and (first == nil or ev.first == first)
end

-- {========================= Keyed blocks ==========================

-- Each L1 range's events in one operation, events[a..b].
local function ranges_in(shape, events, a, b)
	local r = {}
	for i = a, b do
		local ev = events[i]
		if ev.level and not ev.aux and ev.level <= 1 and ev.first then
			local x = M.range_of(shape, ev)
			r[x] = r[x] or { leaves = {}, evs = {} }
			local e = r[x]
			e.evs[#e.evs + 1] = i
			if is(ev, "node-new", 1) then
				e.made = e.made or i
			elseif is(ev, "node-free", 1) then
				e.freed = e.freed or i
			elseif is(ev, "node-new", 0) then
				e.leaves[#e.leaves + 1] = i
			elseif is(ev, "node-free", 0) then
				e.leaf_freed = true
			elseif is(ev, "slot-set") or is(ev, "slot-clear") then
				e.touched = e.touched or i
			end
		end
	end
	return r
end

-- Whether the L1 range from @x holds a keyed block in shape.tree now,
-- after the events (false for a destroyed tree, or none).
local function keyed_now(shape, x)
	local t, ok = shape.tree, true
	local n = t and not t:info().destroyed and t:top()
	while ok and n and n.level > 1 and x >= n.first and x <= n.last do
		ok, n = pcall(t.child, t, n, G.slot_of(n, x))
	end
	return ok and n and n.level == 1 and n.first == x and
		(n.keyed or 0) > 0 or false
end

-- A split: a node made, leaves made in it before the block's free (the
-- new ID's own leaf may come after), and no leaf freed: a leaf freed
-- was a real one, and the range a node's (an RCU idr's packed node
-- copied without it).
local function split(e)
	if not (e.made and e.freed and e.freed > e.made) or e.leaf_freed then
		return false
	end
	for _, i in ipairs(e.leaves) do
		if i > e.made and i < e.freed then return true end
	end
	return false
end

-- What an L1 range's events @e show: "copy", "new", "gone", "split",
-- "kept" (a block read or changed in place, as it is after them: @kept)
-- or nil (whole nodes).
local function block_kind(e, kept)
	local leaves = #e.leaves > 0 or e.leaf_freed
	if split(e) then
		return "split"
	elseif leaves then
		return nil
	elseif not e.touched or not (e.made or e.freed) then
		return not e.made and not e.freed and kept() and "kept" or nil
	elseif e.made and e.freed then
		return "copy"
	elseif e.made then
		return "new"
	elseif e.freed then
		return "gone"
	end
	return nil
end

-- @keyed_after[x]: whether the range from x is a keyed block after
-- events[a..b] (nil: as in the tree now); set to whether it was before.
local function mark_keyed(shape, events, a, b, marks, keyed_after)
	for x, e in pairs(ranges_in(shape, events, a, b)) do
		local kind = block_kind(e, function()
			if keyed_after[x] == nil then
				keyed_after[x] = keyed_now(shape, x)
			end
			return keyed_after[x]
		end)
		keyed_after[x] = kind ~= nil and kind ~= "new"
		for _, i in ipairs(kind and e.evs or {}) do
			local ev = events[i]
			if kind == "split" and is(ev, "node-new", 0) and i > e.made and
				i < e.freed then
				marks[ev] = "keys"
			elseif ev.event == "visit" and (kind ~= "split" or i < e.made) then
				marks[ev] = "block"
			elseif ev.level == 1 and ev.event ~= "visit" and
				ev.event ~= "attach" then
				marks[ev] = kind
			elseif kind ~= "split" and (ev.event == "slot-set" or
				ev.event == "slot-clear") then
				marks[ev] = "run"
			end
		end
	end
end

-- }================================================================

-- A packed node's copy, events[a..b]: node-new, an attach to its parent
-- or none, node-free of the same range; @kind: "moved" or "copied".
local function mark_moved(events, a, b, marks, kind)
	for i = a, b do
		local ev, nxt = events[i], events[i + 1]
		if is(ev, "node-new") and not ev.aux and not marks[ev] then
			local f = is(nxt, "attach", ev.level + 1) and i + 2 or i + 1
			if f <= b and is(events[f], "node-free", ev.level, ev.first) and
				not events[f].aux then
				marks[ev], marks[events[f]] = kind, kind
			end
		end
	end
end

-- An attach, events[a..b], by what it hangs: the old top under a new
-- one ("top": a grow follows), or a node the operation made, marked as
-- that node-new is ("made" if it is not).  Marks already given stay.
local function mark_attach(events, a, b, marks)
	for i = a, b do
		local ev = events[i]
		if is(ev, "attach") and not ev.aux and not marks[ev] then
			if is(events[i + 1], "grow", ev.level, ev.first) or
				is(events[i + 2], "grow", ev.level, ev.first) then
				marks[ev] = "top"
			else
				local first = ev.first +
					ev.slot * ((ev.last - ev.first + 1) // G.SLOTS)
				for j = i - 1, a, -1 do
					if is(events[j], "node-new", ev.level - 1, first) and
						not events[j].aux then
						marks[ev] = marks[events[j]] or "made"
						break
					end
				end
			end
		end
	end
end

--- M.ops(events) -> { { first, last }, ... }: each operation's events,
-- from its op event to the one before the next.
function M.ops(events)
	local list, from = {}, 1
	for i = 2, #events + 1 do
		if not events[i] or events[i].event == "op" then
			list[#list + 1] = { from, i - 1 }
			from = i
		end
	end
	return list
end

function M.of(events, shape)
	local marks, keyed_after = {}, {}
	if shape.ida then return marks end
	-- Last operation first: whether a range was a keyed block before an
	-- operation is what the one before it leaves.
	local ops = M.ops(events)
	for k = #ops, 1, -1 do
		local a, b = ops[k][1], ops[k][2]
		mark_keyed(shape, events, a, b, marks, keyed_after)
		mark_moved(events, a, b, marks, shape.rcu and "copied" or "moved")
		mark_attach(events, a, b, marks)
	end
	return marks
end

return M
