-- t:dot{}: the Graphviz picture, its options (at, changed, full,
-- max_entries, max_nodes) and the first invalid value each side of each.
local idr = require "idr"

local function raises(pattern, fn)
	local ok, err = pcall(fn)
	assert(not ok, "no error; wanted " .. pattern)
	assert(tostring(err):find(pattern, 1, true), tostring(err))
end

local function count(s, pat)
	local n = 0
	for _ in s:gmatch(pat) do n = n + 1 end
	return n
end

local PATH_NODE = 'BORDER="3" COLOR="#0072b2"'
local CHANGED = "\u{25c6}</FONT></TD>"	-- the diamond over a changed cell
local ON_PATH = "\u{25bc}</FONT></TD>"	-- the triangle over the way down

-- A leaf's entries, escaped for an HTML-like label; a digraph each time.
local v = idr.new()
v:alloc(42)
v:alloc('say "hi" <&>')
v:alloc("two\nlines")
local dot = v:dot()
assert(dot:find("^digraph idr {\n") and dot:find("}\n$"))
-- Quoted as list quotes them, then escaped for the label.
assert(dot:find('0:42 1:&quot;say \\&quot;hi\\&quot; &lt;&amp;&gt;&quot; ' ..
	'2:&quot;two\\nlines&quot;</TD>', 1, true), dot)
assert(idr.new():dot():find("(empty)", 1, true))
assert(v:dot { max_entries = 1 }:find(">0:42 (+2 more)</TD>", 1, true))
assert(v:dot() == v:dot() and #v == 3 and v:validate())

-- at: the way down to an ID, drawn in blue, a marker over each slot.
local t = idr.new()
for i = 0, 4 do t:alloc(i) end
t:alloc("big", 64)
t:alloc("far", 300)
local at = t:dot { at = 70 }
assert(count(at, PATH_NODE) == 2 and count(at, ON_PATH) == 2, at)
assert(at:find("the way down to ID 70.", 1, true))
assert(not t:dot():find(PATH_NODE, 1, true))
-- An ID beyond the top: no way down to draw.
assert(not t:dot { at = 4294967295 }:find(PATH_NODE, 1, true))

-- changed: the cells the events of t:events() changed.
local events = t:events(function() return t:alloc("x", 70) end)
local ch = t:dot { changed = events }
assert(count(ch, CHANGED) == 1, ch)
assert(ch:find("a cell the last operation changed", 1, true))
-- A removal marks the freed cell; a lookup's visits mark nothing.
assert(count(t:dot { changed = t:events(t.remove, t, 300) }, CHANGED) == 1)
assert(count(t:dot { changed = t:events(t.find, t, 70) }, CHANGED) == 0)
assert(count(t:dot { changed = {} }, CHANGED) == 0)
-- Growing a level: the new top's two slots, and the new leaf's cell.
local g = idr.new()
g:alloc("a")
local grown = g:dot { changed = g:events(g.alloc, g, "b", 64) }
assert(count(grown, CHANGED) == 3, grown)

-- A million IDs collapse to a handful of boxes; the way to one inside a
-- collapsed run is drawn all the same.
local m = idr.new()
for _ = 1, 100000 do m:alloc(true) end
local md = m:dot()
assert(count(md, "%[label=<<TABLE") <= 6 and md:find("collapsed", 1, true))
assert(count(m:dot { at = 5000 }, PATH_NODE) == 3)
assert(m:dot { full = true }:find("(max_nodes 64)", 1, true))
assert(count(m:dot { full = true, max_nodes = 10 }, "%[label=<<TABLE") == 10)

-- An IDA draws too.
local a = idr.ida()
for _ = 1, 5000 do a:alloc() end
assert(a:dot():find("^digraph ida {"))
assert(a:dot { at = 4096 }:find(PATH_NODE, 1, true))

-- Bad options: the first invalid value each side, and what is valid.
raises("table expected", function() return t:dot(3) end)
raises("at must be an integer in [0, 4294967295]", function() return t:dot { at = -1 } end)
assert(t:dot { at = 0 })
assert(t:dot { at = 4294967295 })
raises("at must be an integer in [0, 4294967295]",
	function() return t:dot { at = 4294967296 } end)
raises("at must be an integer", function() return t:dot { at = 1.5 } end)
-- A numeric string converts, as luaL_checkinteger converts it.
assert(t:dot { at = "70" } == t:dot { at = 70 })
raises("changed must be a list of events",
	function() return t:dot { changed = "x" } end)
-- A length from __len whose bytes wrap around size_t is refused, not
-- allocated short and written past (1 << 61 events of 104 bytes: 0).
local function claims(n)
	return setmetatable({}, { __len = function() return n end,
		__index = function(_, i)
			if i <= 3 then return { event = "visit", slot = i } end
		end })
end
raises("changed has a length of 2305843009213693952",
	function() return t:dot { changed = claims(1 << 61) } end)
raises("changed has a length of -1",
	function() return t:dot { changed = claims(-1) } end)
raises("changed[4] must be an event table",
	function() return t:dot { changed = claims(4) } end)
raises("changed[1] must be an event table",
	function() return t:dot { changed = { 1 } } end)
raises("changed[2].event is not an event name",
	function() return t:dot { changed = { events[1], { event = "nope" } } } end)
raises("changed[1].event is not an event name",
	function() return t:dot { changed = { { event = 3 } } } end)
local function ev(field, value)
	local e = { event = "slot-set", level = 0, first = 0, last = 63, slot = 0 }
	e[field] = value
	return { e }
end
raises("changed[1].level must be an integer 0..33",
	function() return t:dot { changed = ev("level", -1) } end)
assert(t:dot { changed = ev("level", 0) })
assert(t:dot { changed = ev("level", 33) })
raises("changed[1].level must be an integer 0..33",
	function() return t:dot { changed = ev("level", 34) } end)
raises("changed[1].slot must be an integer",
	function() return t:dot { changed = ev("slot", -1) } end)
assert(t:dot { changed = ev("slot", 0) })
raises("changed[1].first must be an integer",
	function() return t:dot { changed = ev("first", -1) } end)
raises("changed[1].last must be an integer",
	function() return t:dot { changed = ev("last", 0.5) } end)
raises("max_nodes must be an integer in [1, 2147483647]",
	function() return t:dot { max_nodes = 0 } end)
assert(t:dot { max_nodes = 1 })
raises("max_entries must be an integer in [1, 64]",
	function() return t:dot { max_entries = 0 } end)
assert(t:dot { max_entries = 64 })
raises("max_entries must be an integer in [1, 64]",
	function() return t:dot { max_entries = 65 } end)
raises("max_entries must be an integer",
	function() return t:dot { max_entries = "x" } end)
raises("unknown option 'depth'", function() return t:dot { depth = 1 } end)
-- A cell event naming no node of the tree marks nothing, and fails not.
local nowhere = ev("first", 64000)
assert(count(t:dot { changed = nowhere }, CHANGED) == 0)
nowhere[1].last = 64063
assert(count(t:dot { changed = nowhere }, CHANGED) == 0)
assert(count(t:dot { changed = ev("first", 0) }, CHANGED) == 1)
-- Options that raise leave the tree as it was.
assert(t:validate() and #t == 7)

-- A view's own memory does not spend idr.fault(): the next tree
-- operation that allocates still fails, and the tree is as it was.  (Two
-- failures: a lone ID's packed blocks, then the whole nodes it falls
-- back on.)
idr.fault(0, 2)
assert(count(t:dot { changed = events }, CHANGED) > 0)
assert(t:dump { max_lines = 3 } and t:stats_text() and t:path_text(0))
local none, _, errno = t:alloc("x", 100000)
idr.fault(0, 0)
assert(none == nil and errno == "ENOMEM", errno)
assert(t:validate() and #t == 7 and t:dot { changed = events })

-- What a picture leaves out is counted up to 10000 nodes, then "at
-- least": a huge tree's picture costs what a small one's does.
do
	local big = idr.new()
	for i = 1, 20000 do assert(big:alloc_u32(true, i << 16)) end
	local total = big:census().nodes
	assert(total > 20000, total)
	local d = big:dot {}
	local shown = d:match("Dotted boxes: at least (%d+) nodes not drawn")
	assert(shown and tonumber(shown) >= 10000 and tonumber(shown) < total, d)
	assert(d:find("%(at least %d+ nodes%)"))
	local small = idr.new()
	for i = 1, 200 do assert(small:alloc_u32(true, i << 18)) end
	d = small:dot {}
	shown = tonumber(d:match("Dotted boxes: (%d+) nodes not drawn"))
	assert(shown and not d:find("at least", 1, true), d)
	big:destroy()
end
