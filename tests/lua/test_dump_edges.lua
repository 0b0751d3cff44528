-- The text dump at its edges, as the C unit tests pinned them before the
-- dump moved to Lua (lua/view/dump.lua): the way down to one IDA ID, a
-- range's first and last IDs, max_lines exactly at a dump's length and
-- one under, a full dump held to max_lines collapsed first, a depth past
-- the height, and lines of 80 columns at most.
local idr = require "idr"

local function lines(s)
	return select(2, s:gsub("\n", ""))
end

local function has(s, plain)
	return s:find(plain, 1, true) ~= nil
end

-- IDs @from .. @to - 1, each its own value.
local function fill(t, from, to)
	for id = from, to - 1 do t:alloc_u32(id, id, id) end
	return t
end

-- An IDA's dump down to one ID shows the nodes that hold its bit; a bit
-- beyond the tree, none.
do
	local a = idr.ida()
	a:alloc()
	local text = a:dump { at = 0 }
	assert(has(text, "\nL0 0..") and not has(text, "it is free"))
	text = a:dump { at = 1 << 30 }
	assert(not has(text, "\nL0 0..") and
		has(text, "holds ID 1073741824: it is free"))
end

-- A range's first and last IDs are in it, the IDs either side are not.
do
	local t = fill(idr.new(), 0, 128)
	local text = t:dump { full = true, range = { 63, 64 } }
	assert(not has(text, " 62:62") and has(text, " 63:63"))
	assert(has(text, " 64:64") and not has(text, " 65:65"))
	text = t:dump { full = true, range = { 64, 64 } }
	assert(not has(text, " 63:63") and has(text, " 64:64"))
	assert(not has(text, " 65:65"))
end

-- Held to max_lines and still too long at one level, the dump is cut to
-- max_lines - 1 lines and the line that says so; one that fits in
-- max_lines - 1 exactly is whole.  Here one level takes 4 lines: header,
-- the top node, its map, the leaves' run.
do
	local t = idr.new()
	for id = 0, 3 * 64 - 1, 2 do t:alloc_u32(id, id, id) end
	assert(t:census().height == 2)
	for max = 2, 7 do
		local text = t:dump { max_lines = max }
		assert(lines(text) == math.min(max, 5), max)
		assert(has(text, "\n(1 of 2 levels shown"))
		assert(has(text, "L0 0..") == (max >= 5))
	end
end

-- A dump of three levels whose two top levels take max_lines - 1 lines
-- exactly shows those two; one line fewer, and it shows one.
do
	local t = idr.new()
	for id = 0, 3 * 64 - 1, 2 do t:alloc_u32(id, id, id) end
	t:alloc_u32(4096, 4096, 4096)
	assert(t:census().height == 3)
	local two = lines(t:dump { depth = 2 })
	local text = t:dump { max_lines = two + 1 }
	assert(lines(text) == two + 1)
	assert(has(text, "\n(2 of 3 levels shown"))
	assert(not has(text, "lines cut") and has(text, "; more: full, depth,"))
	assert(has(t:dump { max_lines = two }, "\n(1 of 3 levels shown"))
	-- A depth past the height, held to max_lines, is the height.
	assert(t:dump { depth = 3, max_lines = 3 } ==
		t:dump { depth = 34, max_lines = 3 })
	assert(has(t:dump { depth = 3, max_lines = 3 }, "\n(1 of 3 levels shown"))
end

-- A full dump held to max_lines is collapsed first at every level: if
-- that fits, no level is lost.
do
	local t = fill(idr.new(), 0, 2 * 64 * 64)
	assert(t:census().height == 3)
	local collapsed = lines(t:dump())
	local text = t:dump { full = true, max_lines = collapsed + 1 }
	assert(lines(text) == collapsed + 1)
	assert(has(text, "\n(3 of 3 levels shown; more:"))
end

-- max_lines below the dump's length cuts it; at its length, it is whole.
do
	local t = idr.new()
	for id = 0, 3 * 64 - 1, 64 do t:alloc(id, id) end
	local all = t:dump()
	local n = lines(all)
	assert(n > 3)
	assert(lines(t:dump { max_lines = 2 }) == 2)
	assert(lines(t:dump { max_lines = 3 }) == 3)
	assert(t:dump { max_lines = n } == all)
	local cut = t:dump { max_lines = n - 1 }
	assert(cut ~= all and lines(cut) <= n - 1)
end

-- No line is wider than 80 columns; two entries that fill a line share
-- it, one column more and the second wraps.
do
	local t = idr.new()
	t:alloc(string.rep("x", 36), 0)
	local top = t:dump()
	for line in top:gmatch("[^\n]+") do assert(#line <= 80) end
	local function entries(a, b, entries_max)
		local u = idr.new()
		u:alloc(string.rep("0", a), 0)
		u:alloc(string.rep("0", b), 1)
		local text = u:dump { entries = entries_max }
		return text:match("\n(  0:.*)$")
	end
	assert(entries(30, 30) == "  0:" .. ("0"):rep(30) .. " 1:" ..
		("0"):rep(30) .. "\n")
	-- 2 + "0:" 36 + " 1:" 37 = 80 columns.
	assert(entries(36, 37) == "  0:" .. ("0"):rep(36) .. " 1:" ..
		("0"):rep(37) .. "\n", "80 columns: one line")
	assert(entries(37, 37) == "  0:" .. ("0"):rep(37) .. "\n  1:" ..
		("0"):rep(37) .. "\n", "81: the second wraps")
end

-- The same dump each time, and the tree as it was.
do
	local t = fill(idr.new(), 0, 5000)
	assert(t:dump() == t:dump() and #t == 5000 and t:validate())
end
