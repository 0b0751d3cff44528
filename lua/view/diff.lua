-- diff.lua - what changed since a mark: nodes, bits, entries, height.
--
-- snap = t:mark() copies the tree's shape (t:nodes()) and its entries
-- (t:pairs(): an idr's IDs and values, an IDA's IDs) into plain Lua
-- tables; t:diff(snap) compares the tree as it is now with that copy.
-- Nodes are the same node when they have the same level and first ID:
-- the logical 64-way tree, whatever memory the nodes took.
--
-- A big tree's entries cost memory to copy: beyond max_entries (a
-- million by default) the mark keeps the shape only, and a diff then
-- compares nodes and bits, not entries, and says so.
local idr, idr_methods, ida_methods = ...

local fmt = string.format

local MAX_ENTRIES = 1000000
local MAX_LINES = 40

-- {======================== Marks ========================

-- Which tree a mark is of: a number per tree object, never reused.
local serials = setmetatable({}, { __mode = "k" })
local last_serial = 0

local function serial(t)
	local s = serials[t]
	if not s then
		last_serial = last_serial + 1
		s = last_serial
		serials[t] = s
	end
	return s
end

local function kind(t)
	return t:info().kind
end

-- The entries in ID order, or nil past @max of them.
local function entries(t, max)
	local ids, values, n = {}, {}, 0
	for id, v in t:pairs() do
		n = n + 1
		if n > max then return nil end
		ids[n], values[n] = id, v
	end
	return ids, values, n
end

local function snapshot(t, max)
	local nodes = t:nodes()
	local snap = {
		kind = kind(t), tree = serial(t), nodes = nodes,
		height = nodes[1] and nodes[1].level + 1 or 0,
		count = t:count(), max_entries = max,
	}
	snap.ids, snap.values = entries(t, max)
	return snap
end

local function opt(o, k, default, what)
	local v = o and o[k]
	if v == nil then return default end
	if math.type(v) ~= "integer" or v < 0 then
		error("bad option '" .. k .. "' to '" .. what ..
			"' (non-negative integer expected)", 3)
	end
	return v
end

--- t:mark([{max_entries = N}]) -> snap: the tree's shape and entries as
-- plain tables: { kind, tree, height, count, max_entries, nodes, ids,
-- values }.  ids (and values, an idr's) are nil when the tree held more
-- than max_entries IDs (default a million).
function idr_methods:mark(o)
	return snapshot(self, opt(o, "max_entries", MAX_ENTRIES, "mark"))
end
ida_methods.mark = idr_methods.mark

-- }======================================================

-- {======================== Changes ========================

local function key(n)
	return n.level .. ":" .. n.first
end

-- The slots whose bit is set in @a and not in @b, as a list.
local function bits_gone(a, b, slots)
	local list = {}
	for i = 0, slots - 1 do
		if a >> i & 1 == 1 and b >> i & 1 == 0 then
			list[#list + 1] = i
		end
	end
	return list
end

local function node_change(a, b)
	local n = b.slots
	local c = {
		change = "bits", level = b.level, first = b.first, last = b.last,
		full_set = bits_gone(b.full, a.full, n),
		full_cleared = bits_gone(a.full, b.full, n),
		present_set = bits_gone(b.present, a.present, n),
		present_cleared = bits_gone(a.present, b.present, n),
	}
	if #c.full_set + #c.full_cleared + #c.present_set +
		#c.present_cleared == 0 then
		return nil
	end
	return c
end

local function node_record(change, n)
	return { change = change, level = n.level, first = n.first,
		last = n.last, full = n.full, present = n.present,
		slots = n.slots }
end

-- Walk order: by first ID, the higher level first.
local function walk_less(a, b)
	if a.first ~= b.first then return a.first < b.first end
	return a.level > b.level
end

local function node_changes(old, new, emit)
	local before, list = {}, {}
	for _, n in ipairs(old) do before[key(n)] = n end
	for _, n in ipairs(new) do
		local k = key(n)
		local a = before[k]
		if not a then
			list[#list + 1] = node_record("node-new", n)
		else
			list[#list + 1] = node_change(a, n)
			before[k] = nil
		end
	end
	for _, n in pairs(before) do
		list[#list + 1] = node_record("node-free", n)
	end
	table.sort(list, walk_less)
	for _, c in ipairs(list) do emit(c) end
end

-- The two ID-ordered lists merged: added, removed, replaced.
local function entry_changes(old, new, emit)
	local i, j = 1, 1
	local a, b = old.ids, new.ids
	while i <= #a or j <= #b do
		local x, y = a[i], b[j]
		if y == nil or (x ~= nil and x < y) then
			emit { change = "removed", id = x, value = old.values[i] }
			i = i + 1
		elseif x == nil or y < x then
			emit { change = "added", id = y, value = new.values[j] }
			j = j + 1
		else
			if old.values[i] ~= new.values[j] then
				emit { change = "replaced", id = x,
					from = old.values[i], to = new.values[j] }
			end
			i, j = i + 1, j + 1
		end
	end
end

local function check_mark(t, snap, what)
	if type(snap) ~= "table" or type(snap.nodes) ~= "table" then
		error("bad argument #1 to '" .. what .. "' (a mark expected, " ..
			"as t:mark() returns)", 3)
	end
	if snap.tree ~= serials[t] then
		error("bad argument #1 to '" .. what .. "' (the mark is of " ..
			"another tree)", 3)
	end
end

-- Calls @emit with each change from @snap to @t now, in order: the
-- height, the nodes, then the entries (or why they were not compared).
local function changes(t, snap, emit)
	local now = snapshot(t, snap.max_entries or MAX_ENTRIES)
	if now.height ~= snap.height then
		emit { change = "height", from = snap.height, to = now.height }
	end
	node_changes(snap.nodes, now.nodes, emit)
	if snap.ids and now.ids then
		entry_changes(snap, now, emit)
	elseif snap.count ~= now.count or snap.ids or now.ids then
		emit { change = "entries-skipped", from = snap.count,
			to = now.count, max_entries = now.max_entries }
	end
	return now
end

--- t:diff(snap) -> list: every change since t:mark() made @snap, as
-- tables, in this order: { change = "height", from, to }; per node, in
-- walk order, { change = "node-new" | "node-free", level, first, last,
-- full, present, slots } or { change = "bits", level, first, last,
-- full_set, full_cleared, present_set, present_cleared } (lists of
-- slots); per ID, in order, { change = "added" | "removed", id, value }
-- or { change = "replaced", id, from, to }; or, when the mark or the tree
-- held too many entries to copy, one { change = "entries-skipped",
-- from, to, max_entries } (the counts).  An empty list: no change.
function idr_methods:diff(snap)
	check_mark(self, snap, "diff")
	local list = {}
	changes(self, snap, function(c) list[#list + 1] = c end)
	return list
end
ida_methods.diff = idr_methods.diff

-- }======================================================

-- {======================== Text ========================

-- A list of slots as runs: "0..3 7 9..10".
local function runs(list)
	local parts, i = {}, 1
	while i <= #list do
		local j = i
		while list[j + 1] == list[j] + 1 do j = j + 1 end
		parts[#parts + 1] = i == j and tostring(list[i]) or
			(list[i] .. ".." .. list[j])
		i = j + 1
	end
	return table.concat(parts, " ")
end

local function same(a, b)
	return runs(a) == runs(b)
end

local function value_text(v)
	if v == nil then return "NULL" end
	if type(v) == "string" then
		if v ~= "" and not v:find("[%s\"'\\%c]") then return v end
		return (fmt("%q", v):gsub("\\\n", "\\n"))
	end
	if type(v) == "number" or type(v) == "boolean" then
		return tostring(v)
	end
	return type(v)
end

local function node_name(c)
	return fmt("L%d %d..%d", c.level, c.first, c.last)
end

local function count_bits(x)
	local n = 0
	while x ~= 0 do
		x = x & (x - 1)
		n = n + 1
	end
	return n
end

-- What a leaf's and an interior node's bits mean, set and cleared.
local WORDS = {
	leaf = { present = { "now used", "now free" },
		full = { "now full", "no longer full" } },
	node = { present = { "child added at", "child gone from" },
		full = { "subtree full at", "subtree has room at" } },
}

local function bits_text(c, ida)
	local w = WORDS[c.level == 0 and "leaf" or "node"]
	local parts = {}
	local function add(words, list)
		if #list > 0 then parts[#parts + 1] = words .. " " .. runs(list) end
	end
	add(w.present[1], c.present_set)
	add(w.present[2], c.present_cleared)
	-- An idr's leaf: a slot is full when used; say it once.
	local echo = c.level == 0 and not ida and
		same(c.full_set, c.present_set) and
		same(c.full_cleared, c.present_cleared)
	if not echo then
		add(w.full[1], c.full_set)
		add(w.full[2], c.full_cleared)
	end
	return "changed " .. node_name(c) .. ": " .. table.concat(parts, "; ")
end

local TEXT = {
	height = function(c)
		return fmt("height %d -> %d (%s)", c.from, c.to,
			c.to > c.from and "the tree grew" or "the tree shrank")
	end,
	["node-new"] = function(c)
		return fmt("made    %s (%d of %d slots present)", node_name(c),
			count_bits(c.present), c.slots)
	end,
	["node-free"] = function(c)
		return fmt("freed   %s", node_name(c))
	end,
	bits = bits_text,
	added = function(c, ida)
		return "added   " .. c.id .. (ida and "" or
			(" = " .. value_text(c.value)))
	end,
	removed = function(c, ida)
		return "removed " .. c.id .. (ida and "" or
			(" (was " .. value_text(c.value) .. ")"))
	end,
	replaced = function(c)
		return fmt("replaced %d: %s -> %s", c.id, value_text(c.from),
			value_text(c.to))
	end,
	["entries-skipped"] = function(c)
		return fmt("entries not compared: more than %d IDs " ..
			"(%d then, %d now; t:mark{max_entries = N})",
			c.max_entries, c.from, c.to)
	end,
}

local function plural(n, one, many)
	return n .. " " .. (n == 1 and one or many)
end

-- "4 nodes made, 1 changed": the counts of @kinds, those not nil.
local function counted(n, kinds, one, many)
	local parts, total = {}, 0
	for _, k in ipairs(kinds) do
		if n[k[1]] then
			total = total + n[k[1]]
			parts[#parts + 1] = n[k[1]] .. " " .. k[2]
		end
	end
	if #parts == 0 then return nil end
	local first = parts[1]:match("^%d+")
	parts[1] = plural(tonumber(first), one, many) ..
		parts[1]:sub(#first + 1)
	return table.concat(parts, ", ")
end

local function summary(n, height)
	local parts = { height }
	parts[#parts + 1] = counted(n, { { "node-new", "made" },
		{ "node-free", "freed" }, { "bits", "changed" } }, "node", "nodes")
	parts[#parts + 1] = counted(n, { { "added", "added" },
		{ "removed", "removed" }, { "replaced", "replaced" } }, "ID", "IDs")
	return table.concat(parts, "; ")
end

-- Runs of consecutive IDs added (or removed) of this length or more
-- take one line.
local RUN = 4

-- Lines from changes, with runs of IDs folded: add(c) each change,
-- then finish().  @put(line, n) takes a line standing for n changes.
local function folder(put, ida)
	local run
	local function flush()
		if not run then return end
		if run.n >= RUN then
			put(fmt("%-7s %d..%d (%d IDs)", run.change, run.from,
				run.to, run.n), run.n)
		else
			for _, c in ipairs(run.items) do
				put(TEXT[c.change](c, ida), 1)
			end
		end
		run = nil
	end
	local function add(c)
		local change = c.change
		if run and change == run.change and c.id == run.to + 1 then
			run.to, run.n = c.id, run.n + 1
			if run.n < RUN then run.items[run.n] = c end
			return
		end
		flush()
		if change == "added" or change == "removed" then
			run = { change = change, from = c.id, to = c.id, n = 1,
				items = { c } }
		else
			put(TEXT[change](c, ida), 1)
		end
	end
	return add, flush
end

--- t:diff_text(snap [, {max_lines = N}]) -> text: t:diff(snap) as
-- lines a person reads: a summary line, then a line a change (a run of
-- 4 or more consecutive IDs added, or removed, takes one), at most
-- max_lines of them (default 40; 0: all), then how many changes more
-- there are.  Ends with a newline.
function idr_methods:diff_text(snap, o)
	check_mark(self, snap, "diff_text")
	local max = opt(o, "max_lines", MAX_LINES, "diff_text")
	local lines, counts, total, shown = {}, {}, 0, 0
	local height
	local add, finish = folder(function(line, n)
		if max == 0 or #lines < max then
			lines[#lines + 1] = "  " .. line
			shown = shown + n
		end
	end, snap.kind == "ida")
	changes(self, snap, function(c)
		total = total + 1
		counts[c.change] = (counts[c.change] or 0) + 1
		if c.change == "height" then
			height = fmt("height %d -> %d", c.from, c.to)
		end
		add(c)
	end)
	finish()
	if total == 0 then return "no change since the mark\n" end
	table.insert(lines, 1, "since the mark: " .. summary(counts, height))
	if shown < total then
		lines[#lines + 1] = fmt("  ... and %s not shown (%s)",
			plural(total - shown, "more change", "more changes"),
			"'diff --all', or max_lines = 0, shows them all")
	end
	return table.concat(lines, "\n") .. "\n"
end
ida_methods.diff_text = idr_methods.diff_text

-- }======================================================

return idr
