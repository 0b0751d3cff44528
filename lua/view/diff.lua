-- diff.lua - what changed since a mark: nodes, bits, entries, height.
--
-- snap = t:mark() is a compact snapshot, made in C (lua/snapshot.c): the
-- tree's nodes as a few bytes each, its entries' IDs, and references to
-- its values (one a run of equal ones); t:diff(snap) walks the tree and
-- the mark in step, in C, and makes a table only for each change.  Nodes
-- are the same node when they have the same level and first ID: the
-- logical 64-way tree, whatever memory the nodes took.
--
-- t:mark{max_entries = N} keeps the shape only when the tree holds more
-- than N entries; a diff then compares nodes and bits, not entries, and
-- says so.
local idr, idr_methods, ida_methods, view = ...

local O = view "options"
local S = view "snapshot"

local fmt = string.format

local MAX_LINES = 40

-- Runs of consecutive IDs added (or removed) of this length or more
-- take one line.
local RUN = 4

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

local MARK_KEYS, TEXT_KEYS = { max_entries = true }, { max_lines = true }

local function opt(o, k, default, what)
	local v = o and o[k]
	if v == nil then return default end
	v = O.integer(v)
	if not v or v < 0 then
		error("bad option '" .. k .. "' to '" .. what ..
			"' (non-negative integer expected)", 3)
	end
	return v
end

--- t:mark([{max_entries = N}]) -> snap: a compact snapshot of the tree,
-- a userdata whose fields are kind, tree, height, count, nodes (how
-- many), entries (whether it kept them), max_entries, bytes and values
-- (how many it holds).  It keeps the entries unless the tree held more
-- than max_entries (default: no limit).
function idr_methods:mark(o)
	O.opts("mark", o, MARK_KEYS)
	local max = opt(o, "max_entries", math.maxinteger, "mark")
	return S.mark(self, serial(self), max)
end
ida_methods.mark = idr_methods.mark

-- }======================================================

-- {======================== Changes ========================

local function check_mark(t, snap, what)
	local tree = S.tree(snap)
	if not tree then
		error("bad argument #1 to '" .. what .. "' (a mark expected, " ..
			"as t:mark() returns)", 3)
	end
	if tree ~= serials[t] then
		error("bad argument #1 to '" .. what .. "' (the mark is of " ..
			"another tree)", 3)
	end
end

--- t:diff(snap) -> list: every change since t:mark() made @snap, as
-- tables, in this order: { change = "height", from, to }; per node, in
-- walk order, { change = "node-new" | "node-free", level, first, last,
-- full, present, slots } or { change = "bits", level, first, last,
-- full_set, full_cleared, present_set, present_cleared } (lists of
-- slots); per ID, in order, { change = "added" | "removed", id, value }
-- or { change = "replaced", id, from, to }; or, when the mark kept no
-- entries, one { change = "entries-skipped", from, to, max_entries }
-- (the counts).  An empty list: no change.
function idr_methods:diff(snap)
	check_mark(self, snap, "diff")
	return (S.compare(self, snap, 0, 0))
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
	return fmt("L%d %d..%d%s", c.level, c.first, c.last,
		c.keyed and ", a keyed block" or "")
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
	keyed = { present = { "keys now under", "no key left under" },
		full = { "subtree full at", "subtree has room at" } },
}

local function bits_text(c, ida)
	local w = WORDS[c.level == 0 and "leaf" or c.keyed and "keyed" or "node"]
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
	added = function(c, ida, tag)
		return "added   " .. c.id .. tag(c.id) .. (ida and "" or
			(" = " .. value_text(c.value)))
	end,
	removed = function(c, ida)
		return "removed " .. c.id .. (ida and "" or
			(" (was " .. value_text(c.value) .. ")"))
	end,
	replaced = function(c, _, tag)
		return fmt("replaced %d%s: %s -> %s", c.id, tag(c.id),
			value_text(c.from), value_text(c.to))
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

-- A change as a line: a run of IDs (c.n of them, from S.compare) as one.
-- @tag(id): what follows an ID that is live now (see tag_of()).
local function line(c, ida, tag)
	if c.n then
		return fmt("%-7s %d..%d (%d IDs)", c.change, c.id, c.last, c.n)
	end
	return TEXT[c.change](c, ida, tag)
end

-- On a tagged idr, an ID live now with its tagged ID, as alloc_tagged
-- printed it: " (tagged 256)"; nothing where they are the same, or the
-- idr is not tagged.  A removed ID's tag is gone.
local function tag_of(t)
	if not t:info().tagged then return function() return "" end end
	return function(id)
		local tag = t:tagged_id(id)
		return tag ~= id and fmt(" (tagged %d)", tag) or ""
	end
end

--- t:diff_text(snap [, {max_lines = N}]) -> text: t:diff(snap) as
-- lines a person reads: a summary line, then a line a change (a run of
-- 4 or more consecutive IDs added, or removed, takes one), at most
-- max_lines of them (default 40; 0: all), then how many changes more
-- there are.  Ends with a newline.  Only the lines shown are made.
function idr_methods:diff_text(snap, o)
	check_mark(self, snap, "diff_text")
	O.opts("diff_text", o, TEXT_KEYS, 2)
	local max = opt(o, "max_lines", MAX_LINES, "diff_text")
	local list, counts = S.compare(self, snap, max, RUN)
	local total, shown, lines = 0, 0, {}
	for _, n in pairs(counts) do total = total + n end
	if total == 0 then return "no change since the mark\n" end
	local tag = snap.kind == "ida" and function() return "" end or
		tag_of(self)
	for i, c in ipairs(list) do
		lines[i] = "  " .. line(c, snap.kind == "ida", tag)
		shown = shown + (c.n or 1)
	end
	local height = counts.height and
		fmt("height %d -> %d", list[1].from, list[1].to)
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
