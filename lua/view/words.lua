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
--   W.line(ev), W.text(ev, mark), W.verb(ev), W.node(ev),
--   W.kernel(ev, op_ev, mark): @mark what marks.lua found @ev to be
--   W.args(ev) -> { { name, value }, ... }; W.call(ev); W.op_kernel(op)
--
-- and, for the shell and Lua users, idr.event_words(ev) = W.describe(ev).
local idr, _, _, view = ...

local G = view "geometry"
local O = view "options"
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
	alloc_cyclic = { "start", "end", "cursor" }, set_cursor = { "cursor" },
	get_new_above = { "starting_id" },
	ida_alloc_range = { "min", "max" },
	ida_find_first_range = { "min", "max" },
	pre_get = {}, get_new = {}, for_each = {}, ida_count = {},
	destroy = {}, ida_destroy = {},
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

--- W.told(name, list, n): raise unless the first @n events of @list can
-- be told: O.told()'s fields, and each "op" event's arguments.
function W.told(name, list, n)
	O.told(name, list, n)
	for i = 1, n do
		local ev = list[i]
		if ev.event == "op" then
			for _, arg in ipairs(ARGS[ev.op] or { "id" }) do
				if ev[FIELD[arg]] == nil then
					O.bad(name, ("event %d (op %s) has no %s"):format(i,
						ev.op, FIELD[arg]))
				end
			end
		end
	end
end

--- W.call(ev) -> "idr_alloc(start 0, end 0)": an "op" event as the
-- call it reports, with its arguments.
function W.call(ev)
	local op = tostring(ev.op)
	return (op:find("^ida_") and op or "idr_" .. op) .. "(" ..
		args_joined(ev, " ", ", ") .. ")"
end

-- The kernel's call chain of each operation, from the call down to the
-- function that walks the tree (Linux 6.1; the 2004 API's as it was in
-- 2.6.8-2.6.10).
local OP_KERNEL = {
	alloc = "idr_alloc() -> idr_alloc_u32() -> idr_get_free()",
	alloc_u32 = "idr_alloc_u32() -> idr_get_free()",
	alloc_cyclic = "idr_alloc_cyclic() -> idr_alloc_u32() -> idr_get_free()",
	set_cursor = "idr_set_cursor(): a store to idr->idr_next, nothing more",
	find = "idr_find() -> radix_tree_lookup()",
	remove = "idr_remove() -> radix_tree_delete_item()",
	replace = "idr_replace() -> __radix_tree_lookup(), __radix_tree_replace()",
	get_next = "idr_get_next() -> idr_get_next_ul() -> " ..
		"radix_tree_for_each_slot()",
	get_next_ul = "idr_get_next_ul() -> radix_tree_for_each_slot()",
	for_each = "idr_for_each() -> radix_tree_for_each_slot()",
	pre_get = "idr_pre_get() (2.6.8-2.6.10) filled idp->id_free; " ..
		"today idr_preload()",
	get_new = "idr_get_new() -> idr_get_new_above_int() -> sub_alloc() " ..
		"(2.6.8-2.6.10); today idr_alloc()",
	get_new_above = "idr_get_new_above() -> sub_alloc() (2.6.8-2.6.10); " ..
		"today idr_alloc()",
	ida_alloc_range = "ida_alloc_range() -> xas_find_marked(XA_FREE_MARK)",
	ida_free = "ida_free() -> xas_load(), __clear_bit(); an empty " ..
		"bitmap: kfree() and xas_store(NULL)",
	ida_exists = "xa_load() (ida_exists, added to the kernel after 6.1)",
	ida_find_first_range = "xas_find() (ida_find_first_range, added to " ..
		"the kernel after 6.1)",
	destroy = "idr_destroy() -> radix_tree_free_nodes()",
	ida_destroy = "ida_destroy() -> xas_for_each(), kfree() of each " ..
		"bitmap, xas_store(NULL)",
	unalloc = "idr_remove() -> radix_tree_delete_item() (unalloc, which " ..
		"keeps a tagged slot's generation, is this library's own)",
	alloc_tagged = "idr_alloc() -> idr_get_free() for the ID",
	remove_tagged = "idr_remove() -> radix_tree_delete_item() for the ID",
	find_tagged = "idr_find() -> radix_tree_lookup() for the ID",
	tag_check = "idr_find() -> radix_tree_lookup() for the ID",
}

local OWN = "none: this library's own"
local NO_TAGS = " (its generation, the tagged ID's top bits, is this " ..
	"library's own)"

--- W.op_kernel(op) -> text: the kernel's calls doing operation @op, or
-- nil when the kernel has no such operation.
function W.op_kernel(op)
	local k = OP_KERNEL[op]
	if tostring(op):find("tag") then
		return k and k .. NO_TAGS or OWN .. " (the kernel has no tagged IDs)"
	end
	return k
end

-- }================================================================

-- The operations' families.
local FAMILY = { alloc = "alloc", alloc_u32 = "alloc",
	alloc_cyclic = "alloc", get_new = "alloc", get_new_above = "alloc",
	alloc_tagged = "alloc", pre_get = "alloc",
	find = "find", find_tagged = "find", tag_check = "find",
	replace = "replace", get_next = "iter", get_next_ul = "iter",
	for_each = "iter", remove = "remove", remove_tagged = "remove",
	unalloc = "remove", destroy = "destroy", ida_destroy = "destroy",
	ida_alloc_range = "ida_alloc", ida_free = "ida_free",
	ida_exists = "ida_find", ida_find_first_range = "ida_find",
	ida_count = "ida_find", set_cursor = "cursor" }

-- What a "done" event's result is: the operation's ID, which only the
-- allocations return; a lookup or removal returns the entry it found.
local OUTCOME = {
	find = "found %s: it returns its entry",
	replace = "%s's entry replaced: it returns the old one",
	iter = "the next in use is %s: it returns its entry",
	remove = "%s removed: it returns the entry it held",
	cursor = "the cursor is set: it returns nothing",
	destroy = "every ID given back, every node freed (untraced, all at once)",
}

local function outcome(e)
	local id = "ID " .. tostring(e.result)
	if tostring(e.op):find("tag") then id = "tagged " .. id end
	local f = OUTCOME[FAMILY[e.op]]
	if f and e.op ~= "tag_check" then return fmt(f, id) end
	return "it returns " .. tostring(e.result)
end

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
			return fmt("%s is over: %s", tostring(e.op), outcome(e))
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
	},
	["no-room"] = {
		verb = "no room: back up",
		text = function(e)
			return fmt("%s has no free slot at or after slot %d: back " ..
				"up to the parent's next slot (at the top: grow)",
				W.node(e), e.slot)
		end,
	},
	malloc = {
		verb = "nodes from malloc",
		text = function(e)
			return nodes_text(e.nodes) .. " allocated for this operation"
		end,
	},
	["cache-take"] = {
		verb = "nodes from the cache",
		text = function(e)
			return nodes_text(e.nodes) .. " taken from the idr's cache"
		end,
	},
	["preload-take"] = {
		verb = "nodes from the preload",
		text = function(e)
			return nodes_text(e.nodes) .. " taken from this thread's preload"
		end,
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
	},
	attach = {
		verb = "child attached",
		text = function(e)
			return fmt("slot %d of %s now holds a child (the node just " ..
				"made, or the old top when growing)", e.slot, W.node(e))
		end,
	},
	grow = {
		verb = "tree grows",
		text = function(e)
			return fmt("a level is added on top: %s holds the old top " ..
				"at slot 0 (height %d)", W.node(e), e.height)
		end,
		height = true,
	},
	detach = {
		verb = "child detached",
		text = function(e)
			return fmt("slot %d of %s no longer holds a child",
				e.slot, W.node(e))
		end,
	},
	shrink = {
		verb = "tree shrinks",
		text = function(e)
			return fmt("the top held only slot 0: it is gone and %s " ..
				"is the top (height %d)", W.node(e), e.height)
		end,
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
	},
	["cache-put"] = {
		verb = "memory to the cache",
		text = function()
			return "its memory goes to the idr's cache, for a later " ..
				"insertion"
		end,
	},
	free = {
		verb = "memory to malloc",
		text = function()
			return "its memory goes back to the allocator"
		end,
	},
	pack = {
		verb = "leaf packed",
		text = function(e)
			return fmt("leaf %s is packed into a smaller block", W.node(e))
		end,
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
	},
	full = {
		verb = "slot full",
		text = function(e)
			return fmt("leaf slot %d's full bit is set: the slot is used",
				e.slot)
		end,
	},
	open = {
		verb = "slot free",
		text = function(e)
			return fmt("leaf slot %d's full bit is cleared: the slot is " ..
				"free", e.slot)
		end,
	},
	["subtree-full"] = {
		verb = "subtree full",
		text = function(e)
			return fmt("slot %d of %s: its full bit is set: the subtree " ..
				"below is full", e.slot, W.node(e))
		end,
	},
	["subtree-open"] = {
		verb = "subtree has room",
		text = function(e)
			return fmt("slot %d of %s: its full bit is cleared: the " ..
				"subtree below has room again", e.slot, W.node(e))
		end,
	},
	["bit-set"] = {
		verb = "ID's bit set",
		text = function(e)
			return fmt("bit %d of the bitmap of %d..%d is set: ID %d " ..
				"is taken", e.slot, e.first, e.last, e.first + e.slot)
		end,
	},
	["bit-clear"] = {
		verb = "ID's bit cleared",
		text = function(e)
			return fmt("bit %d of the bitmap of %d..%d is cleared: ID %d " ..
				"is free", e.slot, e.first, e.last, e.first + e.slot)
		end,
	},
	["bitmap-full"] = {
		verb = "bitmap full",
		text = function(e)
			return fmt("leaf slot %d's full bit is set: its bitmap is " ..
				"full", e.slot)
		end,
	},
	["bitmap-open"] = {
		verb = "bitmap has room",
		text = function(e)
			return fmt("leaf slot %d's full bit is cleared: its bitmap " ..
				"has room again", e.slot)
		end,
	},
}

W.EVENTS = EVENTS

-- The "op" event worded last: the operation of the events after it,
-- until its "done".
local last_op = {}

local function row(ev)
	local r = EVENTS[ev.event]
	if not r then
		error("no words for the event '" .. tostring(ev.event) .. "'", 3)
	end
	if ev.event == "op" then last_op = ev end
	if ev.event == "done" then last_op = {} end
	return r
end

-- {================ Events an operation's others mark ===============
-- What marks.lua finds in an operation's events, which no one event
-- says: words that take the place of EVENTS' for those events.

-- The kernel's step for a marked node-new or node-free: the kernel has
-- no keyed blocks, and its nodes are never packed.
local NO_KEYED = " (the kernel has no keyed blocks)"
local MARKED_KERNEL = {
	new = "idr_get_free(): radix_tree_node_alloc() makes the missing " ..
		"L1 node, then its leaf" .. NO_KEYED,
	gone = "delete_node() -> radix_tree_node_free(): the leaf, then " ..
		"the L1 node" .. NO_KEYED,
	copy = OWN .. NO_KEYED .. ": its leaf changes in place",
	split = OWN .. NO_KEYED .. ": its L1 node and leaves are there " ..
		"already",
	moved = OWN .. " (the kernel's nodes always have 64 slots)",
	copied = OWN .. " (the kernel's nodes always have 64 slots, and " ..
		"change in place)",
}

-- An attach told by what it hangs from the slot: @what, or what(e).
local function hangs(what)
	return function(e)
		return fmt("slot %d of %s now holds %s (%s)", e.slot, W.node(e),
			type(what) == "function" and what(e) or what, W.slot_ids(e))
	end
end

-- A new node's attach, a split's leaf's too.
local just_made = hangs(function(e)
	return (e.level == 1 and "the leaf" or "the node") .. " just made"
end)

local MARKED = {
	block = {
		visit = function(e)
			if e.level > 0 then
				return fmt("the way down goes through keyed block %s and " ..
					"takes its slot %d (%s)", W.node(e), e.slot,
					W.slot_ids(e))
			end
			return fmt("the way down reaches run %s of the keyed block " ..
				"(no leaf) and its slot %d (%s)", W.node(e), e.slot,
				W.slot_ids(e))
		end,
	},
	run = {
		["slot-set"] = function(e)
			return fmt("%s joins the keyed block's sorted keys (slot %d " ..
				"of its run %s: no leaf)", W.slot_ids(e), e.slot, W.node(e))
		end,
		["slot-clear"] = function(e)
			return fmt("%s leaves the keyed block's sorted keys (slot " ..
				"%d of its run %s: no leaf)", W.slot_ids(e), e.slot,
				W.node(e))
		end,
	},
	new = {
		attach = hangs("the new keyed block"),
		["node-new"] = function(e)
			return fmt("a new keyed block %s joins the tree: a lone ID's " ..
				"range gets one small block of sorted keys, not an L1 " ..
				"node and a leaf", W.node(e))
		end,
	},
	keys = {
		["node-new"] = function(e)
			return fmt("a new leaf %s joins the tree, with the keyed " ..
				"block's IDs of its range", W.node(e))
		end,
		attach = just_made,
	},
	made = { attach = just_made },
	top = {
		attach = function(e)
			return fmt("slot 0 of %s, the new top, now holds the old top " ..
				"(%s)", W.node(e), W.slot_ids(e))
		end,
	},
	copy = {
		attach = hangs("the keyed block's copy, in the old block's place"),
		["node-new"] = function(e)
			return fmt("a copy of keyed block %s is made with the keys it " ..
				"is to hold: a block is as big as its keys, and on an RCU " ..
				"idr a reader may be in the old one", W.node(e))
		end,
		["node-free"] = function(e)
			return fmt("the old keyed block %s leaves the tree: its copy " ..
				"took its place", W.node(e))
		end,
	},
	gone = {
		["node-free"] = function(e)
			return fmt("keyed block %s holds no key now and leaves the " ..
				"tree", W.node(e))
		end,
	},
	split = {
		attach = hangs("the new node, in the keyed block's place"),
		["node-new"] = function(e)
			return fmt("a node %s is made, with leaves, to take the " ..
				"keyed block's IDs: a block holds only a few lone IDs",
				W.node(e))
		end,
		["node-free"] = function(e)
			return fmt("the keyed block %s leaves the tree: an L1 node " ..
				"and its leaves took its IDs", W.node(e))
		end,
	},
	moved = {
		attach = hangs("the bigger copy, in the old block's place"),
		["node-new"] = function(e)
			return fmt("%s was packed with no room left: a copy with more " ..
				"room (a bigger block, or a whole node) is made to take " ..
				"its place", W.node_kind(e))
		end,
		["node-free"] = function(e)
			return fmt("the old block of %s leaves the tree: its copy " ..
				"took its place", W.node_kind(e))
		end,
	},
	copied = {
		attach = hangs("the copy, in the old block's place; a reader " ..
			"still in the old block reads it as it was"),
		["node-new"] = function(e)
			return fmt("an RCU idr never changes packed %s in place, as " ..
				"a reader may be in it: a copy with the change is made " ..
				"to take its place", W.node_kind(e))
		end,
		["node-free"] = function(e)
			return fmt("the old block of %s leaves the tree, freed once " ..
				"its readers are done: its copy took its place",
				W.node_kind(e))
		end,
	},
}

-- The words marked @mark put in place of @ev's own, or nil.
local function marked(ev, mark)
	return mark and MARKED[mark] and MARKED[mark][ev.event]
end

-- }================================================================

--- W.text(ev[, mark]) -> the sentence that tells event @ev; @mark: what
-- marks.lua found the event to be (M.of(events)[ev]), if anything.
function W.text(ev, mark)
	local r = row(ev)
	local m = marked(ev, mark)
	return m and m(ev) or r.text(ev)
end

--- W.verb(ev) -> a few words: "new node", "tree grows".
function W.verb(ev)
	return row(ev).verb
end

-- {================ The kernel's step, by operation =================
-- One event kind is done by different kernel code in different
-- operations: a visit is idr_get_free()'s in an allocation,
-- __radix_tree_lookup()'s in a lookup or removal, the XArray's in an
-- IDA.  Linux 6.1's lib/idr.c, lib/radix-tree.c and lib/xarray.c.

local VISIT = {
	alloc = "idr_get_free(): radix_tree_descend() to this level's " ..
		"slot, taken if its IDR_FREE tag is set",
	find = "radix_tree_lookup() -> __radix_tree_lookup(): " ..
		"radix_tree_descend() to this level's slot",
	replace = "idr_replace() -> __radix_tree_lookup(): " ..
		"radix_tree_descend() to this level's slot",
	iter = "radix_tree_for_each_slot() -> radix_tree_next_chunk(): " ..
		"down to the next slot in use",
	remove = "radix_tree_delete_item() -> __radix_tree_lookup(): " ..
		"radix_tree_descend() to this level's slot",
	ida_alloc = "xas_find_marked(XA_FREE_MARK) -> xas_descend(): down " ..
		"to a slot marked free",
	ida_free = "xas_load() -> xas_descend(): this level's slot",
	ida_find = "xas_find() -> xas_descend(): this level's slot",
}

-- Whether @ev is about a level the operation grew: above the top when
-- it began, and the top at the event (each event carries the height
-- then), not a child made below a new top.  Not the first node of an
-- empty tree either, which the walk down makes.
local function above_old_top(ev, op)
	local h = op.height or 0
	return h > 0 and ev.level ~= nil and ev.level + 1 > h and
		ev.level + 1 == ev.height
end

local KERNEL = {
	visit = function(_, fam)
		return VISIT[fam] or VISIT.find
	end,
	["no-room"] = function(_, _, ida)
		if ida then
			return "xas_find_marked(XA_FREE_MARK) finds no marked slot " ..
				"in this node and goes on in the parent's next (past " ..
				"the end: xas_store() -> xas_expand() grows the array)"
		end
		return "idr_get_free(): radix_tree_find_next_bit(IDR_FREE) " ..
			"finds no tagged slot: up to node->parent (at the top: " ..
			"radix_tree_extend())"
	end,
	malloc = function(_, _, ida)
		if ida then
			return "xas_alloc() -> kmem_cache_alloc_lru(" ..
				"radix_tree_node_cachep); a bitmap: kzalloc()"
		end
		return "radix_tree_node_alloc() -> " ..
			"kmem_cache_alloc(radix_tree_node_cachep)"
	end,
	["cache-take"] = function()
		return "alloc_layer() (2.6.8-2.6.10): from idp->id_free, " ..
			"filled by idr_pre_get(); today radix_tree_node_alloc() " ..
			"takes from radix_tree_preloads"
	end,
	["preload-take"] = function()
		return "radix_tree_node_alloc(): from this CPU's " ..
			"radix_tree_preloads, filled by idr_preload()"
	end,
	["node-new"] = function(ev, _, ida, grown)
		if ev.aux == "bitmap" then
			return "ida_alloc_range(): kzalloc() of a struct ida_bitmap"
		elseif ev.aux == "gens" then
			return OWN .. " (generation counters)"
		elseif ida then
			return grown and "xas_expand(): xas_alloc() makes a new head " ..
				"node" or "xas_create(): xas_alloc() makes the missing node"
		end
		return grown and "radix_tree_extend(): radix_tree_node_alloc() " ..
			"makes a new root node, all_tag_set(IDR_FREE)" or
			"idr_get_free(): radix_tree_node_alloc() makes the missing " ..
			"child, all_tag_set(IDR_FREE)"
	end,
	attach = function(ev, _, ida, grown)
		grown = grown and ev.slot == 0
		if ida then
			return grown and "xas_expand(): node->slots[0] = the old " ..
				"head, then rcu_assign_pointer(xa->xa_head)" or
				"xas_create(): rcu_assign_pointer(*slot, xa_mk_node(node))"
		end
		return grown and "radix_tree_extend(): node->slots[0] = the " ..
			"old root, then rcu_assign_pointer(root->xa_head)" or
			"idr_get_free(): rcu_assign_pointer(*slot, node_to_entry(child))"
	end,
	grow = function(_, _, ida)
		if ida then
			return "xas_expand(): a new head node holds the old one " ..
				"in slot 0, its marks copied"
		end
		return "radix_tree_extend(): a new root node holds the old " ..
			"one in slot 0, its tags copied"
	end,
	detach = function(_, _, ida)
		if ida then
			return "xas_delete_node(): parent->slots[offset] = NULL " ..
				"(the top's slot 0: xas_shrink())"
		end
		return "delete_node(): parent->slots[node->offset] = NULL " ..
			"(the top's slot 0: radix_tree_shrink())"
	end,
	shrink = function(_, _, ida)
		if ida then
			return "xas_shrink(): the head holds only slot 0: its child " ..
				"becomes the head"
		end
		return "radix_tree_shrink(): the root holds only slot 0: " ..
			"its child becomes the root"
	end,
	["node-free"] = function(ev, _, ida, _, top)
		if ev.aux == "bitmap" then
			return "ida_free(): bitmap_empty(): kfree(bitmap)"
		elseif ev.aux == "gens" then
			return OWN .. " (generation counters)"
		elseif ida then
			return (top and "xas_shrink()" or "xas_delete_node()") ..
				" -> xa_node_free(): call_rcu(radix_tree_node_rcu_free)"
		end
		return (top and "radix_tree_shrink()" or "delete_node()") ..
			" -> radix_tree_node_free(): freed by call_rcu() after a " ..
			"grace period"
	end,
	["cache-put"] = function(ev, _, ida)
		if ida or ev.aux == "bitmap" then
			return "kfree() or radix_tree_node_rcu_free(): the kernel " ..
				"keeps no cache; this library keeps the block for a " ..
				"later allocation"
		end
		return "free_layer() (2.6.8-2.6.10): onto idp->id_free; " ..
			"today's idr keeps no cache of its own"
	end,
	free = function(ev)
		if ev.aux == "bitmap" then return "kfree(bitmap)" end
		return "radix_tree_node_rcu_free() -> " ..
			"kmem_cache_free(radix_tree_node_cachep)"
	end,
	pack = function()
		return OWN .. " (the kernel's nodes always have 64 slots)"
	end,
	["slot-set"] = function(_, _, ida)
		if ida then return "ida_alloc_range(): xas_store(&xas, bitmap)" end
		return "idr_alloc_u32() -> radix_tree_iter_replace(): the " ..
			"slot idr_get_free() returned takes the pointer"
	end,
	["slot-clear"] = function(_, _, ida)
		if ida then
			return "ida_free(): the bitmap is empty: xas_store(&xas, NULL)"
		end
		return "radix_tree_delete_item() -> __radix_tree_delete(): " ..
			"replace_slot(NULL)"
	end,
	full = function()
		return "idr_alloc_u32() -> radix_tree_iter_tag_clear(IDR_FREE) " ..
			"-> node_tag_clear(): the kernel clears a free tag where " ..
			"this tree sets a full bit"
	end,
	open = function()
		return "__radix_tree_delete(): node_tag_set(IDR_FREE): the " ..
			"kernel sets a free tag where this tree clears a full bit"
	end,
	["subtree-full"] = function(ev, _, ida, grown)
		if ida then
			return "xas_clear_mark(XA_FREE_MARK) -> node_clear_mark(): " ..
				"the child has no free mark left, so its slot in the " ..
				"parent loses it too"
		end
		if grown and ev.slot == 0 then
			return "radix_tree_extend(): tag_clear(node, IDR_FREE, 0): " ..
				"the old root had no free slot"
		end
		return "node_tag_clear(): the child has no IDR_FREE tag " ..
			"left, so its slot in the parent loses it too"
	end,
	["subtree-open"] = function(_, _, ida)
		if ida then
			return "xas_set_mark(XA_FREE_MARK) -> node_set_mark() on " ..
				"each parent's slot on the way up"
		end
		return "node_tag_set(): IDR_FREE set on each parent's slot " ..
			"on the way up, until one has it already"
	end,
	["bit-set"] = function()
		return "ida_alloc_range(): __set_bit(bit, bitmap->bitmap)"
	end,
	["bit-clear"] = function()
		return "ida_free(): __clear_bit(bit, bitmap->bitmap)"
	end,
	["bitmap-full"] = function()
		return "ida_alloc_range(): bitmap_full(): " ..
			"xas_clear_mark(&xas, XA_FREE_MARK)"
	end,
	["bitmap-open"] = function()
		return "ida_free(): xas_set_mark(&xas, XA_FREE_MARK)"
	end,
}

W.KERNEL, W.FAMILY = KERNEL, FAMILY

-- The kernel's step of event @ev of the operation that @op (its "op"
-- event) began.
local function kernel_step(ev, op)
	local fam = FAMILY[op.op]
	local ida = fam and fam:find("^ida_") ~= nil
	local top = ev.level and op.height and ev.level + 1 == op.height and
		ev.height ~= 0
	return KERNEL[ev.event](ev, fam, ida, above_old_top(ev, op), top)
end

-- }================================================================

--- W.kernel(ev[, op_ev[, mark]]) -> "function(): the step of it" doing
-- @ev in Linux: it depends on the operation, which the "op" event @op_ev
-- names (by default the last "op" event worded: views word events in
-- order); @mark as for W.text().
function W.kernel(ev, op_ev, mark)
	local r = row(ev)
	-- A new block hangs from its slot as the kernel's new node does.
	if MARKED_KERNEL[mark] and marked(ev, mark) and
		not (mark == "new" and ev.event == "attach") then
		return MARKED_KERNEL[mark]
	end
	if r.kernel then
		local k = r.kernel
		return type(k) == "function" and k(ev) or k
	end
	return kernel_step(ev, op_ev or last_op)
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

--- W.describe(ev[, op_ev[, mark]]) -> { event, verb, node, call, line,
-- text, kernel }: all the words of one event, for a view that shows
-- several (the replay page); @op_ev and @mark as for W.kernel().  node is nil for an event
-- about no node, call for any but "op".
function W.describe(ev, op_ev, mark)
	return { event = ev.event, verb = W.verb(ev),
		node = ev.level and ev.first and W.node(ev) or nil,
		call = ev.event == "op" and W.call(ev) or nil,
		line = W.line(ev), text = W.text(ev, mark),
		kernel = W.kernel(ev, op_ev, mark) }
end

--- idr.event_words(ev[, op_ev]) -> W.describe(ev, op_ev): for the shell
-- and Lua users.
function idr.event_words(ev, op_ev)
	O.event("event_words", ev, 1)
	-- The operation's, for the kernel's words: any table (an empty one
	-- before the first "op").
	if op_ev ~= nil and type(op_ev) ~= "table" then
		error("bad argument #2 to 'event_words' (table expected, got " ..
			type(op_ev) .. ")", 2)
	end
	return W.describe(ev, op_ev)
end

-- }================================================================

return W
