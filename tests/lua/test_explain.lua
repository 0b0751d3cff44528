-- explain: the narration of each kind of operation, against golden text
-- in tests/golden/explain-*.txt.  IDR_UPDATE_GOLDEN=1 rewrites them (then
-- read the diff as a student would).
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local G = require "golden"

local function check(name, text)
	local file = "explain-" .. name .. ".txt"
	if text ~= G.want(file, text) then
		error(("%s differs from the narration:\n%s"):format(file, text), 2)
	end
end

local function fill(t, lo, hi)
	for i = lo, hi do assert(t:alloc("v", i, i + 1) == i) end
end

-- A small tree: the first ID, a slot skipped, growing, a failure.
local t = idr.new()
check("alloc", t:explain(function()
	t:alloc("a")
	t:alloc("b", 0, 0)
	fill(t, 2, 63)
	t:remove(4)
	t:alloc("c", 5)
	t:alloc("d", 0, 64)
	t:alloc("e", 0, 64)
end))

-- Three levels: the search goes up and right, bits change on the way up.
local d = idr.new()
fill(d, 0, 4095)
assert(d:remove(4000) == "v")
d:alloc("x", 4096)
check("three-levels", d:explain(function()
	d:alloc("y", 4000)
	d:alloc("z", 4000)
	d:remove(3968)
	d:alloc("w", 4000)
	d:find(4096)
	d:remove(4096)
end))

-- The other calls of today's API.
local o = idr.new()
fill(o, 0, 2)
o:set_cursor(1)
check("calls", o:explain(function()
	o:alloc_cyclic("c", 0, 4)
	o:alloc_cyclic("c", 0, 4)
	o:alloc_u32("u", 70, 100)
	o:replace(1, "new")
	o:get_next(3)
	o:for_each(function() end)
	-- Off the leaf it fills, which no removal packs: the move packs it.
	o:set_cursor(64)
	o:remove(2)
	o:find(2)
end))

-- The cyclic cursor leaves a leaf that removals thinned while it was
-- there: the allocation packs it, and says why.
local c = idr.new()
for i = 0, 62 do assert(c:alloc_cyclic("v", 0, 0) == i) end
for i = 1, 20 do assert(c:remove(i) == "v") end
assert(not c:explain(function() c:remove(0) end):find("packed"))
local left = c:explain(function() c:alloc_cyclic("v", 0, 0) end)
assert(left:find("Leaf L0 0..63 is packed into a smaller block: the " ..
	"cursor has left it", 1, true), left)

-- The 2004 API: -EAGAIN, then pre_get fills the cache.
local l = idr.new()
check("legacy", l:explain(function()
	l:get_new("a")
	l:pre_get()
	l:get_new("a")
	l:get_new_above("b", 100)
end))

-- Tagged IDs: generations above the ID bits.
local g = idr.new { tagged = { id_bits = 8 } }
check("tagged", g:explain(function()
	local a = g:alloc_tagged("a")
	g:remove_tagged(a)
	local b = g:alloc_tagged("b")
	g:find_tagged(a)
	g:find_tagged(b)
end))

-- The IDA: bitmaps of 4096 IDs in the leaf slots.
local a = idr.ida()
check("ida", a:explain(function()
	a:alloc()
	a:alloc(5000)
	a:exists(5000)
	a:free(5000)
	a:free(7)
end))

-- remove_tagged's check tells the tagged ID asked, not the 0 that
-- idr_tag_check() returns for a live one (issue 30).
do
	local tg = idr.new { tagged = { id_bits = 16 } }
	assert(tg:remove_tagged(tg:alloc_tagged("a")) == "a")
	local id = tg:alloc_tagged("b")
	assert(id == 65536, id)
	local text = tg:explain(tg.remove_tagged, tg, id)
	local _, n = text:gsub("Result: tagged ID 65536 = generation 1 << 16 | ID 0", "")
	assert(n == 2, text)
	assert(not text:find("tagged ID 0 =", 1, true), text)
end

-- On an RCU idr a freed node waits for readers before malloc has it back;
-- a plain idr's goes at once (a lone ID's leaf is born packed: to malloc).
do
	local function told(tree)
		tree:alloc("a")
		tree:alloc("b", 100)
		local text = tree:explain(tree.remove, tree, 100)
		tree:destroy()
		return text
	end
	local rcu = told(idr.new { rcu = true })
	assert(rcu:find("goes back to malloc, once the readers that may " ..
		"stand in it are done (an RCU grace period)", 1, true), rcu)
	local plain = told(idr.new())
	assert(not plain:find("grace period", 1, true), plain)
	assert(plain:find("goes back to malloc.", 1, true), plain)
end

-- A START below the base: the search begins at index 0, as the kernel's
-- idr_alloc_u32() does; an ID below it has no index.
do
	local b = idr.new { base = 1 }
	b:alloc("a")
	local text = b:explain(b.alloc, b, "b")
	assert(text:find("0 is below the base 1: the search begins at index " ..
		"0 (ID 1).", 1, true), text)
	assert(text:find("Digit 0, but slot 0 is full", 1, true), text)
	assert(not text:find("came here from the left", 1, true), text)
	text = b:explain(function() return b:find(0) end)
	assert(text:find("0 is below the base 1: no index holds it.", 1,
		true), text)
	-- The next-entry search and the cyclic one start at index 0 too.
	text = b:explain(function() return b:get_next(0) end)
	assert(text:find("0 is below the base 1: the search begins at index " ..
		"0 (ID 1).", 1, true), text)
	text = b:explain(function() return b:alloc_cyclic("c") end)
	assert(not text:find("came here from the left", 1, true), text)
	-- A range that ends at the base holds no ID: no search is told.
	b = idr.new { base = 5 }
	text = b:explain(function() return b:alloc("d", 1, 3) end)
	assert(text:find("-ENOSPC (the range ends at 3, at or below the base " ..
		"5: it holds no ID to hand out)", 1, true), text)
	-- A tagged ID below the base: the ID looked at, not the value given.
	local tg = idr.new { base = 5, tagged = { id_bits = 4 } }
	tg:alloc("a")
	text = tg:explain(function() return tg:find(34) end)
	assert(text:find("2 is below the base 5: no index holds it.", 1, true),
		text)
	b:destroy()
	tg:destroy()
end

-- An RCU idr copies a packed node to change it, growing or not: a
-- removal's copy is not "a copy with more room".
do
	local u = idr.new { rcu = true }
	for _ = 0, 63 do u:alloc("x") end
	for i = 0, 31 do u:remove(i) end
	local evs = u:events(u.remove, u, 50)
	local text = u:explain(evs)
	assert(text:find("An RCU idr never changes packed leaf L0 0..63 in " ..
		"place, as a reader may be in it: a copy with the change takes " ..
		"its place", 1, true), text)
	assert(not text:find("more room", 1, true), text)
	local steps = table.concat(u:step_texts(evs))
	assert(steps:find("node%-new: an RCU idr never changes packed leaf"),
		steps)
	assert(not steps:find("more room", 1, true), steps)
	u:destroy()
end
