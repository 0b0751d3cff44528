-- The dumps and statistics of larger trees, with their options, against
-- tests/golden/ byte for byte: runs of alike siblings collapsed level by
-- level, the way down to one ID, a range, fewer levels, max_nodes, a
-- dump held to max_lines (collapsed, cut), and stats as text.  (The
-- small trees' dumps and paths: test_views.lua.)
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local G = require "golden"

local function golden(name, got)
	local want = G.want(name .. ".txt", got)
	if got == want then return end
	local i = 1
	while got:sub(i, i) == want:sub(i, i) do i = i + 1 end
	error(("%s differs at byte %d; got:\n%s"):format(name, i, got), 2)
end

-- Dumps of @t with each of @list's options, one after the other.
local function dumps(name, t, list)
	local out = {}
	for i, o in ipairs(list) do
		out[#out + 1] = ("== dump %d\n"):format(i)
		out[#out + 1] = t:dump(o)
	end
	golden(name, table.concat(out))
end

-- 100,000 IDs in a row: full subtrees collapse, level by level, to the
-- one path that still has room.
local dense = idr.new()
for i = 0, 99999 do assert(dense:alloc("s") == i) end
dumps("dense", dense, {
	{}, { at = 70000 }, { range = { 99900, 99970 } }, { depth = 1 },
	{ max_nodes = 2 },
	{ full = true, range = { 99800, 99999 }, entries = 2 },
})

-- 500 IDs 64 apart, one a leaf: leaves alike collapse; held to 12 lines,
-- the dump shows fewer levels and says how to see more.
local sparse = idr.new()
for i = 0, 499 do sparse:alloc("s", i * 64 + 5) end
dumps("sparse-collapsed", sparse, { {}, { max_lines = 12 }, { at = 5 } })

-- A hole in a dense tree: the runs on both sides, the leaves at its ends.
local holed = idr.new()
for i = 0, 19999 do assert(holed:alloc("s") == i) end
for i = 1000, 8999 do assert(holed:remove(i) == "s") end
dumps("hole", holed, { {} })

-- L1 children and gaps in turn: even one level is longer than 12 lines,
-- so the dump is cut and says how many lines were; max_lines 2 is the
-- header and that last line.
local cut = idr.new()
for i = 0, 63, 2 do cut:alloc("s", i * 4096) end
dumps("cut", cut, { { max_lines = 12 }, { max_lines = 2 } })

-- stats as text: the trees above, an IDA, an idr with a base, an empty
-- one, and one whose only ID is in a keyed block (no leaf).
local ida = idr.ida()
for i = 0, 4999 do assert(ida:alloc() == i) end
assert(ida:alloc(100000) == 100000)
local based = idr.new { base = 1000 }
based:alloc("s", 1005)
based:alloc("s", 70000)
local far = idr.new()
far:alloc("s", 1000000)
golden("stats", table.concat {
	"== 100000 IDs\n", dense:stats_text(),
	"== a hole\n", holed:stats_text(),
	"== an IDA\n", ida:stats_text(),
	"== base 1000\n", based:stats_text(),
	"== empty\n", idr.new():stats_text(),
	"== one far ID, in a keyed block\n", far:stats_text(),
})
