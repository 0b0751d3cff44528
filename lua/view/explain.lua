-- explain.lua - an operation's events told in sentences, level by level.
--
-- t:explain(events) reads the list t:events() returns (one operation or
-- several: each runs from its "op" event to its "done") and says what
-- happened and why: the ID's base-64 digits, at each node its full
-- bitmap and why the search took the slot it took, the nodes made and
-- freed, the full bits that changed on the way back up, the result, and
-- where today's kernel does the same step differently.
local idr, idr_methods, ida_methods, view = ...

local G = view "geometry"
local W = view "words"              -- the one table of event words
local M = view "marks"
local SLOTS = G.SLOTS                -- slots per node: BITS bits of the ID
local BITS = G.BITS
local BITMAP = G.CHUNK               -- IDs in one IDA bitmap

-- {====================== Words for numbers =======================

-- "none", "0", "0-3", "0-3 5 9-63": the set bits of a bitmap.
local function runs(bits)
	local out, i = {}, 0
	while i < SLOTS do
		if bits >> i & 1 == 1 then
			local j = i
			while j + 1 < SLOTS and bits >> (j + 1) & 1 == 1 do j = j + 1 end
			out[#out + 1] = i == j and tostring(i) or i .. "-" .. j
			i = j + 1
		else
			i = i + 1
		end
	end
	return #out == 0 and "none" or table.concat(out, " ")
end

local function count(bits)
	local n = 0
	for i = 0, SLOTS - 1 do n = n + (bits >> i & 1) end
	return n
end

-- A node's full bitmap, as a student reads it.
local function bitmap(full)
	local n = count(full)
	if n == SLOTS then return ("all %d slots full"):format(SLOTS) end
	if n == 0 then return "no slot full" end
	return ("full slots %s (%d of %d)"):format(runs(full), n, SLOTS)
end

-- The base-SLOTS digits of @index for a tree of @levels levels, top
-- first.
local function digits(index, levels)
	return table.concat(G.digits(index, levels), ".")
end

-- Levels a tree needs to hold @index.
local levels_for = G.levels_for

local function plural(n, one, many)
	return n == 1 and ("1 " .. one) or (n .. " " .. (many or one .. "s"))
end

-- }================================================================

-- {======================= The tree's geometry =====================

-- The tree index of an ID: minus the base; an IDA's is its bitmap.
local function index_of(s, id)
	if s.id_bits then id = id & ((1 << s.id_bits) - 1) end
	if s.ida then return id // BITMAP end
	return id - s.base
end

-- The tree index where a node's range begins.
local function node_index(s, ev)
	if s.ida then return ev.first // BITMAP end
	return ev.first - s.base
end

-- "leaf L0 0..63", "node L1 0..4095": as every view names it.
local node_name = W.node_kind

local function cap(text)
	return text:sub(1, 1):upper() .. text:sub(2)
end

-- The IDs slot @slot of the node of @ev covers.
local slot_ids = W.slot_ids

-- }================================================================

-- {========================= Keyed blocks ==========================
--
-- A keyed block's events, and a packed node's copy, are marked by
-- marks.lua before they are told.

local KEYED_MAX = 8		-- the IDs a block holds at most (src/node.h)

-- The marks of the narration under way (set by narrate()).
local marked = {}

-- The ID and its key in the block, of slot-set or slot-clear @ev.
local function id_key(s, ev)
	local id = ev.first + ev.slot
	return id, id - M.range_of(s, ev)
end

-- }================================================================

-- {========================= What each op is =======================

local function range(ev, inclusive)
	local e = ev["end"]
	if inclusive then return ("[%d, %d]"):format(ev.start, e) end
	if e <= 0 then return "at or above " .. ev.start end
	return ("in [%d, %d)"):format(ev.start, e)
end

-- The first sentence of an operation: what it is asked to do.
local function asked(ev)
	local op, call = ev.op, W.call(ev)
	if op == "alloc" or op == "alloc_tagged" or op == "get_new_above" then
		return ("%s: the lowest free ID %s."):format(call, range(ev))
	elseif op == "alloc_u32" or op == "ida_alloc_range" then
		return ("%s: the lowest free ID in %s."):format(call,
			range(ev, true))
	elseif op == "alloc_cyclic" then
		return ("%s: the lowest free ID %s, searching from the cursor " ..
			"%d (one past the last ID it gave) and wrapping to %d if " ..
			"nothing is free above."):format(call, range(ev), ev.id,
			ev.start)
	elseif op == "set_cursor" then
		return ("%s: where idr_alloc_cyclic() searches from next."):format(
			call)
	elseif op == "get_new" then
		return call .. ", the 2004 API: the lowest free ID, with nodes " ..
			"from the idr's cache only."
	elseif op == "pre_get" then
		return call .. ", the 2004 API: fill the idr's cache with " ..
			"nodes, outside the caller's lock."
	elseif op == "for_each" then
		return call .. ": every entry, in ID order."
	elseif op:find("^ida_find_first") then
		return ("%s: the lowest ID in use in %s."):format(call,
			range(ev, true))
	elseif op == "ida_count" then
		return call .. ": count the IDs in use, bitmap by bitmap."
	elseif W.FAMILY[op] == "destroy" then
		return call .. ": give back every ID and free every node, all " ..
			"at once (none of it is traced one by one)."
	elseif op == "unalloc" then
		return call .. ": give the ID back as if never handed out (on " ..
			"a tagged idr its slot's generation stays)."
	end
	return call .. "."
end

-- Where idr_alloc_cyclic searches from: the cursor, if in the range.
local function cursor_start(ev)
	local c, e = ev.id, ev["end"]
	if c < ev.start or c > 0x7fffffff or (e > 0 and c >= e) then
		return ev.start
	end
	return c
end

-- What a search for a free ID is doing, and what its visits mean.
local SEARCH = { alloc = true, alloc_u32 = true, alloc_cyclic = true,
	alloc_tagged = true, get_new = true, get_new_above = true,
	ida_alloc_range = true }
local NEXT = { get_next = true, get_next_ul = true, for_each = true,
	ida_find_first_range = true, ida_count = true }

-- Where the ID of an operation sits: its digits, its bitmap, its tag.
local function where(ev, s)
	local op, id = ev.op
	if op == "alloc_cyclic" then
		id = cursor_start(ev)
	elseif op:find("alloc") or op == "get_new_above" or
		op:find("find_first") then
		id = ev.start
	elseif op == "get_new" or op == "for_each" or op == "pre_get" or
		op == "ida_count" or op == "set_cursor" or
		W.FAMILY[op] == "destroy" then
		return nil
	else
		id = ev.id
	end
	local out = {}
	if s.id_bits and op:find("tag") and not op:find("alloc") then
		out[#out + 1] = ("Tagged ID %d = generation %d << %d | ID %d."):format(
			id, id >> s.id_bits, s.id_bits, id & ((1 << s.id_bits) - 1))
	end
	local index = index_of(s, id)
	if index < 0 and not s.ida then
		-- The ID looked at: a tagged one's bits above it are not.
		local shown = s.id_bits and id & ((1 << s.id_bits) - 1) or id
		out[#out + 1] = (SEARCH[op] or NEXT[op]) and ("%d is below the " ..
			"base %d: the search begins at index 0 (ID %d)."):format(shown,
			s.base, s.base) or ("%d is below the base %d: no index holds " ..
			"it."):format(shown, s.base)
		return table.concat(out, " ")
	end
	local lv = math.max(ev.height, levels_for(index))
	if s.ida then
		out[#out + 1] = ("ID %d is bit %d of bitmap %d (IDs %d..%d); " ..
			"bitmap %d in base %d is %s, one digit per level, top " ..
			"first."):format(id & ((1 << 62) - 1), id % BITMAP, index,
			index * BITMAP, index * BITMAP + BITMAP - 1, index, SLOTS,
			digits(index, lv))
	else
		local base = s.base ~= 0 and (" (%d minus the base %d)"):format(
			id & ((1 << (s.id_bits or 62)) - 1), s.base) or ""
		out[#out + 1] = ("Index %d%s in base %d is %s: one digit per " ..
			"level, top first."):format(index, base, SLOTS,
			digits(index, lv))
	end
	if ev.height > 0 and index >> (BITS * ev.height) > 0 then
		local one = ev.height == 1
		out[#out + 1] = ("The tree's %s %s indices 0..%d: %d lies " ..
			"beyond %s."):format(plural(ev.height, "level"),
			one and "covers" or "cover", (1 << (BITS * ev.height)) - 1,
			index, one and "it" or "them")
	end
	return table.concat(out, " ")
end

-- }================================================================

-- {======================= Narrating events ========================


-- The node a visit met: a keyed block, or a run of its keys, says so.
local function visited(ev)
	if marked[ev] ~= "block" then return node_name(ev) end
	if ev.level > 0 then return "keyed block " .. W.node(ev) end
	return ("run %s of the keyed block (no leaf)"):format(W.node(ev))
end

local function visit(st, ev)
	local s = st.shape
	st.visited = true
	local node, lvl = node_index(s, ev), ev.level
	local width = 1 << (BITS * lvl)
	local want = st.want
	local d
	if want and want >= node and want < node + width * SLOTS then
		d = (want - node) // width
	else
		d = 0 -- the search came into this node from the left
	end
	local head = ("%s: %s."):format(cap(visited(ev)), bitmap(ev.full))
	if SEARCH[st.op] then
		local why
		if ev.slot == d then
			why = ("digit %d; slot %d is not full: take it"):format(d, d)
		elseif d == 0 and want and want < node then
			why = ("the search came here from the left, so from slot " ..
				"0: the first zero bit is slot %d"):format(ev.slot)
		else
			local full = ev.slot - 1 == d and ("slot %d is"):format(d) or
				("slots %d..%d are"):format(d, ev.slot - 1)
			why = ("digit %d, but %s full: the first zero bit at or " ..
				"above %d is slot %d"):format(d, full, d, ev.slot)
		end
		if ev.slot ~= d or not want then st.want = node + ev.slot * width end
		return ("%s %s (%s)."):format(head,
			why:sub(1, 1):upper() .. why:sub(2), slot_ids(ev, ev.slot))
	elseif NEXT[st.op] then
		local back = ""
		if st.last_level and lvl >= st.last_level then
			back = ("The child for %s has nothing in use at or above " ..
				"%d: back up. "):format(st.last_child, st.want +
				(s.ida and 0 or s.base))
			st.last_level = lvl
			st.last_child = slot_ids(ev, ev.slot)
			st.want = node + ev.slot * width
			return ("%s%s From the next slot on, the first in use is " ..
				"%d (%s)."):format(back, head, ev.slot,
				slot_ids(ev, ev.slot))
		end
		st.last_level = lvl
		st.last_child = slot_ids(ev, ev.slot)
		local from_left = not want or want < node
		if ev.slot ~= d or from_left then
			st.want = node + ev.slot * width
		end
		if from_left then
			return ("%s%s Coming in from the left, the first slot in " ..
				"use is %d (%s)."):format(back, head, ev.slot,
				slot_ids(ev, ev.slot))
		elseif ev.slot == d then
			return ("%s%s Digit %d: go down slot %d (%s)."):format(back,
				head, d, d, slot_ids(ev, d))
		end
		return ("%s%s Nothing at digit %d; the next slot in use is %d " ..
			"(%s)."):format(back, head, d, ev.slot, slot_ids(ev, ev.slot))
	end
	return ("%s Digit %d: slot %d (%s)."):format(head, ev.slot, ev.slot,
		slot_ids(ev, ev.slot))
end

local function no_room(st, ev)
	local s = st.shape
	local node = node_index(s, ev)
	local width = 1 << (BITS * ev.level)
	local text = ("%s: %s. No zero bit at or above slot %d: nothing " ..
		"free here from %s on."):format(cap(node_name(ev)), bitmap(ev.full),
		ev.slot, slot_ids(ev, ev.slot):gsub("^IDs? (%d+).*", "%1"))
	st.want = node + width * SLOTS -- the first index right of this node
	if ev.level + 1 >= ev.height then
		return text .. (" It is the top: the tree must grow a level, " ..
			"and the search goes on at index %d, the first the new " ..
			"level adds."):format(st.want)
	end
	return text .. " Back up to the parent, and on to its next slot."
end

-- The kernel's step of a full bit changed, told once a narration: it
-- marks free slots (IDR_FREE) where this tree marks full ones.
local function kernel_once(st, ev)
	if st.kernel_bits then return "" end
	st.kernel_bits = true
	return " (Kernel: " .. W.kernel(ev) .. ".)"
end

-- An event told as the words table tells it, as a sentence.
local function told(ev)
	return cap(W.text(ev, marked[ev])) .. "."
end

-- The same, then the node's full bitmap after it.
local function told_bits(ev)
	return ("%s; %s."):format(cap(W.text(ev)), bitmap(ev.full))
end

local function made(st, ev)
	if ev.aux == "gens" then
		return told(ev) .. (" (%d counters, one per slot; a tagged ID " ..
			"carries its slot's.)"):format(SLOTS)
	elseif ev.aux == "bitmap" then
		return ("%s (%d bits, all free)."):format(cap(W.text(ev)), BITMAP)
	end
	if ev.height == ev.level + 1 and not st.seen_top then
		st.seen_top = true
		return ("%s: the top of the tree (%s)."):format(cap(W.text(ev)),
			ev.level == 0 and (st.shape.ida and
			("%d slots for bitmaps of %d IDs"):format(SLOTS, BITMAP) or
			SLOTS .. " IDs") or ("%d slots of %d IDs"):format(SLOTS,
			(ev.last - ev.first + 1) // SLOTS))
	end
	return told(ev) .. " The path had no node here."
end

local combine

local SAY = {
	op = function(st, ev)
		local out = { asked(ev) }
		local w = where(ev, st.shape)
		if w and w ~= "" then out[#out + 1] = w end
		if ev.height == 0 and (SEARCH[ev.op]) then
			out[#out + 1] = "The tree is empty."
		end
		return table.concat(out, "\n  ")
	end,
	visit = visit,
	["no-room"] = no_room,
	["node-new"] = made,
	-- A full bit set or cleared: the kernel's way, the first time.
	full = function(st, ev)
		return told_bits(ev) .. kernel_once(st, ev)
	end,
	["bit-set"] = function(_, ev)
		return ("%s; words full: %s."):format(cap(W.text(ev)), runs(ev.full))
	end,
	-- An allocation packs only the leaf its cursor has just left, which
	-- removals thinned while the cursor was in it.
	pack = function(st, ev)
		if st.op == "set_cursor" then
			return ("%s: the cursor has left it, and no removal packs " ..
				"the leaf the cursor is in, so one it leaves with few " ..
				"enough entries packs now."):format(cap(W.text(ev)))
		end
		if st.op ~= "alloc_cyclic" then return told(ev) end
		return ("%s: the cursor has left it, and removals thinned it " ..
			"while the cursor was there (no removal packs the " ..
			"leaf the cursor is in)."):format(cap(W.text(ev)))
	end,
}
SAY["bit-clear"] = SAY["bit-set"]
-- A key into a keyed block or out of it: no leaf slot of its own.
SAY["slot-set"] = function(st, ev)
	if marked[ev] ~= "run" then return told(ev) end
	local id, key = id_key(st.shape, ev)
	return ("Key %d (ID %d) joins the keyed block's sorted keys (its " ..
		"run %s, slot %d)."):format(key, id, W.node(ev), ev.slot)
end
SAY["slot-clear"] = function(st, ev)
	if marked[ev] ~= "run" then return told(ev) end
	local id, key = id_key(st.shape, ev)
	return ("Key %d (ID %d) leaves the keyed block's sorted keys."):format(
		key, id)
end
SAY["subtree-open"] = SAY.full
for _, e in ipairs { "open", "subtree-full", "bitmap-full", "bitmap-open" } do
	SAY[e] = function(_, ev) return told_bits(ev) end
end

local ERRNO_SAYS = {
	ENOSPC = "no free ID in the range",
	EAGAIN = "the cache had too few nodes: call idr_pre_get() and retry",
	ENOENT = "no such ID",
	ESTALE = "the generation does not match: the ID is stale",
	EINVAL = "invalid argument",
	ENOMEM = "out of memory",
}

local function result(st, ev)
	local r = ev.result
	if r < 0 then
		local e = ev.errno or tostring(r)
		local why = ERRNO_SAYS[e] or e
		if e == "ENOENT" and NEXT[ev.op] then
			why = "no entry at or above it"
		end
		local stop = st.args and st.args["end"]
		if e == "ENOSPC" and SEARCH[ev.op] and not st.visited and stop and
			stop > 0 and stop <= st.shape.base then
			why = ("the range ends at %d, at or below the base %d: it " ..
				"holds no ID to hand out"):format(stop, st.shape.base)
		elseif e == "ENOSPC" and st.want and SEARCH[ev.op] and
			not st.shape.ida then
			why = ("the first free ID the search found, %d, is past " ..
				"the end of the range"):format(st.want + st.shape.base)
		end
		return ("Result: -%s (%s)."):format(e, why)
	end
	local op = ev.op
	if op == "pre_get" then return "Result: the cache is full." end
	if W.FAMILY[op] == "destroy" then return "Result: the tree is empty." end
	if op == "set_cursor" then
		return ("Result: the cursor is %d (idr_set_cursor() returns " ..
			"nothing)."):format(st.id)
	end
	if op == "for_each" then return ("Result: %d."):format(r) end
	if op == "ida_count" then return ("Result: %d IDs."):format(r) end
	if op == "ida_exists" then return ("Result: ID %d is in use."):format(r) end
	local verb = SEARCH[op] and "allocated" or
		(op:find("remove") or op == "unalloc") and "removed"
		or op:find("free") and "freed" or op == "replace" and "replaced"
		or "found"
	-- idr_tag_check() returns 0 for a live tagged ID: tell the one asked.
	if op == "tag_check" then
		r, verb = st.id, "live (its generation is its slot's)"
	end
	local text = ("Result: ID %d, %s."):format(r, verb)
	if st.shape.id_bits and op:find("remove") then
		verb = verb .. "; its slot's generation goes up by one, so this " ..
			"tagged ID is stale from now on (a tagged tree keeps " ..
			"its leaves, emptied or not, for their generations)"
	end
	if st.shape.id_bits and op:find("tag") then
		local b = st.shape.id_bits
		text = ("Result: tagged ID %d = generation %d << %d | ID %d, %s.")
			:format(r, r >> b, b, r & ((1 << b) - 1), verb)
	end
	return text
end

-- The kernel's way, after the result.
local function kernel(op)
	if op:find("tag") then
		return "The kernel has no tagged IDs: generations are this " ..
			"library's own."
	end
	if op == "ida_count" then return nil end
	local k = W.op_kernel(op)
	if not k then return nil end
	local out = "Kernel: " .. k .. "."
	if op:find("^ida") and op ~= "ida_exists" then
		out = out .. " Its IDA leaves are 1024-bit bitmaps in an " ..
			"XArray; here each bitmap is a node of " .. BITMAP .. " bits."
	end
	return out
end

-- }================================================================

-- {===================== Steps told as one ========================

local function is(ev, name, level, first)
	return ev and ev.event == name and (level == nil or ev.level == level)
		and (first == nil or ev.first == first)
end

local gone_to

-- Where the events of a keyed block's copy or split end: the parent's
-- attach (@i at it) and the old block's node-free and free.
local function block_swapped(events, i)
	local skip = 0
	if is(events[i], "attach", 2) then skip = 1 end
	local f = events[i + skip]
	if is(f, "node-free", 1) then
		skip = skip + 1
		local g = events[i + skip]
		if is(g, "cache-put") or is(g, "free") then
			return skip + 1, g
		end
	end
	return skip, nil
end

-- A keyed block's node-new and what follows it, as one sentence.
local function keyed_said(events, i, kind)
	local ev, a = events[i], events[i + 1]
	local place = is(a, "attach", 2) and (" in slot %d of the %s"):format(
		a.slot, node_name(a)) or ""
	if kind == "new" then
		return { skip = is(a, "attach", 2) and 1 or 0, text = ("A new " ..
			"keyed block %s hangs%s: the lone ID's range gets one small " ..
			"block of sorted keys, not an L1 node and a leaf."):format(
			W.node(ev), place) }
	elseif kind == "copy" then
		local skip, g = block_swapped(events, i + 1)
		local removal = is(events[i - 1], "slot-clear", 0)
		return { skip = skip, text = ("Keyed block %s never changes in " ..
			"place (a reader may be in it): a copy %s takes its " ..
			"place%s, and the old block %s."):format(W.node(ev),
			removal and "without the freed key" or
			"with the new key among its sorted keys", place, gone_to(g)) }
	end
	-- A split or an unkeying: the node, its leaves, then the swap.
	local j, leaves = i + 1, 0
	while is(events[j], "node-new", 0) and is(events[j + 1], "attach", 1) do
		j, leaves = j + 2, leaves + 1
	end
	local at = is(events[j], "attach", 2) and events[j]
	local skip, g = block_swapped(events, j)
	return { skip = j - i + skip - 1, text = ("Keyed block %s gives way: " ..
		"a node %s and %s take its IDs%s, and the old block %s. " ..
		"(A block holds only lone IDs, %d at most: one more, or an " ..
		"allocation that is not a lone ID, brings the node back.)"):format(W.node(ev), W.node(ev), plural(leaves,
		"leaf", "leaves"), at and (", hanging from slot %d of the %s")
		:format(at.slot, node_name(at)) or "", gone_to(g), KEYED_MAX) }
end

-- Whether the tree being told is an RCU idr: its frees wait for readers.
local telling_rcu = false

-- Where a freed node's memory went, from the event after node-free.
gone_to = function(ev)
	local wait = telling_rcu and ", once the readers that may stand in it " ..
		"are done (an RCU grace period)" or ""
	if is(ev, "cache-put") then return "goes to the idr's cache" .. wait end
	if is(ev, "free") then return "goes back to malloc" .. wait end
	return "is freed"
end

-- A few steps read better as one sentence: a node made and attached, a
-- level grown, a node detached and freed, the top removed.  Returns
-- { text, skip = events used after the first } or nil.
combine = function(events, i)
	local ev, a, b, c = events[i], events[i + 1], events[i + 2],
		events[i + 3]
	if is(ev, "node-new", 1) and M.BLOCK[marked[ev]] then
		return keyed_said(events, i, marked[ev])
	end
	if is(ev, "detach") and is(a, "node-free", 1) and marked[a] == "gone" then
		local skip = (is(b, "cache-put") or is(b, "free")) and 2 or 1
		return { skip = skip, text = ("Keyed block %s holds no key now: " ..
			"the %s lets go of it (slot %d), and it %s."):format(W.node(a),
			node_name(ev), ev.slot, gone_to(b)) }
	end
	if is(ev, "node-new") and not ev.aux and is(a, "attach", ev.level,
		ev.first) then
		-- Growing: the new top holds the old one at slot 0.
		local full = is(b, "subtree-full", ev.level, ev.first)
		local g = full and c or b
		if is(g, "grow") then
			return { skip = full and 3 or 2, text = ("The tree grows a " ..
				"level: a new top, %s, holds the old top in its slot 0" ..
				"%s. Height %d."):format(node_name(ev), full and
				" (the old top was full, so slot 0's full bit is set)"
				or "", g.height) }
		end
	end
	-- A packed node with no room moves: a copy takes its place.
	if marked[ev] == "moved" or marked[ev] == "copied" then
		local att = is(a, "attach", ev.level + 1) and a or nil
		local g = att and c or b
		local freed = (is(g, "cache-put") or is(g, "free")) and 1 or 0
		local why = marked[ev] == "moved" and ("%s was packed with no " ..
			"room left: a copy with more room (a bigger block, or a " ..
			"whole node)"):format(cap(node_name(ev))) or ("An RCU idr " ..
			"never changes packed %s in place, as a reader may be in " ..
			"it: a copy with the change"):format(node_name(ev))
		return { skip = (att and 2 or 1) + freed, text = ("%s takes its " ..
			"place%s, and the old block %s."):format(why, att and
			(" in slot %d of the %s"):format(att.slot,
			node_name(att)) or " as the top", gone_to(g)) }
	end
	if is(ev, "node-new") and not ev.aux and is(a, "attach", ev.level + 1) then
		return { skip = 1, text = ("A new %s hangs from slot %d of the " ..
			"%s: the path had no node there."):format(node_name(ev),
			a.slot, node_name(a)) }
	end
	if is(ev, "detach") and is(a, "node-free", ev.level - 1) then
		local skip = (is(b, "cache-put") or is(b, "free")) and 2 or 1
		local after = events[i + 1 + skip]
		if is(after, "shrink") then
			return nil
		end
		return { skip = skip, text = ("%s is empty: the %s lets go of " ..
			"it (slot %d), and it %s."):format(cap(node_name(a)),
			node_name(ev), ev.slot, gone_to(b)) }
	end
	if is(ev, "detach") and ev.slot == 0 and is(a, "node-free", ev.level,
		ev.first) then
		-- Shrinking: the top kept only slot 0.
		local skip = (is(b, "cache-put") or is(b, "free")) and 2 or 1
		local s = events[i + 1 + skip]
		if is(s, "shrink") then
			return { skip = skip + 1, text = ("The top, %s, now holds " ..
				"only slot 0: it %s, and its child, %s, is the new " ..
				"top. Height %d."):format(node_name(ev), gone_to(b),
				node_name(s), s.height) }
		end
	end
	if is(ev, "node-free") and (is(a, "cache-put") or is(a, "free")) then
		local what
		if ev.aux == "gens" then
			what = "The leaf's generation node"
		elseif ev.aux == "bitmap" then
			what = ("The bitmap for IDs %d..%d, now empty,"):format(ev.first,
				ev.last)
		elseif ev.height == 0 then
			what = ("The last node, %s,"):format(node_name(ev))
		else
			what = cap(node_name(ev))
		end
		return { skip = 1, text = ("%s %s."):format(what, gone_to(a)) }
	end
	return nil
end

-- }================================================================

-- {============================ The view ===========================

local function narrate(t, events)
	local st = { shape = M.shape(t) }
	telling_rcu = st.shape.rcu == true
	marked = M.of(events, st.shape)
	local once = {}
	local out = {}
	local function say(text, indent)
		if text then out[#out + 1] = (indent or "  ") .. text end
	end
	local i = 0
	while i < #events do
		i = i + 1
		local ev, e = events[i], events[i].event
		local combined = combine(events, i)
		if combined then
			say(combined.text)
			i = i + combined.skip
		elseif e == "op" then
			if #out > 0 then out[#out + 1] = "" end
			st = { shape = st.shape, op = ev.op, id = ev.id, want = nil,
				kernel_bits = once.kernel_bits }
			local idx
			-- A search that starts below the base starts at index 0,
			-- as the kernel's idr_alloc_u32() and idr_get_next_ul().
			if ev.op == "alloc_cyclic" then
				idx = math.max(index_of(st.shape, cursor_start(ev)), 0)
			elseif SEARCH[ev.op] or ev.op:find("find_first") then
				idx = math.max(index_of(st.shape, ev.start), 0)
			elseif not NEXT[ev.op] and ev.op ~= "pre_get" and
				ev.op ~= "set_cursor" then
				idx = index_of(st.shape, ev.id)
			elseif ev.op:find("get_next") then
				idx = math.max(index_of(st.shape, ev.id), 0)
			end
			st.want, st.args = idx, ev
			say(SAY.op(st, ev), "")
		elseif e == "done" then
			say(result(st, ev))
			say(kernel(ev.op))
			st.op = nil
		elseif SAY[e] then
			say(SAY[e](st, ev))
			once.kernel_bits = st.kernel_bits
		else
			say(told(ev))
		end
	end
	return table.concat(out, "\n") .. (#out > 0 and "\n" or "")
end

-- @events as explain takes them: a list of events, their fields in range
-- (a height of 2^40 would narrate for minutes), or a function to run.
local function events_of(t, events, ...)
	if type(events) == "function" then return t:events(events, ...) end
	if type(events) ~= "table" then
		error("bad argument #1 to 'explain' (a function or a list of " ..
			"events expected, got " .. type(events) .. ")", 3)
	end
	W.told("explain", events, #events)
	return events
end

--- t:explain(events) -> text: the narration of @events (a list from
-- t:events(), or a function to run traced, with its arguments).
function idr_methods:explain(events, ...)
	return narrate(self, events_of(self, events, ...))
end

function ida_methods:explain(events, ...)
	return narrate(self, events_of(self, events, ...))
end

-- }================================================================

return idr
