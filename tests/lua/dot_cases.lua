-- dot_cases.lua - the trees the DOT tests draw, shared by
-- tests/lua/test_dot_plan.lua (which checks the pictures) and
-- tests/views.bats (which renders each with Graphviz, through
-- tests/lua/dot_files.lua).  Each returns an idr (or an IDA) and the
-- options of its picture.
local idr = require "idr"

local C = {}

-- 3000 IDs scattered below @limit, the same for the same @seed, as the
-- C unit tests drew them (an LCG, then an ID where it falls, if free).
function C.scatter(t, seed, limit)
	for _ = 1, 3000 do
		seed = (seed * 1103515245 + 12345) % 2147483648
		local id = seed % limit
		t:alloc_u32("v", id, id)
	end
	return t
end

-- A small tree, as a lesson draws it: five IDs in a row, 64 and 300 on
-- leaves of their own (asked for alone, as idr_alloc_u32() with a range
-- of one: their leaves are packed, and so is the top 64 added), then 70
-- with its events kept.
function C.small()
	local t = idr.new()
	for i = 0, 4 do t:alloc("v" .. i) end
	t:alloc_u32("big", 64, 64)
	t:alloc_u32("far", 300, 300)
	local ev = t:events(t.alloc_u32, t, "x<&>", 70, 70)
	return t, { at = 70, changed = ev }
end

-- The trees of tests/golden/{empty,one,...}.txt.
function C.empty() return idr.new(), {} end

function C.one()
	local t = idr.new()
	t:alloc("zero")
	return t, {}
end

function C.full_leaf()
	local t = idr.new()
	for _ = 1, 64 do t:alloc("v") end
	return t, {}
end

function C.three_levels()
	local t = idr.new()
	for _ = 1, 70 do t:alloc("v") end
	t:alloc(nil, 8300)
	return t, {}
end

function C.sparse()
	local t = idr.new { base = 1 }
	for _, at in ipairs { 5, 1000, 70000, 1048579, 1073741824 } do
		t:alloc("s", at)
	end
	return t, {}
end

function C.tagged()
	local t = idr.new { tagged = { id_bits = 16 } }
	local a = t:alloc_tagged("a")
	t:alloc_tagged("b")
	t:remove_tagged(a)
	t:alloc_tagged("c")
	return t, {}
end

function C.ida()
	local a = idr.ida()
	for _ = 1, 5000 do a:alloc() end
	a:free(4097)
	a:alloc(100000)
	return a, {}
end

-- Beyond max_nodes, DOT counts the rest in dotted boxes.
function C.large()
	local t = idr.new()
	for i = 0, 199 do t:alloc_u32("v", i * 100003 % 1000000) end
	return t, { max_nodes = 5 }
end

-- A million IDs in a row collapse to a handful of boxes.
function C.million()
	local t = idr.new()
	for _ = 1, 1000000 do t:alloc(true) end
	return t, {}
end

-- IDs scattered over 31 bits, the way to one: dotted boxes.
function C.sparse_31()
	local t = C.scatter(idr.new(), 1, 2147483647)
	t:alloc_u32("v", 1234567, 1234567)
	return t, { at = 1234567 }
end

-- The scenarios, by the name of their DOT file.
C.files = {
	{ "small", C.small }, { "empty", C.empty }, { "one", C.one },
	{ "full-leaf", C.full_leaf }, { "three-levels", C.three_levels },
	{ "sparse", C.sparse }, { "tagged", C.tagged }, { "ida", C.ida },
	{ "large", C.large }, { "million", C.million },
	{ "million-at", function()
		local t = C.million()
		return t, { at = 500000 }
	end },
	{ "sparse-31", C.sparse_31 },
}

return C
