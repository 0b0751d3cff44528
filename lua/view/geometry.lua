-- geometry.lua - the tree's shape, as the library is built: bits and
-- slots a level, the IDs an IDA bitmap holds, and the IDs a node's
-- slots cover.  Every view takes them from here; none guesses them.
--
-- A node (a table from t:top() or t:child()) covers the IDs first..last;
-- its slots split them into equal spans, slot 0 the lowest.  In an IDA
-- IDs are bits: a leaf slot covers the CHUNK IDs of one bitmap.
local idr = ...

local G = {
	BITS = idr.BITS,		-- index bits a level (6)
	SLOTS = idr.SLOTS,		-- slots a node (64)
	CHUNK = idr.IDA_BITMAP_BITS,	-- IDs an IDA bitmap holds (4096)
}

G.MASK = G.SLOTS - 1

--- G.count(bits): how many bits of a bitmap are set.
function G.count(x)
	x = x - (x >> 1 & 0x5555555555555555)
	x = (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0f
	return x * 0x0101010101010101 >> 56
end

--- G.used(n): how many slots of node n hold an entry or a child.
function G.used(n)
	return G.count(n.present)
end

--- G.shift(n): the index bits below node n's digit.
function G.shift(n)
	return n.level * G.BITS
end

--- G.span(n): how many IDs each slot of node n covers.
function G.span(n)
	return (n.last - n.first) // n.slots + 1
end

--- G.kind(n): what node n is, after its slots in use, as the dump and
-- the picture title it: ", packed in 3"; a keyed block (keyed: the IDs
-- it holds, packed: its room) ", keyed block of 2 IDs, room for 3";
-- one of its runs of keys ", in the keyed block (no leaf)"; "" for a
-- whole node.
function G.kind(n)
	if n.keyed and n.level > 0 then
		return (", keyed block of %d ID%s, room for %d"):format(n.keyed,
			n.keyed == 1 and "" or "s", n.packed)
	elseif n.keyed then
		return ", in the keyed block (no leaf)"
	elseif n.packed > 0 then
		return (", packed in %d"):format(n.packed)
	end
	return ""
end

--- G.slot_range(n, slot): the first and last ID slot @slot of n covers.
function G.slot_range(n, slot)
	local span = G.span(n)
	local lo = n.first + slot * span
	return lo, lo + span - 1
end

--- G.run_range(n, from, to): the IDs of slots @from .. @to - 1 of n.
function G.run_range(n, from, to)
	local lo = G.slot_range(n, from)
	local _, hi = G.slot_range(n, to - 1)
	return lo, hi
end

--- G.slot_of(n, id): the slot of n whose IDs hold @id, or nil.
function G.slot_of(n, id)
	if id < n.first or id > n.last then return nil end
	return (id - n.first) // G.span(n)
end

--- G.digits(index, levels): the base-SLOTS digits of @index for a tree
-- of @levels levels, top first, as a list.
function G.digits(index, levels)
	local d = {}
	for l = levels - 1, 0, -1 do
		d[#d + 1] = index >> (G.BITS * l) & G.MASK
	end
	return d
end

--- G.levels_for(index): the levels a tree needs to hold @index.
function G.levels_for(index)
	local l = 1
	while G.BITS * l < 64 and index >> (G.BITS * l) > 0 do l = l + 1 end
	return l
end

--- G.node_ids(level): how many indices a node at @level covers.
function G.node_ids(level)
	return 1 << (G.BITS * (level + 1))
end

--- G.place_of(info, id): where ID @id sits, in the units of a node's
-- first and last (an IDA's are IDs, an idr's IDs from its base, a
-- tagged idr's without the tag), for the tree t:info() says is @info;
-- nil if no node could hold it (below the base).
function G.place_of(info, id)
	if info.tagged then id = id & ((1 << info.tagged.id_bits) - 1) end
	if id < info.base then return nil end
	return id
end

--- G.path(t, p): the nodes on the way down to place @p (G.place_of()),
-- top first: as far as nodes go, empty if the top does not cover it.
function G.path(t, p)
	local list, n = {}, t:top()
	while n and p and p >= n.first and p <= n.last do
		list[#list + 1] = n
		if n.level == 0 then break end
		n = t:child(n, G.slot_of(n, p))
	end
	return list
end

return G
