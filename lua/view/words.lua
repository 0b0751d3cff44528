-- words.lua - the one table that turns a trace event into words.
--
-- Every view that tells events (trace's lines, explain, step, the
-- replay page) words them from here, so that one event reads the same
-- everywhere: its one line, its sentence, its short verb, the node
-- named as the dump names it ("L1 0..4095"), an operation's arguments
-- under the kernel's parameter names, and the kernel function (and the
-- step of it) that does the same thing in Linux 6.1's lib/radix-tree.c
-- and lib/idr.c.  A view asks `view "words"` for this table:
--
--   W.describe(ev) -> { event, verb, node, call, line, text, kernel }
--   W.line(ev), W.text(ev), W.verb(ev), W.node(ev), W.kernel(ev)
--   W.args(ev) -> { { name, value }, ... }; W.call(ev); W.op_kernel(op)
--
-- and, for the shell and Lua users, idr.event_words(ev) = W.describe(ev).
local idr, _, _, view = ...

local G = view "geometry"
local fmt = string.format

local W = {}

-- {======================== Names and numbers ======================

--- W.node(ev) -> "L1 0..4095": the node an event is about, as the dump
-- names it.
function W.node(ev)
	return fmt("L%d %d..%d", ev.level, ev.first, ev.last)
end

-- "leaf L0 0..63", "node L1 0..4095": the node with what it is.
function W.node_kind(ev)
	return (ev.level == 0 and "leaf " or "node ") .. W.node(ev)
end

--- W.slot_ids(ev, slot) -> "ID 5" or "IDs 0..4095": what slot @slot of
-- the event's node covers (an IDA leaf's slot is a bitmap of IDs).
function W.slot_ids(ev, slot)
	local per = (ev.last - ev.first + 1) // G.SLOTS
	local first = ev.first + (slot or ev.slot) * per
	if per == 1 then return "ID " .. first end
	return fmt("IDs %d..%d", first, first + per - 1)
end

local function nodes_text(n)
	return n == 1 and "1 node" or n .. " nodes"
end

-- }================================================================

-- {====================== An operation's arguments =================

-- Each operation's arguments, under the kernel's parameter names, and
-- the field of the op event holding each; an operation not named here
-- takes an ID.
local FIELD = { start = "start", ["end"] = "end", nextid = "start",
	max = "end", cursor = "id", starting_id = "start", min = "start",
	id = "id" }
local ARGS = {
	alloc = { "start", "end" }, alloc_tagged = { "start", "end" },
	alloc_u32 = { "nextid", "max" },
	alloc_cyclic = { "start", "end", "cursor" },
	get_new_above = { "starting_id" },
	ida_alloc_range = { "min", "max" },
	ida_find_first_range = { "min", "max" },
	pre_get = {}, get_new = {}, for_each = {}, ida_count = {},
}

--- W.args(ev) -> { { name, value }, ... }: an "op" event's arguments.
function W.args(ev)
	local list = {}
	for _, name in ipairs(ARGS[ev.op] or { "id" }) do
		local v = ev[FIELD[name]]
		if v ~= nil then list[#list + 1] = { name, v } end
	end
	return list
end

local function args_joined(ev, eq, sep)
	local parts = {}
	for i, a in ipairs(W.args(ev)) do parts[i] = a[1] .. eq .. a[2] end
	return table.concat(parts, sep)
end

--- W.call(ev) -> "idr_alloc(start 0, end 0)": an "op" event as the
-- call it reports, with its arguments.
function W.call(ev)
	local op = tostring(ev.op)
	return (op:find("^ida_") and op or "idr_" .. op) .. "(" ..
		args_joined(ev, " ", ", ") .. ")"
end

-- The kernel's call chain of each operation, from the call down to the
-- function that walks the tree.
local OP_KERNEL = {
	alloc = "idr_alloc() -> idr_alloc_u32() -> idr_get_free()",
	alloc_u32 = "idr_alloc_u32() -> idr_get_free()",
	alloc_cyclic = "idr_alloc_cyclic() -> idr_alloc_u32() -> idr_get_free()",
	find = "idr_find() -> radix_tree_lookup()",
	remove = "idr_remove() -> radix_tree_delete_item()",
	replace = "idr_replace() -> __radix_tree_lookup(), __radix_tree_replace()",
	get_next = "idr_get_next() -> idr_get_next_ul() -> radix_tree_iter_find()",
	get_next_ul = "idr_get_next_ul() -> radix_tree_iter_find()",
	for_each = "idr_for_each() -> radix_tree_for_each_slot()",
	pre_get = "idr_pre_get() (2.6.8-2.6.10) filled idp->id_free; " ..
		"today idr_preload()",
	get_new = "idr_get_new() -> idr_get_new_above_int() -> sub_alloc() " ..
		"(2.6.8-2.6.10); today idr_alloc()",
	get_new_above = "idr_get_new_above() -> sub_alloc() (2.6.8-2.6.10); " ..
		"today idr_alloc()",
	ida_alloc_range = "ida_alloc_range() -> xas_find_marked(XA_FREE_MARK)",
	ida_free = "ida_free() -> xas_load(), then xas_store(NULL) " ..
		"of an empty bitmap",
	ida_exists = "ida_exists() -> xa_load()",
	ida_find_first_range = "ida_find_first_range() -> xas_find()",
}

local OWN = "none: this library's own"

--- W.op_kernel(op) -> text: the kernel's calls doing operation @op, or
-- nil when the kernel has no such operation.
function W.op_kernel(op)
	if tostring(op):find("tag") then
		return OWN .. " (the kernel has no tagged IDs)"
	end
	return OP_KERNEL[op]
end

-- }================================================================

-- {======================= The table of events =====================

--[[
One row an event kind:
  verb    a few words, for a list or a picture's caption;
  text    fn(ev) -> the sentence (step's, the page's, explain's when it
          has nothing to add);
  kernel  the kernel function doing this step, and what it does there
          (a function of the event when it depends on it);
  height  trace's one line shows the tree's height after it.
]]

local EVENTS = {
	op = {
		verb = "operation begins",
		text = function(e)
			local a = args_joined(e, " ", ", ")
			return fmt("%s begins%s", tostring(e.op),
				a ~= "" and " (" .. a .. ")" or "")
		end,
		kernel = function(e)
			return (W.op_kernel(e.op) or OWN) .. ": called"
		end,
	},
	done = {
		verb = "operation over",
		text = function(e)
			if e.errno then
				return fmt("%s is over: it fails with %s",
					tostring(e.op), e.errno)
			end
			return fmt("%s is over: it returns %s", tostring(e.op),
				tostring(e.result))
		end,
		kernel = function(e)
			return (W.op_kernel(e.op) or OWN) .. ": returns"
		end,
	},
	visit = {
		verb = "goes down",
		text = function(e)
			return fmt("the way down goes through %s and takes its " ..
				"slot %d (%s)", W.node(e), e.slot, W.slot_ids(e))
		end,
		kernel = "radix_tree_descend(): the slot of this level's digit " ..
			"(idr_get_free() takes it if its IDR_FREE tag is set)",
	},
	["no-room"] = {
		verb = "no room: back up",
		text = function(e)
			return fmt("%s has no free slot at or after slot %d: back " ..
				"up to the parent's next slot (at the top: grow)",
				W.node(e), e.slot)
		end,
		kernel = "idr_get_free(): radix_tree_find_next_bit(IDR_FREE) " ..
			"finds no tagged slot: up to node->parent (at the top: " ..
			"radix_tree_extend())",
	},
	malloc = {
		verb = "nodes from malloc",
		text = function(e)
			return nodes_text(e.nodes) .. " allocated for this operation"
		end,
		kernel = "radix_tree_node_alloc() -> " ..
			"kmem_cache_alloc(radix_tree_node_cachep)",
	},
	["cache-take"] = {
		verb = "nodes from the cache",
		text = function(e)
			return nodes_text(e.nodes) .. " taken from the idr's cache"
		end,
		kernel = "alloc_layer() (2.6.8-2.6.10): from idp->id_free, " ..
			"filled by idr_pre_get(); today radix_tree_node_alloc() " ..
			"takes from radix_tree_preloads",
	},
	["preload-take"] = {
		verb = "nodes from the preload",
		text = function(e)
			return nodes_text(e.nodes) .. " taken from this thread's preload"
		end,
		kernel = "radix_tree_node_alloc(): from this CPU's " ..
			"radix_tree_preloads, filled by idr_preload()",
	},
	["node-new"] = {
		verb = "new node",
		text = function(e)
			if e.aux == "bitmap" then
				return fmt("a new bitmap for IDs %d..%d hangs at slot %d " ..
					"of its leaf", e.first, e.last, e.slot)
			elseif e.aux == "gens" then
				return fmt("leaf %s gets its generation counters",
					W.node(e))
			end
			return fmt("a new %s joins the tree", W.node_kind(e))
		end,
		kernel = function(e)
			if e.aux == "bitmap" then
				return "ida_alloc_range(): kzalloc() of a struct " ..
					"ida_bitmap, then xas_store()"
			elseif e.aux == "gens" then
				return OWN .. " (generation counters)"
			end
			return "radix_tree_node_alloc(): idr_get_free() makes the " ..
				"missing child, all IDR_FREE tags set"
		end,
	},
	attach = {
		verb = "child attached",
		text = function(e)
			return fmt("slot %d of %s now holds a child (the node just " ..
				"made, or the old top when growing)", e.slot, W.node(e))
		end,
		kernel = "idr_get_free(): rcu_assign_pointer(*slot, " ..
			"node_to_entry(child))",
	},
	grow = {
		verb = "tree grows",
		text = function(e)
			return fmt("a level is added on top: %s holds the old top " ..
				"at slot 0 (height %d)", W.node(e), e.height)
		end,
		kernel = "radix_tree_extend(): a new root node holds the old " ..
			"one in slot 0, its tags copied",
		height = true,
	},
	detach = {
		verb = "child detached",
		text = function(e)
			return fmt("slot %d of %s no longer holds a child",
				e.slot, W.node(e))
		end,
		kernel = "delete_node(): parent->slots[offset] = NULL",
	},
	shrink = {
		verb = "tree shrinks",
		text = function(e)
			return fmt("the top held only slot 0: it is gone and %s " ..
				"is the top (height %d)", W.node(e), e.height)
		end,
		kernel = "radix_tree_shrink(): the root holds only slot 0: " ..
			"its child becomes the root",
		height = true,
	},
	["node-free"] = {
		verb = "node leaves",
		text = function(e)
			if e.aux == "bitmap" then
				return fmt("the bitmap for IDs %d..%d is freed", e.first,
					e.last)
			elseif e.aux == "gens" then
				return fmt("leaf %s's generation counters go with it",
					W.node(e))
			end
			return fmt("%s leaves the tree", W.node_kind(e))
		end,
		kernel = function(e)
			if e.aux == "bitmap" then
				return "ida_free(): bitmap_empty(): kfree(bitmap)"
			elseif e.aux == "gens" then
				return OWN .. " (generation counters)"
			end
			return "delete_node() -> radix_tree_node_free(): freed by " ..
				"call_rcu() after a grace period"
		end,
	},
	["cache-put"] = {
		verb = "memory to the cache",
		text = function()
			return "its memory goes to the idr's cache, for a later " ..
				"insertion"
		end,
		kernel = "free_layer() (2.6.8-2.6.10): onto idp->id_free; " ..
			"today's idr keeps no cache of its own",
	},
	free = {
		verb = "memory to malloc",
		text = function()
			return "its memory goes back to the allocator"
		end,
		kernel = "radix_tree_node_rcu_free() -> " ..
			"kmem_cache_free(radix_tree_node_cachep)",
	},
	pack = {
		verb = "leaf packed",
		text = function(e)
			return fmt("leaf %s is packed into a smaller block", W.node(e))
		end,
		kernel = OWN .. " (the kernel's nodes always have 64 slots)",
	},
	["slot-set"] = {
		verb = "slot takes an entry",
		text = function(e)
			if e.last - e.first + 1 > G.SLOTS then
				return fmt("leaf slot %d now holds the bitmap for %s",
					e.slot, W.slot_ids(e))
			end
			return fmt("leaf slot %d (%s) now holds an entry", e.slot,
				W.slot_ids(e))
		end,
		kernel = function(e)
			if e.last - e.first + 1 > G.SLOTS then
				return "ida_alloc_range(): xas_store(&xas, bitmap)"
			end
			return "idr_alloc_u32() -> radix_tree_iter_replace(): the " ..
				"slot idr_get_free() returned takes the pointer"
		end,
	},
	["slot-clear"] = {
		verb = "slot emptied",
		text = function(e)
			if e.last - e.first + 1 > G.SLOTS then
				return fmt("leaf slot %d lets go of the bitmap for %s",
					e.slot, W.slot_ids(e))
			end
			return fmt("leaf slot %d (%s) is freed", e.slot, W.slot_ids(e))
		end,
		kernel = function(e)
			if e.last - e.first + 1 > G.SLOTS then
				return "ida_free(): xas_store(&xas, NULL)"
			end
			return "radix_tree_delete_item() -> __radix_tree_delete(): " ..
				"replace_slot(NULL)"
		end,
	},
	full = {
		verb = "slot full",
		text = function(e)
			return fmt("leaf slot %d's full bit is set: the slot is used",
				e.slot)
		end,
		kernel = "radix_tree_iter_tag_clear(IDR_FREE) -> " ..
			"node_tag_clear(): the kernel clears a free tag where this " ..
			"tree sets a full bit",
	},
	open = {
		verb = "slot free",
		text = function(e)
			return fmt("leaf slot %d's full bit is cleared: the slot is " ..
				"free", e.slot)
		end,
		kernel = "__radix_tree_delete(): node_tag_set(IDR_FREE): the " ..
			"kernel sets a free tag where this tree clears a full bit",
	},
	["subtree-full"] = {
		verb = "subtree full",
		text = function(e)
			return fmt("slot %d of %s: its full bit is set: the subtree " ..
				"below is full", e.slot, W.node(e))
		end,
		kernel = "node_tag_clear(): the child has no IDR_FREE tag " ..
			"left, so its slot in the parent loses it too",
	},
	["subtree-open"] = {
		verb = "subtree has room",
		text = function(e)
			return fmt("slot %d of %s: its full bit is cleared: the " ..
				"subtree below has room again", e.slot, W.node(e))
		end,
		kernel = "node_tag_set(): IDR_FREE set on each parent's slot " ..
			"on the way up, until one has it already",
	},
	["bit-set"] = {
		verb = "ID's bit set",
		text = function(e)
			return fmt("bit %d of the bitmap of %d..%d is set: ID %d " ..
				"is taken", e.slot, e.first, e.last, e.first + e.slot)
		end,
		kernel = "ida_alloc_range(): __set_bit(bit, bitmap->bitmap)",
	},
	["bit-clear"] = {
		verb = "ID's bit cleared",
		text = function(e)
			return fmt("bit %d of the bitmap of %d..%d is cleared: ID %d " ..
				"is free", e.slot, e.first, e.last, e.first + e.slot)
		end,
		kernel = "ida_free(): __clear_bit(bit, bitmap->bitmap)",
	},
	["bitmap-full"] = {
		verb = "bitmap full",
		text = function(e)
			return fmt("leaf slot %d's full bit is set: its bitmap is " ..
				"full", e.slot)
		end,
		kernel = "ida_alloc_range(): bitmap_full(): " ..
			"xas_clear_mark(XA_FREE_MARK)",
	},
	["bitmap-open"] = {
		verb = "bitmap has room",
		text = function(e)
			return fmt("leaf slot %d's full bit is cleared: its bitmap " ..
				"has room again", e.slot)
		end,
		kernel = "ida_free(): xas_set_mark(XA_FREE_MARK)",
	},
}

W.EVENTS = EVENTS

local function row(ev)
	local r = EVENTS[ev.event]
	if not r then
		error("no words for the event '" .. tostring(ev.event) .. "'", 3)
	end
	return r
end

--- W.text(ev) -> the sentence that tells event @ev.
function W.text(ev)
	return row(ev).text(ev)
end

--- W.verb(ev) -> a few words: "new node", "tree grows".
function W.verb(ev)
	return row(ev).verb
end

--- W.kernel(ev) -> "function(): the step of it" doing @ev in Linux.
function W.kernel(ev)
	local k = row(ev).kernel
	return type(k) == "function" and k(ev) or k
end

-- The fields of trace's line, those an event has, after its name.
local LINE_FIELDS = { "level", "first", "last", "slot", "nodes", "aux" }

--- W.line(ev) -> "visit level=0 first=0 last=63 slot=1": the event's
-- name and its fields on one line, as trace prints it.
function W.line(ev)
	local r = row(ev)
	if ev.event == "op" then
		local a = args_joined(ev, "=", " ")
		return "op " .. tostring(ev.op) .. (a ~= "" and " " .. a or "")
	elseif ev.event == "done" then
		return "done " .. tostring(ev.op) .. " result=" ..
			tostring(ev.result) .. (ev.errno and " errno=" .. ev.errno or "")
	end
	local parts = { ev.event }
	for _, k in ipairs(LINE_FIELDS) do
		if ev[k] ~= nil then parts[#parts + 1] = k .. "=" .. tostring(ev[k]) end
	end
	if r.height and ev.height then
		parts[#parts + 1] = "height=" .. tostring(ev.height)
	end
	return table.concat(parts, " ")
end

--- W.describe(ev) -> { event, verb, node, call, line, text, kernel }:
-- all the words of one event, for a view that shows several (the replay
-- page).  node is nil for an event about no node, call for any but "op".
function W.describe(ev)
	return { event = ev.event, verb = W.verb(ev),
		node = ev.level and ev.first and W.node(ev) or nil,
		call = ev.event == "op" and W.call(ev) or nil,
		line = W.line(ev), text = W.text(ev), kernel = W.kernel(ev) }
end

--- idr.event_words(ev) -> W.describe(ev): for the shell and Lua users.
function idr.event_words(ev)
	if type(ev) ~= "table" then
		error("bad argument #1 to 'event_words' (table expected, got " ..
			type(ev) .. ")", 2)
	end
	return W.describe(ev)
end

-- }================================================================

return W
