-- fold.lua - the one collapse rule: which sibling subtrees fold into one
-- run.  The text dump prints a run as one line, DOT as one dashed box,
-- and t:fold(node) gives the runs as data (for the replay page).
--
-- The rule.  A node's slots are read left to right, and each gets a key:
--   none   outside the IDs the view asks for (a dump's range);
--   empty  no child;
--   full   a child with no free ID below;
--   room   a child with room below, and, for a leaf child, how many
--          entries it holds (its count).
-- Siblings are alike when their slots are next to each other and their
-- keys are the same (kind and count): an empty slot between two leaves
-- ends a run, so a run never covers a slot that is not like the others.
-- A run of alike siblings folds when it is long enough to be worth one
-- line: two or more full subtrees (there is nothing to read in them but
-- "full"), eight or more leaves with room holding as many entries each
-- (so the few leaves of a lesson's tree all show).  Subtrees with room
-- above the leaves never fold: what is inside them differs, and is what
-- one looks for.  A view may keep some slots out of every run (DOT keeps
-- the way to an ID and the cells an operation changed), and may fold
-- nothing (a full dump) or everything below a depth (a dump's --depth):
-- those are the view's choices; which siblings are alike is this file's.
local _, idr_methods, ida_methods, view = ...

local G = view "geometry"

local F = {
	FULL_RUN = 2,	-- full subtrees that fold
	LEAF_RUN = 8,	-- leaves with room, as many entries each, that fold
}

--- F.kids(t, n): the children of @n by slot, read at once.
function F.kids(t, n)
	local kids, span = {}, G.span(n)
	for _, kid in ipairs(t:children(n)) do
		kids[(kid.first - n.first) // span] = kid
	end
	return kids
end

-- The children of @n by slot, if they are leaves with room (their
-- counts are keys); else none yet.
local function leaf_kids(t, n)
	if n.level == 1 and n.present & ~n.full ~= 0 then return F.kids(t, n) end
	return nil
end

-- The key of slot @slot of @n: kind, count.  Only a leaf with room is
-- read (its count, from @kids).
local function key_of(n, slot, range, kids)
	if range then
		local lo, hi = G.slot_range(n, slot)
		if hi < range[1] or lo > range[2] then return "none", 0 end
	end
	if n.present >> slot & 1 == 0 then return "empty", 0 end
	if n.full >> slot & 1 == 1 then
		-- A full leaf uses every slot: its count needs no read.
		return "full", n.level == 1 and n.slots or 0
	end
	if n.level ~= 1 then return "room", 0 end
	return "room", G.used(kids[slot])
end

--- F.least(kind, count): how many alike siblings fold; nil: never.
function F.least(kind, count)
	if kind == "full" then return F.FULL_RUN end
	if kind == "room" and count > 0 then return F.LEAF_RUN end
	return nil
end

--- F.runs(t, n [, range [, alone]]) -> runs, kids: the children of
-- interior node @n as runs of alike siblings, in slot order, each
-- { from, to (the slot after it), kind, count, alike, level, first,
-- last }: level, first and last say the IDs it covers; alike is true
-- when the rule folds it.  range = { FIRST, LAST } keys the slots
-- outside those IDs "none"; alone(slot) true keeps a slot a run of its
-- own, never alike.  kids, if not nil, holds the children by slot, read
-- on the way (F.kids() reads them).
function F.runs(t, n, range, alone)
	local kinds, counts, kids = {}, {}, leaf_kids(t, n)
	for slot = 0, n.slots - 1 do
		kinds[slot], counts[slot] = key_of(n, slot, range, kids)
	end
	local runs, slot = {}, 0
	while slot < n.slots do
		local kind, count = kinds[slot], counts[slot]
		local single = alone and alone(slot)
		local to = slot + 1
		while not single and to < n.slots and kinds[to] == kind and
				counts[to] == count and not (alone and alone(to)) do
			to = to + 1
		end
		local least = F.least(kind, count)
		local first, last = G.run_range(n, slot, to)
		runs[#runs + 1] = { from = slot, to = to, kind = kind,
			count = count, level = n.level - 1, first = first,
			last = last,
			alike = not single and least ~= nil and to - slot >= least }
		slot = to
	end
	return runs, kids
end

local function plural(n, one, many)
	return n == 1 and one or many
end

--- F.words(n, run): what a run of children of @n is, in words:
-- "62 full leaves", "64 leaves of 1/64", "3 nodes with room",
-- "1 empty slot"; a keyed block's "3 runs of 1 key".
function F.words(n, run)
	local k = run.to - run.from
	if run.kind == "empty" then
		return ("%d empty %s"):format(k, plural(k, "slot", "slots"))
	elseif run.kind == "full" then
		return ("%d full %s"):format(k, n.level > 1 and
			plural(k, "node", "nodes") or plural(k, "leaf", "leaves"))
	elseif n.keyed then
		-- A keyed block's runs of keys: no leaves, and never full.
		return ("%d %s of %d %s"):format(k, plural(k, "run", "runs"),
			run.count, plural(run.count, "key", "keys"))
	elseif n.level == 1 then
		return ("%d %s of %d/%d"):format(k, plural(k, "leaf", "leaves"),
			run.count, n.slots)
	end
	return ("%d %s with room"):format(k, plural(k, "node", "nodes"))
end

-- The node @n names (its level and first ID), read from the tree: a
-- table the caller made holds no bitmaps to trust.
local function read_again(t, n)
	local v = t:top()
	while v.level > n.level do
		v = t:child(v, (n.first - v.first) // G.span(v))
	end
	return v
end

--- t:fold(node) -> runs: the children of an interior node as F.runs()
-- folds them (nil for a leaf), each run with its words.
local function fold(t, n)
	if type(n) ~= "table" then
		error("bad argument #1 to 'fold' (node expected, got " ..
			type(n) .. ")", 2)
	end
	-- t:slot() checks that the node is there (or raises).
	if t:slot(n, 0) and n.level == 0 then return nil end
	n = read_again(t, n)
	local runs = F.runs(t, n)
	for _, r in ipairs(runs) do r.words = F.words(n, r) end
	return runs
end

idr_methods.fold = fold
ida_methods.fold = fold

return F
