-- Looking inside: dump, dot, path, stats and their text forms.  The
-- dumps of the C unit tests' scenarios, built from Lua, must match
-- tests/golden/ byte for byte.
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local G = require "golden"

local function golden(name, tree, ids)
	local text = { tree:dump() }
	for _, id in ipairs(ids) do text[#text + 1] = tree:path_text(id) end
	local got = table.concat(text)
	local want = G.want(name .. ".txt", got)
	assert(got == want, name .. " differs; got:\n" .. got)
end

golden("empty", idr.new(), { 0, 5 })

local one = idr.new()
one:alloc("zero")
golden("one", one, { 0, 1, 64 })

local full = idr.new()
for _ = 1, 64 do full:alloc("v") end
golden("full-leaf", full, { 63, 64 })

local three = idr.new()
for _ = 1, 70 do three:alloc("v") end
three:alloc(nil, 8300)
golden("three-levels", three, { 8300, 9000, 70, 300000 })

local sparse = idr.new { base = 1 }
for _, at in ipairs { 5, 1000, 70000, 1048579, 1073741824 } do
	sparse:alloc("s", at)
end
golden("sparse", sparse, { 1000, 1073741824, 2000000000 })

-- Lone IDs in keyed blocks (0, an empty tree's first ID below 64, takes
-- a whole leaf): the dump says keyed block and its runs, the path the
-- ID's key, in or not.
local keyed = idr.new()
for _, id in ipairs { 0, 16777216, 100000, 100005, 100200, 300000 } do
	assert(keyed:alloc_u32("s", id, id) == id)
end
golden("keyed", keyed, { 100005, 100001, 100100, 16777216 })

local tagged = idr.new { tagged = { id_bits = 16 } }
local a = tagged:alloc_tagged("a")
local b = tagged:alloc_tagged("b")
tagged:remove_tagged(a)
golden("tagged", tagged, { a, tagged:alloc_tagged("c"), b })

local ida = idr.ida()
for _ = 1, 5000 do ida:alloc() end
ida:free(4097)
ida:alloc(100000)
golden("ida", ida, { 4097, 5000, 100000 })

-- Values as the dump prints them: numbers plain, strings as the shell's
-- 'list' shows them (quoted when they hold a space, a quote or a control
-- character), others by type, reserved IDs as (reserved); control characters
-- never break a line.
local v = idr.new()
for _, x in ipairs { 42, -7, 1.5, "text", true, false } do v:alloc(x) end
v:replace(1, -7.0)
v:alloc({})
v:alloc(print)
v:alloc(nil)
v:alloc("two\nlines\ttab")
v:alloc(io.stdout)
v:alloc(coroutine.create(print))
v:alloc(2^53)
local d = v:dump { max_entries = 64 }
assert(d:find("0:42 1:-7.0 2:1.5 3:text 4:true 5:false 6:table 7:function " ..
	"8:(reserved)\n", 1, true), d)
assert(d:find(' 9:"two\\nlines\\ttab" 10:userdata 11:thread ' ..
	tostring(12) .. ":" .. tostring(2^53) .. "\n", 1, true), d)
-- max_entries cuts a leaf's list.
assert(v:dump():find("(+5 more)", 1, true))
assert(v:dump { max_entries = 2 }:find("0:42 1:-7.0 (+11 more)", 1, true))
-- A long value is cut to 40 characters, so its line fits in 80 columns
-- at any depth.
local long = idr.new()
long:alloc(string.rep("x", 500), 2147483647)
long:alloc(string.rep("y", 40), 2147483646)
local ld = long:dump()
for line in ld:gmatch("[^\n]+") do assert(#line <= 80, line) end
assert(ld:find(" 2147483647:" .. string.rep("x", 37) .. "...\n", 1, true), ld)
assert(ld:find("2147483646:" .. string.rep("y", 40) .. "\n", 1, true), ld)
-- The dump does not change the idr and is the same each time.
assert(v:dump() == v:dump() and #v == 13 and v:validate())

-- DOT: tests/lua/test_dot.lua.

-- path: a table mirroring struct idr_path.
local p = three:path(8300)
assert(p.id == 8300 and p.index == 8300 and p.height == 3)
assert(p["end"] == "found" and p.value == nil)
assert(table.concat(p.digits, " ") == "2 1 44")
assert(#p.steps == 3)
local s1, s3 = p.steps[1], p.steps[3]
assert(s1.level == 2 and s1.first == 0 and s1.last == 262143)
assert(s1.slot == 2 and s1.present == true and s1.full == false)
assert(s1.shift == 12)
assert(s3.level == 0 and s3.slot == 44 and s3.present and s3.full)
assert(three:path(5).value == "v")
assert(three:path(9000)["end"] == "no-child")
assert(three:path(70)["end"] == "free-slot")
assert(three:path(300000)["end"] == "above-top")
assert(idr.new():path(3)["end"] == "empty")
assert(sparse:path(0)["end"] == "below-base")
local tp = tagged:path((1 << 16) | 0)
assert(tp.id_bits == 16 and tp.tag == 1 and tp.gen == 1 and tp.value == "c")
assert(tp.ida == nil and tp.bit == nil)
assert(p.id_bits == nil and p.tag == nil)

-- stats: a table mirroring struct idr_stats.
-- Every node of the sparse tree but 5's leaf is packed (a lone ID's):
-- three are keyed blocks, which stand for a level-1 node and no leaf.
local st = sparse:stats()
assert(st.ids == 5 and st.height == 5 and st.nodes == 12)
assert(#st.level_nodes == 5 and st.level_nodes[1] == 2, "[1]: leaves")
assert(st.level_nodes[2] == 4 and st.level_nodes[5] == 1)
assert(st.packed == 11 and st.keyed_blocks == 3 and st.keyed_ids == 3)
assert(st.node_bytes > 0 and st.bytes > st.node_bytes)
assert(st.bytes - st.node_bytes < st.node_bytes, "11 packed, in a node's")
assert(st.bytes_per_id == st.bytes / 5)
assert(st.lowest == 5 and st.highest == 1073741824)
assert(st.cached == 0 and st.preloaded == 0 and st.retired == 0)
assert(st.aux_nodes == 0)
-- Removals pack a leaf: fewer bytes, the same IDs.
local thin = idr.new()
for i = 0, 63 do thin:alloc(i) end
for i = 1, 63, 2 do thin:remove(i) end
local ts = thin:stats()
assert(ts.packed == 1 and ts.ids == 32 and ts.bytes < ts.node_bytes)
assert(thin:find(62) == 62 and thin:find(63) == nil)
-- Room for 32, and at most an eighth more.
local cap = tonumber(thin:dump():match(", packed in (%d+)"))
assert(cap and cap >= 32 and cap <= 36, cap)
local es = idr.new():stats()
assert(es.ids == 0 and es.lowest == -1 and es.highest == -1)
assert(es.bytes_per_id == 0 and #es.level_nodes == 0)
assert(tagged:stats().aux_nodes == 1)

-- The text forms.
assert(sparse:stats_text():find("^ids: 5\nheight: 5\nnodes: 12\n"))
assert(sparse:stats_text():find("lowest ID: 5\nhighest ID: 1073741824\n",
	1, true))
assert(one:path_text(0):find("found: the ID is allocated\n$"))

-- validate.
assert(three:validate() == true and ida:validate() == true)

-- t:events() collects one piece of work's events and keeps the trace.
do
	local t = idr.new()
	local seen = 0
	assert(t:trace(function() seen = seen + 1 end) == nil)
	local evs, id = t:events(function() return t:alloc("x", 64) end)
	assert(id == 64, id)
	assert(#evs > 0 and seen == #evs, #evs .. " " .. seen)
	local kinds = {}
	for _, e in ipairs(evs) do kinds[e.event] = true end
	assert(kinds["node-new"] and kinds["attach"] and kinds["slot-set"])
	local before = seen
	local more = t:events(function() t:alloc("y") end)
	assert(#more > 0 and seen == before + #more, "the old trace sees each")
	local ok, err = pcall(t.events, t, function() error("boom", 0) end)
	assert(not ok and err == "boom")
	assert(type(t:trace(nil)) == "function", "events() put the trace back")
end

-- t:nodes(): the shape, parent first, bitmaps as integers.
do
	local t = idr.new()
	for i = 0, 100 do t:alloc(i) end
	local ns = t:nodes()
	assert(#ns == 3, #ns)
	assert(ns[1].level == 1 and ns[1].depth == 0 and ns[1].present == 3)
	assert(ns[1].full == 1, "the first leaf is full, the second not")
	assert(ns[2].first == 0 and ns[2].last == 63 and ns[2].full == -1)
	assert(ns[3].first == 64 and ns[3].present == (1 << 37) - 1)
	t:remove(100)
	assert(t:nodes()[3].present == (1 << 36) - 1)
	assert(#idr.new():nodes() == 0)
	local bits = idr.ida()
	bits:alloc()
	assert(#bits:nodes() == 1 and bits:nodes()[1].present == 1)
end

-- step's rows: the dump's symbols, as the node was just after each event
-- (t:step_texts works it out backwards from the tree as it is now).
do
	local t = idr.new()
	t:alloc("a")
	local evs = t:events(function()
		t:alloc("b", 5)
		t:alloc("c", 64)     -- grow: a new top, the old one attached
		t:remove(64)         -- detach, free, shrink
	end)
	local texts = t:step_texts(evs)
	assert(#texts == #evs)
	local function row_of(i)
		return texts[i]:match("\n  ([#+.%-]+)\n")
	end
	local seen = {}
	for i, ev in ipairs(evs) do
		local r, cell = row_of(i), nil
		if r then cell = r:sub(ev.slot + 1, ev.slot + 1) end
		if ev.event == "slot-set" then
			assert(cell == "#", texts[i])      -- the entry it tells is shown
		elseif ev.event == "slot-clear" then
			assert(cell == ".", texts[i])
		elseif ev.event == "attach" then
			assert(cell == "+" or cell == "#", texts[i])
		elseif ev.event == "detach" then
			assert(cell == "-", texts[i])
		elseif ev.event == "node-new" and ev.level == 1 then
			assert(r == ("-"):rep(64), texts[i])  -- a new node holds nothing
		end
		seen[ev.event] = true
	end
	for _, e in ipairs { "slot-set", "slot-clear", "attach", "detach" } do
		assert(seen[e], e)
	end
	-- The last row of the leaf is the dump's map of it.
	local leaf = t:dump():match("L0 0..63[^\n]*\n%s+([#.]+)\n")
	local last
	for i, ev in ipairs(evs) do
		if ev.level == 0 and ev.first == 0 and row_of(i) then last = row_of(i) end
	end
	assert(last == leaf, tostring(last) .. "\n" .. tostring(leaf))
	-- An IDA's leaf holds bitmaps: '+' one with room, '-' none.
	local bits = idr.ida()
	local text = bits:step_text(bits.alloc, bits)
	assert(text:find("\nstep 4, slot%-set: [^\n]*\n[^\n]*\n  %+%-+\n"), text)
end

-- path on an IDA: a bitmap whose bit is clear is not "a free slot"
-- (issue 30): the leaf's slot holds the bitmap, the ID's bit is clear.
do
	local bits = idr.ida()
	assert(bits:alloc() == 0)
	local text = bits:path_text(5)
	assert(text:find("\nL0 0..262143: slot 0 holds a bitmap, with room\n", 1,
		true), text)
	assert(text:find("\nstop: bit 5 of the bitmap is clear, so the ID is " ..
		"free\n$"), text)
	assert(not text:find("the slot is free", 1, true), text)
	text = bits:path_text(9000)
	assert(text:find("\nstop: no bitmap in that slot, so every ID of it " ..
		"is free\n$"), text)
	assert(bits:path_text(0):find("\nfound: the ID is allocated\n$"))
end

-- A destroyed tree's steps: no node to read, so the rows show full bits.
do
	local gone = idr.new()
	local evs = gone:events(gone.alloc, gone, 1)
	gone:destroy()
	local texts = gone:step_texts(evs)
	assert(#texts == #evs and texts[3]:find("(# full, . not full)", 1, true),
		texts[3])
end
