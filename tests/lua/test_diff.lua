-- t:mark() and t:diff() against a naive diff written here, as the old
-- one was: copy every node (t:nodes()) and entry (t:pairs()) into Lua
-- tables, then compare the copies.  Random operations between the mark
-- and the diff, on an idr (with a base, reserved IDs, far IDs that grow
-- the tree), a tagged idr that retires slots, and an IDA; then the
-- text's lines and bounds, what a mark costs, and misuse.
local idr = require "idr"

local seed = tonumber(os.getenv("IDR_SEED") or "") or 28
math.randomseed(seed)

-- {======================== The naive diff ========================

-- Reserved IDs too (an IDA's pairs takes no options, and ignores them).
local function copy(t)
	local ids, values = {}, {}
	for id, v in t:pairs { reserved = true } do
		ids[#ids + 1], values[#ids + 1] = id, v
	end
	local nodes = t:nodes()
	return { nodes = nodes, ids = ids, values = values,
		height = nodes[1] and nodes[1].level + 1 or 0 }
end

local function slots_of(map)
	local list = {}
	for i = 0, 63 do
		if map >> i & 1 == 1 then list[#list + 1] = i end
	end
	return list
end

-- A keyed block's run of keys is no node (t:stats() counts none).
local function is_run(n)
	return n.keyed ~= nil and n.level == 0
end

local function node_diffs(old, new, out)
	local before, list = {}, {}
	for _, n in ipairs(old) do before[n.level .. ":" .. n.first] = n end
	local function record(change, n)
		if is_run(n) then return end
		list[#list + 1] = { change = change, level = n.level,
			first = n.first, last = n.last, full = n.full,
			present = n.present, slots = n.slots,
			keyed = n.keyed and true or nil }
	end
	for _, n in ipairs(new) do
		local k = n.level .. ":" .. n.first
		local a = before[k]
		before[k] = nil
		if not a then
			record("node-new", n)
		elseif (a.keyed ~= nil) ~= (n.keyed ~= nil) then
			-- A keyed block where a node was, or the other way round.
			record("node-free", a)
			record("node-new", n)
		elseif is_run(n) then -- luacheck: ignore 542
		elseif a.full ~= n.full or a.present ~= n.present then
			list[#list + 1] = { change = "bits", level = n.level,
				first = n.first, last = n.last,
				keyed = n.keyed and true or nil,
				full_set = slots_of(n.full & ~a.full),
				full_cleared = slots_of(a.full & ~n.full),
				present_set = slots_of(n.present & ~a.present),
				present_cleared = slots_of(a.present & ~n.present) }
		end
	end
	for _, n in pairs(before) do record("node-free", n) end
	table.sort(list, function(a, b)
		if a.first ~= b.first then return a.first < b.first end
		if a.level ~= b.level then return a.level > b.level end
		return a.change < b.change -- a node freed, then one in its place
	end)
	table.move(list, 1, #list, #out + 1, out)
end

local function entry_diffs(old, new, out)
	local i, j, a, b = 1, 1, old.ids, new.ids
	while i <= #a or j <= #b do
		local x, y = a[i], b[j]
		if y == nil or (x ~= nil and x < y) then
			out[#out + 1] = { change = "removed", id = x, value = old.values[i] }
			i = i + 1
		elseif x == nil or y < x then
			out[#out + 1] = { change = "added", id = y, value = new.values[j] }
			j = j + 1
		else
			if not rawequal(old.values[i], new.values[j]) then
				out[#out + 1] = { change = "replaced", id = x,
					from = old.values[i], to = new.values[j] }
			end
			i, j = i + 1, j + 1
		end
	end
end

local function naive(old, new)
	local out = {}
	if old.height ~= new.height then
		out[1] = { change = "height", from = old.height, to = new.height }
	end
	node_diffs(old.nodes, new.nodes, out)
	entry_diffs(old, new, out)
	return out
end

-- }======================================================

-- {======================== Comparing ========================

local function same(a, b, path)
	if type(a) ~= "table" or type(b) ~= "table" then
		assert(rawequal(a, b), path .. ": " .. tostring(a) .. " ~= " ..
			tostring(b) .. " (seed " .. seed .. ")")
		return
	end
	for k, v in pairs(a) do same(v, b[k], path .. "." .. tostring(k)) end
	for k in pairs(b) do
		assert(a[k] ~= nil, path .. "." .. tostring(k) .. " extra")
	end
end

local VALUES = { "a", "b", 1, 2.5, true, false, {}, "a long string " ..
	("x"):rep(50), function() end }

local function value()
	return VALUES[math.random(#VALUES)]
end

-- Some IDs in use, in no order.
local function some_id(t)
	local ids = {}
	for id in t:pairs { reserved = true } do ids[#ids + 1] = id end
	return ids[math.random(math.max(#ids, 1))]
end

local function idr_op(t, span)
	local r = math.random(10)
	if r <= 4 then
		t:alloc(value())
	elseif r == 5 then
		t:alloc(value(), math.random(0, span))
	elseif r == 6 then
		t:alloc(nil, math.random(0, 200))
	elseif r <= 8 then
		local id = some_id(t)
		if id then t:remove(id) end
	else
		local id = some_id(t)
		if id then t:replace(id, math.random(4) > 1 and value() or nil) end
	end
end

local function ida_op(t, span)
	if math.random(3) == 1 then
		local id = some_id(t)
		if id then t:free(id) end
	else
		t:alloc(math.random(0, span))
	end
end

local function tagged_op(t)
	if math.random(3) == 1 then
		local id = some_id(t)
		if id then t:remove(id) end
	else
		t:alloc_tagged(value())
	end
end

-- @rounds of: a mark, @ops random operations, the diff against the
-- naive one, and diff_text's lines against the list.
local function differential(t, op, rounds, ops)
	for _ = 1, rounds do
		local before, snap = copy(t), t:mark()
		for _ = 1, math.random(0, ops) do op(t) end
		local want, got = naive(before, copy(t)), t:diff(snap)
		same(want, got, "diff")
		assert(#t:diff(snap) == #got)	-- a mark serves many diffs
	end
end

differential(idr.new(), function(t) idr_op(t, 300) end, 60, 40)
differential(idr.new { base = 7 }, function(t) idr_op(t, 5000) end, 40, 20)
differential(idr.new(), function(t) idr_op(t, 1 << 30) end, 30, 8)
differential(idr.new { tagged = { id_bits = 8, retire = true } },
	tagged_op, 40, 60)
differential(idr.ida(), function(t) ida_op(t, 20000) end, 40, 30)
differential(idr.ida(), function(t) ida_op(t, 1 << 28) end, 20, 5)

-- The tree shrinks, then grows, under a mark: nodes of one first ID at
-- several levels, each compared with its own.
local g = idr.new()
for i = 0, 9 do g:alloc(i) end
g:alloc("far", 1 << 20)
for _, change in ipairs { function() g:remove(1 << 20) end,
	function() g:alloc("far", 1 << 25) end } do
	local before, mg = copy(g), g:mark()
	change()
	same(naive(before, copy(g)), g:diff(mg), "height")
end

-- Values are compared raw: an equal string is no change (a long one
-- too, though another object), a new table is; 1 and 1.0 are equal.
local v = idr.new()
v:alloc("s" .. ("y"):rep(60))
v:alloc({})
v:alloc(1)
local mv = v:mark()
v:replace(0, "s" .. ("y"):rep(60))
v:replace(1, {})
v:replace(2, 1.0)
local vl = v:diff(mv)
assert(#vl == 1 and vl[1].change == "replaced" and vl[1].id == 1, #vl)

-- }======================================================

-- {======================== The text ========================

-- Folds @list as diff_text does: a run of 4 or more consecutive IDs
-- added (or removed) is one line.  Returns the lines' changes and sizes.
local function folded(list)
	local lines, run = {}, nil
	local function flush()
		if not run then return end
		if #run >= 4 then
			lines[#lines + 1] = { run = true, n = #run }
		else
			for _ = 1, #run do lines[#lines + 1] = { n = 1 } end
		end
		run = nil
	end
	for _, c in ipairs(list) do
		local runs = c.change == "added" or c.change == "removed"
		if run and runs and c.change == run.change and
			c.id == run[#run].id + 1 then
			run[#run + 1] = c
		else
			flush()
			if runs then run = { c, change = c.change } else
				lines[#lines + 1] = { n = 1 } end
		end
	end
	flush()
	return lines
end

local function text_lines(text)
	local lines = {}
	for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
	return lines
end

local function check_text(t, snap)
	local list = t:diff(snap)
	local all = text_lines(t:diff_text(snap, { max_lines = 0 }))
	local want = folded(list)
	if #list == 0 then
		assert(#all == 1 and all[1] == "no change since the mark")
		return
	end
	assert(#all == #want + 1, #all .. " lines, want " .. #want + 1)
	for i, w in ipairs(want) do
		assert(not w.run == not all[i + 1]:find("^  %a+ +%d+%.%.%d+ %(%d+ IDs%)$"),
			all[i + 1])
	end
	for _ = 1, 3 do
		local max = math.random(1, #want + 1)
		local cut = text_lines(t:diff_text(snap, { max_lines = max }))
		local shown = 0
		for i = 1, math.min(max, #want) do
			assert(cut[i + 1] == all[i + 1])
			shown = shown + want[i].n
		end
		if shown < #list then
			assert(#cut == math.min(max, #want) + 2)
			assert(cut[#cut]:find("^  %.%.%. and " .. #list - shown ..
				" more changes? not shown"), cut[#cut])
		else
			assert(#cut == #want + 1)
		end
	end
end

local tx = idr.new()
for _ = 1, 30 do
	local snap = tx:mark()
	for _ = 1, math.random(0, 80) do idr_op(tx, 400) end
	for _ = 1, math.random(0, 2) do
		local at = math.random(0, 300)
		for i = at, at + math.random(3, 9) do tx:alloc(true, i, i + 1) end
	end
	check_text(tx, snap)
end

-- }======================================================

-- {======================== What a mark costs ========================

-- The Lua memory a mark takes (its bytes and the values it holds).
local function mark_cost(t)
	collectgarbage("collect")
	local k0 = collectgarbage("count")
	local snap = t:mark()
	collectgarbage("collect")
	return (collectgarbage("count") - k0) * 1024, snap
end

local sparse, dense = idr.new(), idr.new()
local n = 0
while n < 20000 do
	local id = math.random(0, (1 << 31) - 1)
	if sparse:alloc_u32(true, id, id) then n = n + 1 end
end
for _ = 1, 20000 do dense:alloc(true) end
for _, t in ipairs { sparse, dense } do
	local bytes, snap = mark_cost(t)
	local tree = t:stats().bytes
	assert(snap.bytes < tree and bytes <= tree,
		("a mark of %d bytes (%d in all) for a tree of %d"):format(
			snap.bytes, bytes, tree))
	assert(snap.values == 1 and snap.count == 20000)
end

-- Distinct values: one reference each, as the idr's own table holds.
local names = {}
for i = 1, 20000 do names[i] = "v" .. i end
collectgarbage("collect")
local k0 = collectgarbage("count")
local distinct = idr.new()
for i = 1, 20000 do distinct:alloc(names[i]) end
collectgarbage("collect")
local table_bytes = (collectgarbage("count") - k0) * 1024
local bytes, snap = mark_cost(distinct)
assert(snap.values == 20000)
assert(bytes <= distinct:stats().bytes + table_bytes, bytes)

-- A dense IDA's mark holds a byte a full bitmap.
local ida = idr.ida()
for _ = 1, 100000 do ida:alloc() end
local mi = ida:mark()
assert(mi.bytes < ida:stats().bytes // 10 and mi.count == 100000)

-- max_entries: a mark of the shape only.
local shape = dense:mark { max_entries = 100 }
assert(shape.entries == false and shape.values == 0 and
	shape.bytes < snap.bytes)

-- }======================================================

-- {======================== Misuse ========================

local a, b = idr.new(), idr.new()
a:alloc("x")
local ma = a:mark()
local function fails(pattern, f, ...)
	local ok, err = pcall(f, ...)
	assert(not ok and tostring(err):find(pattern), tostring(err))
end
fails("the mark is of another tree", b.diff, b, ma)
fails("the mark is of another tree", b.diff_text, b, ma)
fails("the mark is of another tree", ida.diff, ida, ma)
fails("a mark expected", a.diff, a, "\1\2garbage bytes")
fails("a mark expected", a.diff, a, setmetatable({}, getmetatable(ma) or {}))
fails("a mark expected", a.diff_text, a, nil)
fails("attempt to index a idr.mark value", function() ma.count = 3 end)
fails("max_entries", a.mark, a, { max_entries = -1 })
fails("max_entries", a.mark, a, { max_entries = 1.5 })
assert(a:diff(ma)[1] == nil)
a:destroy()
fails("destroyed", a.diff, a, ma)
fails("destroyed", a.mark, a)
-- The mark outlives its tree, and still tells what it was.
assert(ma.count == 1 and ma.kind == "idr")

-- }======================================================

-- A keyed block is one node and its runs of keys none, as t:stats()
-- counts: a split frees the block and makes a node and its leaves; a key
-- added to a block changes the block.
do
	local k = idr.new()
	for i = 0, 7 do k:alloc("k", 4096 + i * 100, 4097 + i * 100) end
	local before, kmark = k:census().nodes, k:mark()
	k:alloc("n", 5000, 5001)
	local text = k:diff_text(kmark)
	assert(text:find("since the mark: 10 nodes made, 1 freed; 1 ID added",
		1, true), text)
	assert(text:find("freed   L1 4096..8191, a keyed block\n", 1, true), text)
	assert(k:census().nodes - before == 10 - 1)
	k:destroy()
	k = idr.new()
	for i = 0, 3 do k:alloc("k", 4096 + i * 100, 4097 + i * 100) end
	kmark = k:mark()
	k:alloc("n", 5000, 5001)
	text = k:diff_text(kmark)
	assert(text:find("since the mark: 1 node changed; 1 ID added", 1, true),
		text)
	assert(text:find("changed L1 4096..8191, a keyed block: keys now " ..
		"under 14", 1, true), text)
	k:destroy()
end

-- A tagged idr's IDs live now show their tagged IDs, as alloc_tagged
-- printed them.
do
	local tg = idr.new { tagged = { id_bits = 8 } }
	tg:remove_tagged(assert(tg:alloc_tagged("x")))
	local tmark = tg:mark()
	assert(tg:alloc_tagged("z") == 256)
	local text = tg:diff_text(tmark)
	assert(text:find("added   0 (tagged 256) = z", 1, true), text)
	tg:destroy()
end
