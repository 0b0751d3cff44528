-- words: one table turns every event kind into words, and trace, explain
-- and step all word events from it (issue 28).  Each kind in idr.EVENTS
-- goes through each view; a kind the table lacks fails here.
local idr = require "idr"

local W = idr.event_words

-- {================== One event of every kind ======================

local dir = arg and arg[0]:match("^(.*)/lua/[^/]*$") or "tests"
-- The same operations on the trees given: every kind the library
-- reports from Lua (preload-take needs C's idr_preload()).
local workout = dofile(dir .. "/lua/words_workout.lua")

local ida = idr.ida()
local t, g = idr.new(), idr.new { tagged = { id_bits = 16 } }
local evs, by = {}, {}
local function keep(ev)
	evs[#evs + 1] = ev
	by[ev.event] = by[ev.event] or ev
end
for _, x in ipairs { t, ida, g } do x:trace(keep) end
workout(t, ida, g)
for _, x in ipairs { t, ida, g } do x:trace(nil) end

-- preload-take: shaped as malloc and cache-take are.
by["preload-take"] = { event = "preload-take", nodes = 2, height = 1 }

for _, name in ipairs(idr.EVENTS) do
	assert(by[name], "no event of kind " .. name .. " reached the test")
end

-- }================================================================

-- {====================== The table is whole =======================

-- Every kind has a line, a sentence, a verb and a kernel step.
for _, name in ipairs(idr.EVENTS) do
	local w = W(by[name])
	assert(w.event == name)
	for _, k in ipairs { "verb", "line", "text", "kernel" } do
		assert(type(w[k]) == "string" and #w[k] > 0, name .. " has no " .. k)
	end
	assert(w.line:find("^" .. name:gsub("%-", "%%-")), w.line)
end
-- A kind missing from the table is an error, not a silent line.
assert(not pcall(W, { event = "nonesuch", height = 0 }))
assert(not pcall(W, "visit"))

-- The node as the dump names it; an operation's arguments, one wording.
local visit = by.visit
assert(W(visit).node == ("L%d %d..%d"):format(visit.level, visit.first,
	visit.last))
local ida_op = { event = "op", op = "ida_find_first_range", start = 5,
	["end"] = 10, id = 0, height = 1 }
assert(W(ida_op).line == "op ida_find_first_range min=5 max=10", W(ida_op).line)
assert(W(ida_op).text == "ida_find_first_range begins (min 5, max 10)",
	W(ida_op).text)
assert(W(ida_op).call == "ida_find_first_range(min 5, max 10)")
assert(t:explain({ ida_op }):find("^ida_find_first_range%(min 5, max 10%)"))
local alloc_op = { event = "op", op = "alloc", start = 64, ["end"] = 0,
	id = 0, height = 1 }
assert(W(alloc_op).line == "op alloc start=64 end=0")
assert(W(alloc_op).kernel:find("idr_get_free", 1, true))
assert(W(by.grow).kernel:find("^radix_tree_extend%(%)"))
assert(W(by.shrink).kernel:find("^radix_tree_shrink%(%)"))

-- }================================================================

-- {============ step and explain word each kind from it ============

local function has(text, part, what)
	assert(text:find(part, 1, true), ("%s lacks %q:\n%s"):format(what,
		part, text))
end

local function cap(s) return s:sub(1, 1):upper() .. s:sub(2) end

for _, name in ipairs(idr.EVENTS) do
	local ev, w = by[name], W(by[name])
	local step = idr.event_text(ev)
	has(step, name .. ": " .. w.text, "step of " .. name)
	has(step, "kernel: " .. w.kernel, "step of " .. name)
	local told = t:explain({ ev })
	if name == "op" or name == "done" then
		-- An operation is told by the call it is, what it asks and what
		-- it returns, and the kernel's calls from the same table.
		if name == "op" then has(told, w.call, "explain of op") end
		if name == "done" then
			has(told, "Kernel: " .. idr.event_words(
				{ event = "op", op = ev.op, height = 0 }).kernel
				:gsub(": called$", ""), "explain of done")
		end
	elseif name == "visit" or name == "no-room" then
		-- Explain says why the search took its slot; the node named so.
		has(told, "L" .. ev.level .. " " .. ev.first .. ".." .. ev.last,
			"explain of " .. name)
	else
		has(told, cap(w.text), "explain of " .. name)
		-- A full bit: the kernel's step, in the table's words, once.
		if name == "full" or name == "subtree-open" then
			has(told, "(Kernel: " .. w.kernel .. ".)", "explain of " .. name)
		end
	end
end

-- }================================================================

-- {==================== trace words them the same ==================

-- The shell's trace of the same operations, line for line.
local function shell_trace()
	local ops = os.tmpname()
	local f = assert(io.open(ops, "w"))
	f:write("new t\nnew a --ida\nnew g --tagged 16\ntrace on\n",
		"lua dofile('", dir, "/lua/words_workout.lua')(trees.t, trees.a, ",
		"trees.g)\n")
	f:close()
	local p = assert(io.popen(("%s/../build/idrsh --batch %s"):format(dir,
		ops)))
	local lines = {}
	for l in p:lines() do
		if l:find("^trace: ") then lines[#lines + 1] = l end
	end
	p:close()
	os.remove(ops)
	return lines
end

local lines = shell_trace()
assert(#lines == #evs, ("trace printed %d lines for %d events"):format(
	#lines, #evs))
for i, ev in ipairs(evs) do
	assert(lines[i] == "trace: " .. W(ev).line, lines[i])
end

-- }================================================================

-- {============= The kernel's step depends on the operation =========

-- Every function the kernel column names, for every operation and event
-- kind, is one Linux 6.1 has: each of these is in its lib/idr.c,
-- lib/radix-tree.c, lib/xarray.c or their headers (checked against
-- linux-source-6.1); the 2004 API's functions only beside
-- "(2.6.8-2.6.10)".
local IN_6_1 = {}
for n in ([[__clear_bit __radix_tree_delete __radix_tree_lookup
	__radix_tree_replace __set_bit all_tag_set bitmap_empty bitmap_full
	call_rcu delete_node ida_alloc_range ida_free idr_alloc
	idr_alloc_cyclic idr_alloc_u32 idr_find idr_for_each idr_get_free
	idr_destroy idr_get_next idr_get_next_ul idr_preload idr_remove
	idr_replace ida_destroy kfree radix_tree_free_nodes xas_for_each
	kmem_cache_alloc kmem_cache_alloc_lru kmem_cache_free kzalloc
	node_clear_mark node_set_mark node_tag_clear node_tag_set node_to_entry
	radix_tree_delete_item radix_tree_descend radix_tree_extend
	radix_tree_find_next_bit radix_tree_for_each_slot
	radix_tree_iter_replace radix_tree_iter_tag_clear radix_tree_lookup
	radix_tree_next_chunk radix_tree_node_alloc radix_tree_node_free
	radix_tree_node_rcu_free radix_tree_shrink rcu_assign_pointer
	replace_slot tag_clear xa_load xa_mk_node xa_node_free xas_alloc
	xas_clear_mark xas_create xas_delete_node xas_descend xas_expand
	xas_find xas_find_marked xas_load xas_set_mark xas_shrink
	xas_store]]):gmatch("%S+") do
	IN_6_1[n] = true
end
local OLD = { alloc_layer = true, free_layer = true, idr_get_new = true,
	idr_get_new_above = true, idr_get_new_above_int = true,
	idr_pre_get = true, sub_alloc = true }

local KW = idr.event_words
for _, op in ipairs { "alloc", "alloc_u32", "alloc_cyclic", "get_new",
	"get_new_above", "alloc_tagged", "pre_get", "find", "find_tagged",
	"tag_check", "replace", "get_next", "get_next_ul", "for_each",
	"remove", "remove_tagged", "ida_alloc_range", "ida_free",
	"ida_exists", "ida_find_first_range", "ida_count", "unalloc",
	"destroy", "ida_destroy" } do
	for _, h in ipairs { 0, 3 } do
		local o = { event = "op", op = op, height = h, id = 0, start = 0,
			["end"] = 0 }
		for _, kind in ipairs(idr.EVENTS) do
			for _, aux in ipairs { false, "bitmap", "gens" } do
				local ev = { event = kind, op = op, level = 3, first = 0,
					last = 16777215, slot = 0, height = h, nodes = 1,
					result = 0, aux = aux or nil }
				local k = KW(ev, o).kernel
				for n in k:gmatch("([%w_]+)%(") do
					assert(IN_6_1[n] or OLD[n] and k:find("(2.6.8-2.6.10)",
						1, true), ("%s %s: %s is not in 6.1: %s"):format(op,
						kind, n, k))
				end
			end
		end
	end
end

-- The review's cases: each step named by the operation doing it.
local function kern(op, ev, height)
	return KW(ev, { event = "op", op = op, height = height or 1 }).kernel
end
local leaf = { level = 0, first = 0, last = 63, slot = 5, height = 1 }
local function at(kind, more)
	local e = { event = kind }
	for k, v in pairs(leaf) do e[k] = v end
	for k, v in pairs(more or {}) do e[k] = v end
	return e
end
assert(kern("find", at "visit"):find("__radix_tree_lookup", 1, true))
assert(not kern("find", at "visit"):find("idr_get_free", 1, true))
assert(kern("remove", at "visit"):find("^radix_tree_delete_item%(%)"))
assert(kern("alloc", at "visit"):find("^idr_get_free%(%)"))
assert(kern("ida_alloc_range", at "visit"):find("xas_find_marked", 1, true))
-- Growing: the new root and the old top in its slot 0 are
-- radix_tree_extend()'s; a child made on the way down idr_get_free()'s.
local root = at("node-new", { level = 1, last = 4095, slot = 0, height = 2 })
assert(kern("alloc", root):find("^radix_tree_extend%(%)"))
assert(kern("alloc", at("attach", { level = 1, last = 4095, slot = 0,
	height = 2 })):find("^radix_tree_extend%(%)"))
assert(kern("alloc", at("attach", { level = 1, last = 4095, slot = 2,
	height = 2 })):find("^idr_get_free%(%)"))
assert(kern("alloc", at("node-new", { height = 2 }), 2):find(
	"^idr_get_free%(%)"))
assert(kern("alloc", root, 0):find("^idr_get_free%(%)"),
	"an empty tree's first node is made on the way down")
-- A child made below the new top, once the tree has grown (alloc 4096
-- in a tree of one leaf): not a root, idr_get_free()'s.
local t4096 = idr.new()
t4096:alloc(true)
local made = {}
t4096:trace(function(e)
	if e.event == "node-new" then made[#made + 1] = e end
end)
t4096:alloc(true, 4096)
t4096:trace(nil)
assert(#made == 3 and made[3].first == 4096)
for i, e in ipairs(made) do
	local want = i < 3 and "^radix_tree_extend%(%)" or "^idr_get_free%(%)"
	assert(kern("alloc", e):find(want), i)
end
-- The IDA's bitmap: kzalloc()ed by ida_alloc_range(), kfree()d by
-- ida_free(), never "the idr's cache".
local bm = at("node-new", { aux = "bitmap", last = 4095 })
assert(kern("ida_alloc_range", bm):find("kzalloc() of a struct ida_bitmap",
	1, true))
local gone = kern("ida_free", at("node-free", { aux = "bitmap" }))
assert(gone == "ida_free(): bitmap_empty(): kfree(bitmap)", gone)
assert(not kern("ida_free", at("cache-put", { aux = "bitmap" })):find(
	"free_layer", 1, true))
assert(kern("ida_alloc_range", at "slot-set"):find("xas_store", 1, true))
-- A tagged operation: the kernel's calls for its ID, the generation ours.
local tag_op = KW { event = "op", op = "remove_tagged", id = 256 }
assert(tag_op.kernel:find("^idr_remove%(%) %-> radix_tree_delete_item"),
	tag_op.kernel)
-- A done event tells what the operation returns: an allocation its ID,
-- a removal the entry (the ID is the one it removed).
assert(KW { event = "done", op = "remove_tagged", result = 256 }.text ==
	"remove_tagged is over: tagged ID 256 removed: it returns the entry " ..
	"it held")
assert(KW { event = "done", op = "alloc", result = 7 }.text ==
	"alloc is over: it returns 7")
-- The operation is known from the last "op" worded, until its "done".
KW { event = "op", op = "remove", id = 5, height = 1 }
assert(KW(at "visit").kernel:find("^radix_tree_delete_item"))
KW { event = "done", op = "remove", result = 5 }
assert(not KW(at "visit").kernel:find("radix_tree_delete_item", 1, true))
assert(not pcall(KW, at "visit", 5))

-- }================================================================
