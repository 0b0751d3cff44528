-- path.lua - t:path_text(id): how one ID is found, in words, level by
-- level, from the data t:path(id) gives: its base-64 digits, the slot
-- taken at each level and why the walk stopped; on a tagged idr, the tag
-- and the slot's generation.
local _, idr_methods, ida_methods, view = ...

local G = view "geometry"
local O = view "options"

local ENDS = {
	found = "found: the ID is allocated",
	empty = "stop: the tree is empty",
	["below-base"] = "stop: the ID is below the idr's base",
	["above-top"] = "stop: the ID is beyond what the top node covers, " ..
		"so it is free",
	["no-child"] = "stop: no child in that slot, so every ID below it " ..
		"is free",
	["free-slot"] = "stop: the slot is free",
	retired = "stop: the slot is retired: its generations are used up",
}

-- The tag and the slot's generation: current only for a live ID; a
-- free slot's generation is its next ID's, and a slot with no leaf
-- has the seed's.
local function tag_lines(p)
	local g = 31 - p.id_bits
	local gen = p.gen & ((1 << g) - 1)
	local head = ("tagged idr: bits %d..30 of %d carry the tag %d, which " ..
		"idr_find() ignores; the ID is %d\n"):format(p.id_bits, p.id, p.tag,
		p.id & ((1 << p.id_bits) - 1))
	local last = p.steps[#p.steps]
	if p["end"] == "found" then
		return head .. ("the slot's generation is %d, %d mod 2^%d: tag " ..
			"%d is %s\n"):format(p.gen, gen, g, p.tag, gen == p.tag and
			"current" or "not current (stale, or never handed out)")
	elseif p["end"] == "retired" then
		return head .. ("the slot is retired, at generation %d: no tag of " ..
			"it is live, and no ID will be handed out there again\n")
			:format(p.gen)
	elseif p["end"] == "free-slot" and last and last.level == 0 then
		return head .. ("the slot is free, at generation %d: no tag of " ..
			"it is live; its next ID gets tag %d\n"):format(p.gen, gen)
	end
	return head .. ("no leaf holds the slot: no tag of it is live; a " ..
		"new leaf starts at the seed, generation %d\n"):format(p.gen)
end

-- How an IDA's walk ends in its leaf: at a bitmap whose bit for the
-- ID is clear, or at a slot that holds no bitmap.
local function ida_end(p)
	local last = p.steps[#p.steps]
	if last and last.level == 0 and last.present then
		return ("stop: bit %d of the bitmap is clear, so the ID is " ..
			"free"):format(p.bit)
	end
	return "stop: no bitmap in that slot, so every ID of it is free"
end

-- The ID's key in a keyed block: its index's bits below the block's
-- digit.
local function key_of(p)
	return p.index % (G.SLOTS * G.SLOTS)
end

-- A step in a keyed block (s.keyed: the IDs it holds): the block, then
-- the run of keys that holds the ID's, if there is one.
local function keyed_line(s, p)
	local where = ("L%d %d..%d: "):format(s.level, s.first, s.last)
	if s.level > 0 then
		return where .. ("keyed block of %d ID%s (a packed node with no " ..
			"leaves): slot %d holds %s of its keys\n"):format(s.keyed,
			s.keyed == 1 and "" or "s", s.slot,
			s.present and "some" or "none")
	end
	return where .. ("slot %d is %s: key %d is %s the block\n"):format(
		s.slot, s.present and "in use" or "empty", key_of(p),
		s.present and "in" or "not in")
end

-- @retired: the leaf's slot is retired, full for good but holding no ID.
local function step_line(s, ida, retired)
	local what
	if retired then
		what = "retired"
	elseif not s.present then
		what = "empty"
	elseif ida and s.level == 0 then
		return ("L%d %d..%d: slot %d holds a bitmap, %s\n"):format(
			s.level, s.first, s.last, s.slot, s.full and "full" or
			"with room")
	elseif s.full then
		what = s.level > 0 and "present, full below" or "in use"
	else
		what = s.level > 0 and "present, with room below" or
			"in use, with room"
	end
	return ("L%d %d..%d: slot %d is %s\n"):format(s.level, s.first,
		s.last, s.slot, what)
end

--- t:path_text(id) -> text.  See idr(3lua).
local function path_text(t, ...)
	O.tree("path_text", t)
	local id = O.id_arg("path_text", ...)
	local p = t:path(id)
	local out = { ("path of %s %d, in a tree of height %d\n"):format(
		p.ida and "IDA ID" or "ID", p.id, p.height) }
	if p.id_bits then out[#out + 1] = tag_lines(p) end
	if p["end"] ~= "below-base" then
		if p.ida then
			out[#out + 1] = ("bitmap %d, bit %d (%d IDs a bitmap)\n"):format(
				p.index, p.bit, G.CHUNK)
		end
		out[#out + 1] = ("index %d in base %d: %s (one digit a level, " ..
			"top first)\n"):format(p.index, G.SLOTS,
			table.concat(p.digits, " "))
	end
	local e, last = p["end"], p.steps[#p.steps]
	for i, s in ipairs(p.steps) do
		out[#out + 1] = s.keyed and keyed_line(s, p) or
			step_line(s, p.ida, i == #p.steps and e == "retired")
	end
	if last and last.keyed and e ~= "found" then
		out[#out + 1] = ("stop: key %d is not in the keyed block, so " ..
			"the ID is free\n"):format(key_of(p))
	else
		out[#out + 1] = (p.ida and e == "free-slot" and ida_end(p) or
			ENDS[e]) .. "\n"
	end
	return table.concat(out)
end

idr_methods.path_text = path_text
ida_methods.path_text = path_text

return true
