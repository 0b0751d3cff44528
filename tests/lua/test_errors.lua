-- Misuse raises, with the method's name and the argument's number;
-- nothing is changed by a call that raised.
local idr = require "idr"

-- f must raise an error whose message contains @text (plainly).
local function raises(text, f, ...)
	local ok, err = pcall(f, ...)
	assert(not ok, "no error; expected: " .. text)
	err = tostring(err)
	assert(err:find(text, 1, true), "got: " .. err .. "; expected: " .. text)
end

local t = idr.new()
t:alloc("a")
t:alloc("b")
local before = t:dump()

-- Types.
raises("bad argument #2 to 'alloc' (number expected, got table)",
	function() return t:alloc("v", {}) end)
raises("bad argument #3 to 'alloc' (number expected, got string)",
	function() return t:alloc("v", 1, "x") end)
raises("bad argument #1 to 'find' (number expected, got no value)",
	function() return t:find() end)
raises("bad argument #1 to 'remove' (number expected, got nil)",
	function() return t:remove(nil) end)
raises("bad argument #1 to 'replace' (number expected, got boolean)",
	function() return t:replace(true, 1) end)
raises("bad argument #1 to 'for_each' (function expected, got no value)",
	function() return t:for_each() end)
raises("bad argument #1 to 'trace' (function expected, got number)",
	function() return t:trace(1) end)
raises("idr expected, got table", function() return t.find({}, 1) end)
raises("idr expected, got ida",
	function() return t.alloc(idr.ida(), 1) end)
raises("ida expected, got idr",
	function() return idr.ida().alloc(t) end)
raises("idr or ida expected, got number", function() return t.dump(1) end)

-- Fractions, and numbers with no integer form.
raises("bad argument #1 to 'find' (number has no integer representation)",
	function() return t:find(1.5) end)
raises("number has no integer representation",
	function() return t:alloc("v", 0.5) end)
raises("number has no integer representation",
	function() return t:remove(2^63) end)
raises("number has no integer representation",
	function() return t:find(0/0) end)
raises("number has no integer representation",
	function() return t:find(math.huge) end)
raises("number expected, got string", function() return t:find("x") end)

-- Integers the C API cannot take: never truncated.
local int_max, u32_max = 2147483647, 4294967295
for _, bad in ipairs { -1, 2^31, 2^32, math.maxinteger, math.mininteger } do
	raises("out of range [0, 2147483647]",
		function() return t:alloc("v", bad) end)
	raises("out of range [0, 2147483647]",
		function() return t:alloc_cyclic("v", bad) end)
	raises("out of range [0, 2147483647]",
		function() return t:get_new_above("v", bad) end)
end
raises("bad argument #2 to 'alloc' (2147483648 out of range [0, 2147483647])",
	function() return t:alloc("v", 2^31) end)
raises("bad argument #2 to 'alloc' (-1 out of range [0, 2147483647])",
	function() return t:alloc("v", -1) end)
raises("bad argument #3 to 'alloc' (2147483648 out of range",
	function() return t:alloc("v", 0, 2^31) end)
raises("bad argument #3 to 'alloc'",
	function() return t:alloc("v", 0, math.mininteger) end)
for _, bad in ipairs { -1, 2^32, math.maxinteger, math.mininteger } do
	for _, m in ipairs { "find", "remove", "get_next", "path",
			"path_text" } do
		raises("out of range [0, 4294967295]",
			function() return t[m](t, bad) end)
	end
	raises("out of range [0, 4294967295]",
		function() return t:replace(bad, 1) end)
	raises("out of range [0, 4294967295]",
		function() return t:alloc_u32(1, bad) end)
	raises("out of range [0, 4294967295]",
		function() return t:alloc_u32(1, 0, bad) end)
	raises("out of range [0, 4294967295]",
		function() return t:set_cursor(bad) end)
end
raises("bad argument #1 to 'find' (4294967296 out of range [0, 4294967295])",
	function() return t:find(2^32) end)
-- 2^31 is a valid ID where the C API takes unsigned long.
assert(t:find(2^31) == nil)
assert(t:find(u32_max) == nil)
assert(select(3, t:remove(int_max)) == "ENOENT")

-- Tagged calls take int IDs.
local g = idr.new { tagged = { id_bits = 8 } }
for _, m in ipairs { "find_tagged", "remove_tagged", "check", "untag" } do
	raises("out of range [0, 2147483647]",
		function() return g[m](g, 2^31) end)
	raises("out of range [0, 2147483647]",
		function() return g[m](g, -1) end)
	raises("not a tagged idr", function() return t[m](t, 1) end)
end
raises("not a tagged idr", function() return t:alloc_tagged("x") end)

-- IDA arguments.
local a = idr.ida()
for _, bad in ipairs { -1, 2^32, math.maxinteger } do
	raises("out of range [0, 4294967295]", function() return a:alloc(bad) end)
	raises("out of range [0, 4294967295]",
		function() return a:alloc(0, bad) end)
	raises("out of range [0, 4294967295]", function() return a:free(bad) end)
	raises("out of range [0, 4294967295]",
		function() return a:exists(bad) end)
	raises("out of range [0, 4294967295]",
		function() return a:find_first(bad) end)
end
raises("number has no integer representation",
	function() return a:free(1.5) end)

-- Options of idr.new.
raises("bad argument #1 to 'new' (table expected, got number)",
	function() return idr.new(1) end)
raises("unknown option 'bsae'", function() return idr.new { bsae = 1 } end)
raises("unknown option '1'", function() return idr.new { 1 } end)
raises("base must be an integer in [0, 2147483647]",
	function() return idr.new { base = -1 } end)
raises("base must be an integer in [0, 2147483647]",
	function() return idr.new { base = 2^31 } end)
raises("base must be an integer in [0, 2147483647]",
	function() return idr.new { base = 1.5 } end)
-- Options convert as arguments do (lua_tointegerx): "1" and 1.0 are 1.
assert(idr.new { base = "1" }:alloc(0) == 1)
raises("base must be an integer", function() return idr.new { base = "x" } end)
raises("id_bits must be an integer in [1, 30]",
	function() return idr.new { tagged = { id_bits = 0 } } end)
raises("id_bits must be an integer in [1, 30]",
	function() return idr.new { tagged = { id_bits = 31 } } end)
raises("tagged must be true or a table",
	function() return idr.new { tagged = 16 } end)
-- A typo inside tagged gave a 16-bit idr without a word; gen_bits (as
-- t:info() gives it) must agree with id_bits.
raises("unknown option 'tagged.idbits'",
	function() return idr.new { tagged = { idbits = 8 } } end)
raises("unknown option 'tagged.1'",
	function() return idr.new { tagged = { 8 } } end)
raises("gen_bits must be 31 - id_bits (23)",
	function() return idr.new { tagged = { id_bits = 8, gen_bits = 8 } } end)
raises("gen_bits must be 31 - id_bits (15)",
	function() return idr.new { tagged = { gen_bits = 8 } } end)
assert(idr.new { tagged = { id_bits = 8, gen_bits = 23 } }:info().tagged
	.id_bits == 8)
-- A base past the tagged IDs made an idr that could never allocate.
raises("base must be below 2^id_bits (256) on a tagged idr",
	function() return idr.new { base = 256, tagged = { id_bits = 8 } } end)
raises("base must be below 2^id_bits (65536) on a tagged idr",
	function() return idr.new { tagged = true, base = 65536 } end)
assert(idr.new { base = 255, tagged = { id_bits = 8 } }:alloc_tagged("x")
	== 255)
assert(idr.new { tagged = false }.alloc_tagged == t.alloc_tagged)
raises("not a tagged idr",
	function() return idr.new { tagged = false }:alloc_tagged(1) end)

-- dump options.
raises("bad argument #1 to 'dump' (table expected, got number)",
	function() return t:dump(3) end)
raises("max_entries must be an integer in [1, 64]",
	function() return t:dump { max_entries = -1 } end)
raises("max_nodes must be an integer in [1, 2147483647]",
	function() return t:dot { max_nodes = "x" } end)

-- The fault-injection hook.
raises("out of range", function() return idr.fault(-1, 1) end)
raises("number expected", function() return idr.fault({}) end)

-- After all that, nothing changed.
assert(t:dump() == before and #t == 2 and t:validate())

-- Use after destroy.
local d = idr.new()
d:alloc("x")
d:trace(print)
d:destroy()
for _, m in ipairs { "alloc", "alloc_cyclic", "alloc_u32", "find", "remove",
		"replace", "get_next", "pairs", "for_each", "is_empty", "count",
		"pre_get", "cache_count", "get_new", "get_new_above", "trace", "dump", "dot",
		"path", "path_text", "stats", "stats_text", "validate",
		"get_cursor", "set_cursor" } do
	raises("attempt to use a destroyed idr",
		function() return d[m](d, 1, 1) end)
end
raises("attempt to use a destroyed idr", function() return #d end)
raises("attempt to use a destroyed idr",
	function() for _ in pairs(d) do end end)
d:destroy()
assert(tostring(d) == "idr (destroyed)")

local da = idr.ida()
da:destroy()
for _, m in ipairs { "alloc", "free", "exists", "find_first", "count",
		"is_empty", "pairs", "dump", "dot", "path", "stats",
		"validate" } do
	raises("attempt to use a destroyed ida",
		function() return da[m](da, 1) end)
end
raises("attempt to use a destroyed ida", function() return #da end)
da:destroy()
assert(tostring(da) == "ida (destroyed)")

-- Events given back to the views: a clear error, not one from inside
-- the module ("words.lua:28: bad argument #2 to 'fmt'").
raises("bad argument #1 to 'event_words' (event 1 (visit) has no level)",
	idr.event_words, { event = "visit" })
raises("bad argument #1 to 'event_words' (event 1 is not an event table",
	idr.event_words, { event = "nonsense" })
raises("bad argument #1 to 'event_words' (event 1 (done) has no op)",
	idr.event_words, { event = "done" })
assert(idr.event_words({ event = "visit", level = 0, first = 0, last = 63,
	slot = 1 }).verb)
local ev = idr.new()
raises("bad argument #1 to 'step_texts' (events must be a list of events",
	ev.step_texts, ev, "x")
raises("bad argument #1 to 'step_texts' (event 1: level must be an integer",
	ev.step_texts, ev, { { event = "visit", level = 99, first = 0,
		last = 0, slot = 1 } })
-- An option takes a boolean: reserved = 1 was read as true.
raises("reserved must be a boolean", function()
	for _ in ev:pairs { reserved = 1 } do end
end)

-- Events a view tells are checked first, each field for what its words
-- read: a clear error, never one from inside a view.
do
	local leaf = { event = "slot-set", level = 0, first = 0, last = 63,
		slot = 1, full = 0 }
	local function with(k, v)
		local e = {}
		for f, x in pairs(leaf) do e[f] = x end
		e[k] = v
		return e
	end
	local e = idr.new()
	raises("event 1 (op) has no op", e.explain, e, { { event = "op" } })
	raises("event 1 (op alloc) has no start", e.explain, e,
		{ { event = "op", op = "alloc" } })
	raises("event 1 (done) has no op", e.explain, e, { { event = "done" } })
	raises("slot must be an integer in [0, 63], not -5", idr.event_text,
		with("slot", -5))
	raises("slot must be an integer in [0, 63], not 64", idr.event_text,
		with("slot", 64))
	raises("slot must be an integer, not 0.5", idr.event_text,
		with("slot", 0.5))
	raises("full must be an integer, not x", idr.event_text,
		with("full", "x"))
	raises("first 64 is above last 63", idr.event_text, with("first", 64))
	raises("present must be an integer bitmap", idr.event_text, leaf, "x")
	raises("event 1 (op alloc) has no start", idr.event_text,
		{ event = "op", op = "alloc" })
	raises("event 1 (op alloc) has no start", e.step_texts, e,
		{ { event = "op", op = "alloc" } })
	-- An IDA bitmap's bit is a slot of its own range.
	assert(idr.event_text { event = "bit-set", level = 0, first = 0,
		last = idr.IDA_BITMAP_BITS - 1, slot = 100, full = 0 })
	local r = idr.recorder()
	raises("slot must be an integer in [0, 63], not 70", r.frame, r,
		{ events = { with("slot", 70) } })
	raises("event 1 (op) has no op", r.frame, r,
		{ events = { { event = "op" } } })
	raises("no option foo", r.frame, r, { foo = 1 })
	raises("command must be a string, not table", r.frame, r,
		{ command = {} })
	assert(r:count() == 0)
	raises("no frame 1: the recorder has none", r.frame_boxes, r, 1)
	r:frame { command = "x" }
	raises("no frame 2: the recorder has frames 1 to 1", r.frame_boxes, r, 2)
	raises("no frame x", r.frame_boxes, r, "x")
	assert(#r:frame_boxes(1) == 0)
	e:destroy()
end
