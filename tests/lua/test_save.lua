-- Save and load: random trees (plain, with a base, cyclic, reserved IDs,
-- values of any bytes, tagged with stale tags and a seed, retiring, RCU,
-- IDA)
-- saved and loaded again answer every question alike; a bad file, or a
-- build that fails, loads nothing and leaves no memory behind.
local idr = require "idr"

local TMP = os.tmpname()

local function random_bytes()
	local n, b = math.random(0, 12), {}
	for i = 1, n do b[i] = string.char(math.random(0, 255)) end
	if math.random(4) == 1 then b[#b + 1] = "é\n\t \"\\" end
	return table.concat(b)
end

local VALUES = {
	function() return nil end,
	random_bytes,
	function() return math.random(-1000, 1000) end,
	function() return math.random() * 1e6 end,
	function() return math.random(2) == 1 end,
	function() return "" end,
}
local function random_value() return VALUES[math.random(#VALUES)]() end

-- A tree with a history: ops allocate, remove, cycle and retag.
local function random_tree(span)
	local kind = math.random(4)
	if kind == 4 then
		local t = idr.ida()
		for _ = 1, span do
			local id = math.random(0, span)
			if t:exists(id) then t:free(id) else t:alloc(id, id) end
		end
		return t
	end
	local opts = { base = kind == 1 and math.random(0, 5) or 0 }
	opts.rcu = kind ~= 1 and math.random(4) == 1
	if kind == 3 then
		opts.tagged = { id_bits = math.random(7, 12),
			retire = math.random(2) == 1 }
	end
	local t = idr.new(opts)
	if kind == 3 then
		local limit = 1 << (31 - opts.tagged.id_bits)
		t:set_seed(math.random(0, limit // 2))
	end
	for _ = 1, span * 2 do
		local id, r = math.random(0, span), math.random(10)
		if r <= 4 then
			t:remove(id)
		elseif r <= 6 then
			t:alloc_cyclic(random_value(), 0, span)
		else
			t:alloc(random_value(), id, id + 1)
		end
	end
	t:set_cursor(math.random(0, span))
	return t
end

local function same(a, b, what)
	if a ~= b and not (a ~= a and b ~= b) then
		error(("%s: %s ~= %s"):format(what, tostring(a), tostring(b)), 2)
	end
end

local function same_info(a, b)
	local x, y = a:info(), b:info()
	same(x.kind, y.kind, "kind")
	same(x.base, y.base, "base")
	same(x.rcu, y.rcu, "rcu")
	same(x.tagged ~= nil, y.tagged ~= nil, "tagged")
	if x.tagged then
		same(x.tagged.id_bits, y.tagged.id_bits, "id_bits")
		same(x.tagged.retire, y.tagged.retire, "retire")
	end
end

-- Every ID's answer, every tag's, the counters, seed and cursor.
local function same_answers(a, b, span)
	same_info(a, b)
	same(#a, #b, "count")
	local info = a:info()
	for id = 0, span + 70 do
		if info.kind == "ida" then
			same(a:exists(id), b:exists(id), "exists " .. id)
		else
			local v1, _, e1 = a:find(id)
			local v2, _, e2 = b:find(id)
			same(v1, v2, "find " .. id)
			same(e1, e2, "find's error " .. id)
		end
	end
	if info.kind == "ida" then return end
	same(a:get_cursor(), b:get_cursor(), "cursor")
	if not info.tagged then return end
	same(a:get_seed(), b:get_seed(), "seed")
	local bits = info.tagged.id_bits
	for id = 0, math.min(span + 70, (1 << bits) - 1) do
		local g1, leaf1 = a:get_gen(id)
		local g2, leaf2 = b:get_gen(id)
		same(g1, g2, "counter " .. id)
		same(leaf1, leaf2, "leaf of " .. id)
		for gen = 0, 40 do
			local tag = gen << bits | id
			same(select(3, a:check(tag)), select(3, b:check(tag)),
				"check " .. tag)
		end
	end
	-- Tagged trees and IDAs keep no packed leaf: the same nodes.
	same(a:dump(), b:dump(), "dump")
end

-- The same allocations on both give the same IDs.
local function same_next(a, b, span)
	local ida = a:info().kind == "ida"
	for _ = 1, 20 do
		local start = math.random(0, span)
		if ida then
			same(a:alloc(start), b:alloc(start), "next ida alloc")
		elseif a:info().tagged then
			same(a:alloc_tagged("n", start), b:alloc_tagged("n", start),
				"next alloc_tagged")
		else
			same(a:alloc_cyclic("n", start), b:alloc_cyclic("n", start),
				"next alloc_cyclic")
		end
	end
end

math.randomseed(31)
for round = 1, 60 do
	local span = math.random(10, 300)
	local trees, originals = {}, {}
	for i = 1, math.random(1, 3) do
		trees["t" .. i] = random_tree(span)
		originals[i] = trees["t" .. i]
	end
	local cur = "t" .. math.random(#originals)
	assert(idr.save(TMP, trees, cur))
	local t, loaded, got_cur, names = idr.load(TMP)
	assert(t, loaded)
	same(got_cur, cur, "current")
	assert(t == loaded[cur] and #names == #originals, "round " .. round)
	for i, orig in ipairs(originals) do
		local ok, err = pcall(same_answers, orig, loaded["t" .. i], span)
		if not ok then error("round " .. round .. ", t" .. i .. ": " .. err) end
		same_next(orig, loaded["t" .. i], span)
	end
	-- A file saved from the copy is the same file.
	local f = io.open(TMP)
	local first = f:read("a")
	f:close()
	for i, orig in ipairs(originals) do
		orig:destroy()
		loaded["t" .. i]:destroy()
	end
	assert(#first > 0)
end

-- What was written is read back byte for byte: t:save, idr.load.
local t = idr.new {}
local all = {}
for c = 0, 255 do all[#all + 1] = string.char(c) end
t:alloc(table.concat(all))
t:alloc("plain text, \"quotes\" and a \\ backslash")
t:alloc("\u{1F600} emoji, \u{85} a C1 control, \xed\xa0\x80 a surrogate")
assert(t:save(TMP))
local f = io.open(TMP)
local text = f:read("a")
f:close()
assert(text:find('"plain text, \\"quotes\\" and a \\\\ backslash"', 1, true))
assert(text:find("\u{1F600} emoji, \\xc2\\x85 a C1", 1, true), text)
local u = idr.load(TMP)
for id, v in t:pairs() do assert(u:find(id) == v, id) end

-- What a save cannot hold: a table value.
t:alloc({})
local ok, msg, code = t:save(TMP)
assert(ok == nil and code == "EINVAL" and msg:find("id 3's value is a table"))

-- Bad files: each names its line and loads nothing.
local good = "idr-save 1\ntree a idr base=0 cursor=0\nid 0 \"x\"\nid 1\n" ..
	"current a\nend\n"
assert(idr.load_text(good))
local BAD = {
	{ "", ":1: an empty file" },
	{ "idr-save 2\n" .. good:sub(12), ":1: written by a newer idr (format 2)" },
	{ "hello\n", ":1: not an idr save file" },
	{ good:gsub("id 1\n", "id 1 x\n"), ":4: a bad value x" },
	{ good:gsub("id 1\n", "id 0\n"), ":4: id 0 is not above 0" },
	{ good:gsub("id 1\n", "id 99999999999\n"), ":4: an id is a number" },
	{ good:gsub("current a", "current b"), ":5: no tree named b" },
	{ good:gsub("idr base", "ida base"), ":2: a ida tree takes no 'base=0'" },
	{ good .. "id 3\n", ":7: a line after 'end'" },
	{ good:gsub("\"x\"", "\"x\\q\""), ":3: a bad escape" },
	{ "idr-save 1\ntree a tagged id_bits=28 retire=yes seed=9\nend\n",
		":2: seed is past the limit" },
	{ "idr-save 1\ntree a ida\nrange 0 2147483647\nend\n",
		":3: more than 16777216 ids" },
	-- Checked, but it cannot be built: worn out, no leaf for ID 5.
	{ "idr-save 1\ntree a idr\nid 1\ntree b tagged id_bits=28 retire=yes" ..
		" seed=8\nid 5\nend\n", ":5: tree b cannot be built" },
}
-- A cut anywhere but after 'end' is caught too.
for cut = 1, #good - 2 do
	BAD[#BAD + 1] = { good:sub(1, cut), "" }
end
collectgarbage()
local before = idr.mem().bytes
for i, case in ipairs(BAD) do
	local r, err, errno = idr.load_text(case[1], "f")
	assert(r == nil and err and errno, "case " .. i .. " loaded")
	assert(err:find("^f:%d+: ") and err:find(case[2], 1, true),
		("case %d: %s"):format(i, err))
end
collectgarbage()
assert(idr.mem().bytes == before, "a refused load left memory behind")

-- Out of memory at each allocation of a load: all of it or nothing.
local big = idr.new { tagged = { id_bits = 20 } }
for i = 0, 300, 3 do big:alloc(i, i * 7, i * 7 + 1) end
assert(big:save(TMP))
local n, loads = 0, 0
repeat
	local base_bytes = idr.mem().bytes
	idr.fault(n, 1)
	local r = idr.load(TMP)
	idr.fault(0, 0)
	if r then
		loads = loads + 1
		same_answers(big, r, 2200)
		r:destroy()
	end
	collectgarbage()
	assert(idr.mem().bytes == base_bytes, "fault " .. n .. " leaked")
	n = n + 1
until r or n > 2000
assert(loads == 1 and n > 3, n)
big:destroy()

os.remove(TMP)
os.remove(TMP .. ".new")
