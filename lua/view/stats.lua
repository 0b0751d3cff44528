-- stats.lua - t:stats_text(): what a tree costs, as "name: value" lines,
-- from the data t:stats() gives: a bar a level for the slots in use of
-- all that level's slots (an IDA's: and the bits set of its bitmaps'
-- bits), and the tree's bytes against a flat pointer array (an IDA's:
-- and a flat bitmap) of the IDs from the base to the highest.
local _, idr_methods, ida_methods, view = ...

local O = view "options"

local BAR = 25	-- characters in a full bar of the histogram

-- One bar: "|#####     | 25 of 64 (39%)"; a sliver for any use at all.
local function bar(name, used, all)
	local n = all > 0 and used * BAR // all or 0
	if used > 0 and n == 0 then n = 1 end
	return ("  %-4s |%s%s| %d of %d (%d%%)\n"):format(name, ("#"):rep(n),
		(" "):rep(BAR - n), used, all, all > 0 and used * 100 // all or 0)
end

-- How full each level is, top first; an IDA's bitmaps too.
local function histogram(st, ida, out)
	out[#out + 1] = ("slots in use, by level (# = %d%%):\n"):format(100 // BAR)
	for level = st.height - 1, 0, -1 do
		local all = st.level_slots[level + 1]
		-- Only leaves can be missing: keyed blocks stand for them.
		out[#out + 1] = all == 0
			and ("  %-4s no leaves: its IDs are in keyed blocks\n")
				:format("L" .. level)
			or bar("L" .. level, st.level_used[level + 1], all)
	end
	if ida and st.aux_nodes > 0 then
		out[#out + 1] = bar("bits", st.ids, st.bitmap_bits)
	end
end

-- The tree's bytes against a flat array of the same IDs, and the ratio.
local function flat(out, st, what, first, bytes, unit, ratio)
	out[#out + 1] = ("flat %s: %d bytes (IDs %d..%d, %s an ID)\n"):format(
		what, bytes, first, st.highest, unit)
	out[#out + 1] = ("tree / flat %s: %.3g\n"):format(what, ratio)
end

-- An RCU idr's blocks freed after a grace period, not in bytes yet.
local function rcu_line(st)
	return ("rcu: %d %s (%d bytes) wait for readers\n"):format(
		st.rcu_pending, st.rcu_pending == 1 and "block" or "blocks",
		st.rcu_pending_bytes)
end

-- Keyed blocks are packed nodes too (t:stats() counts them so); each
-- figure on a line of its own, a number a lesson can read.
local function packed_line(st)
	if st.keyed_blocks == 0 then
		return ("packed nodes: %d\n"):format(st.packed)
	end
	return ("packed nodes: %d\nkeyed blocks: %d\nIDs in keyed blocks: %d\n")
		:format(st.packed, st.keyed_blocks, st.keyed_ids)
end

--- t:stats_text() -> text.  See idr(3lua).
local function stats_text(t)
	local info = O.tree("stats_text", t)
	local st, ida = t:stats(), info.kind == "ida"
	local out = { ("ids: %d\n"):format(st.ids) }
	if info.tagged then out[#out + 1] = ("retired: %d\n"):format(st.retired) end
	out[#out + 1] = ("height: %d\nnodes: %d\n"):format(st.height, st.nodes)
	for level = st.height - 1, 0, -1 do
		out[#out + 1] = ("level %d nodes: %d\n"):format(level,
			st.level_nodes[level + 1])
	end
	if st.height > 0 then histogram(st, ida, out) end
	out[#out + 1] = packed_line(st)
	if st.aux_nodes > 0 then
		out[#out + 1] = ("%s: %d\n"):format(ida and "bitmaps" or
			"generation nodes", st.aux_nodes)
	end
	out[#out + 1] = ("cached nodes: %d\npreloaded nodes: %d\n"):format(
		st.cached, st.preloaded)
	out[#out + 1] = ("node size: %d bytes\nbytes: %d\n"):format(
		st.node_bytes, st.bytes)
	if info.rcu then
		out[#out + 1] = rcu_line(st)
	end
	if st.ids == 0 then
		-- No ID: no cost per ID, no lowest or highest.
		out[#out + 1] = "bytes per ID: none\nlowest ID: none\n" ..
			"highest ID: none\n"
		return table.concat(out)
	end
	out[#out + 1] = ("bytes per ID: %.3f\n"):format(st.bytes_per_id)
	-- A flat array holds every ID from the first the tree can hand out.
	local span = st.highest + 1 - info.base
	flat(out, st, "pointer array", info.base, st.flat_bytes,
		st.flat_bytes // span .. " bytes", st.flat_ratio)
	if ida then
		flat(out, st, "bitmap", 0, st.bitmap_bytes, "1 bit", st.bitmap_ratio)
	end
	out[#out + 1] = ("lowest ID: %d\nhighest ID: %d\n"):format(st.lowest,
		st.highest)
	return table.concat(out)
end

idr_methods.stats_text = stats_text
ida_methods.stats_text = stats_text

return true
