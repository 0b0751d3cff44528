-- Defects an outside review found in the binding, each checked here
-- against what the documentation promises.
local idr = require "idr"

local seed = tonumber(os.getenv("IDR_SEED") or "") or 41
math.randomseed(seed)

local function raises(pattern, fn, ...)
	local ok, err = pcall(fn, ...)
	assert(not ok, "no error; wanted " .. pattern)
	assert(type(err) == "string" and err:find(pattern),
		tostring(err) .. " does not match " .. pattern)
end

-- {======================== Reserved IDs in a diff ========================

-- A model of an idr: id -> { v = value }, a reserved ID's v nil.
local function model_diff(before, after)
	local ids, out = {}, {}
	for id in pairs(before) do ids[#ids + 1] = id end
	for id in pairs(after) do
		if not before[id] then ids[#ids + 1] = id end
	end
	table.sort(ids)
	for _, id in ipairs(ids) do
		local a, b = before[id], after[id]
		if not a then
			out[#out + 1] = "added " .. id .. " " .. tostring(b.v)
		elseif not b then
			out[#out + 1] = "removed " .. id .. " " .. tostring(a.v)
		elseif not rawequal(a.v, b.v) then
			out[#out + 1] = "replaced " .. id .. " " .. tostring(a.v) ..
				" " .. tostring(b.v)
		end
	end
	return table.concat(out, "\n")
end

local function got_diff(t, snap)
	local out = {}
	for _, c in ipairs(t:diff(snap)) do
		if c.change == "replaced" then
			out[#out + 1] = "replaced " .. c.id .. " " ..
				tostring(c.from) .. " " .. tostring(c.to)
		elseif c.id then
			out[#out + 1] = c.change .. " " .. c.id .. " " ..
				tostring(c.value)
		end
	end
	return table.concat(out, "\n")
end

local function copy(m)
	local c = {}
	for id, e in pairs(m) do c[id] = { v = e.v } end
	return c
end

local VALUES = { "a", "b", 7, false }

local function some(m)
	local ids = {}
	for id in pairs(m) do ids[#ids + 1] = id end
	table.sort(ids)
	return ids[math.random(math.max(#ids, 1))]
end

-- A random operation on @t and @m alike; nil values half the time.
local function op(t, m)
	local r, v = math.random(6), nil
	if math.random(2) == 1 then v = VALUES[math.random(#VALUES)] end
	if r <= 3 then
		local id = assert(t:alloc(v, math.random(0, 150)))
		m[id] = { v = v }
	elseif r <= 5 then
		local id = some(m)
		if id then
			assert(t:replace(id, v) == m[id].v)
			m[id].v = v
		end
	else
		local id = some(m)
		if id then
			assert(t:remove(id) == m[id].v)
			m[id] = nil
		end
	end
end

local t, m = idr.new(), {}
for _ = 1, 200 do
	local before, snap = copy(m), t:mark()
	for _ = 1, math.random(0, 12) do op(t, m) end
	local want, got = model_diff(before, m), got_diff(t, snap)
	assert(want == got, "seed " .. seed .. ": want\n" .. want ..
		"\ngot\n" .. got)
end

-- The review's case, and its text.
local r = idr.new()
r:alloc("a")
r:alloc(nil)
local snap = r:mark()
r:alloc(nil)
r:replace(0, nil)
r:replace(1, "b")
assert(got_diff(r, snap) == "replaced 0 a nil\nreplaced 1 nil b\nadded 2 nil")
local text = r:diff_text(snap)
assert(text:find("1 ID added, 2 replaced", 1, true), text)
assert(text:find("added   2 = NULL", 1, true), text)

-- }======================================================

-- {======================== Saving and loading ========================

local path = os.tmpname()

-- -0.0 comes back -0.0 (the file says so), as every other float does.
local f = idr.new()
for _, v in ipairs { -0.0, 0.0, 1.5, -2.25e-300, 1e300, 3 } do f:alloc(v) end
assert(f:save(path))
local g = assert(idr.load(path))
for id, v in f:pairs() do
	local w = g:find(id)
	assert(math.type(w) == math.type(v) and w == v and 1 / w == 1 / v,
		"id " .. id .. ": " .. tostring(v) .. " came back " .. tostring(w))
end
assert(1 / g:find(0) == -math.huge)

-- A save of no tree loads as no tree: never nil and a table.
assert(idr.save(path, {}) == true)
for _, got in ipairs { { idr.load(path) },
	{ idr.load_text("idr-save 1\nend\n") } } do
	assert(got[1] == false and next(got[2]) == nil and got[3] == nil and
		#got[4] == 0)
end

os.remove(path)

-- }======================================================

-- {======================== Errno names ========================

-- Every errno name the binding's sources can return is a field of the
-- module, equal to its name (idr.EVENTS, a table, is no errno).
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local lists = assert(io.popen("ls " .. here .. "/../../lua/*.c " ..
	here .. "/../../lua/view/*.lua"))
local names, files = {}, 0
for file in lists:lines() do
	local src = assert(io.open(file)):read("a")
	files = files + 1
	for name in src:gmatch('"(E[A-Z]+)"') do
		if name ~= "EVENTS" then names[name] = file end
	end
end
lists:close()
assert(files > 20 and names.EBUSY and names.EISDIR and names.EIO)
for name, file in pairs(names) do
	assert(idr[name] == name, file .. " returns " .. name ..
		", which is no field of the module")
end

-- The review's cases: returned, and fields.
local tg = idr.new { tagged = { id_bits = 4, retire = true } }
tg:alloc_tagged("x")
local code = select(3, tg:set_gen(0, 1 << tg:info().tagged.gen_bits))
assert(code == "EBUSY" and idr.EBUSY == code)
assert(select(3, idr.new():save("/tmp")) == idr.EISDIR)

-- }======================================================

-- {======================== Save and load agree on size ========================

-- A save refuses what a load would: more than 2^24 IDs in one file,
-- reserved ones and an IDA's too.  Making that many takes seconds: the
-- trees here only say they hold them.
do
	local p2 = os.tmpname()
	local a, rs = idr.ida(), idr.new()
	a:alloc()
	rs:alloc(nil)
	local ida_count = getmetatable(a).__index.count
	local idr_count = getmetatable(rs).__index.count
	getmetatable(a).__index.count = function() return 1 << 23 end
	getmetatable(rs).__index.count = function() return (1 << 23) + 1 end
	local ok1, msg1, code1 = idr.save(p2, { a = a, r = rs })
	local ok2 = idr.save(p2, { a = a })
	getmetatable(a).__index.count = ida_count
	getmetatable(rs).__index.count = idr_count
	assert(ok1 == nil and code1 == "EFBIG" and
		msg1 == "16777217 ids: a save file holds at most 16777216", msg1)
	assert(ok2 == true)
	-- What the load refuses: one ID more than that.
	local big = "idr-save 1\ntree a ida\nrange 0 16777215\nid 16777216\nend\n"
	local none, lmsg = idr.load_text(big)
	assert(none == nil and lmsg:find("more than 16777216 ids", 1, true))
	os.remove(p2)
end

-- }======================================================

-- {======================== Integral floats, unknown options ========================

-- Whole-number floats (and numeric strings) count as integers in every
-- option, as they do in arguments: lua_tointegerx()'s rule.
assert(idr.new { base = 2 ^ 10 }:alloc(1) == 1024)
assert(idr.new { tagged = { id_bits = 2 ^ 3 } }:info().tagged.id_bits == 8)
local fl = idr.new()
local fm = fl:mark { max_entries = 10.0 }
assert(fm.max_entries == 10 and math.type(fm.max_entries) == "integer")
fl:alloc("x")
assert(fl:diff_text(fm, { max_lines = 10.0 }):find("1 ID added", 1, true))
raises("base must be an integer", idr.new, { base = 1.5 })
raises("non%-negative integer expected", fl.mark, fl, { max_entries = 0.5 })
raises("non%-negative integer expected", fl.diff_text, fl, fm,
	{ max_lines = -1.0 })

-- A table of known options, or nothing: anything else is named.
raises("^bad argument #1 to 'mark' %(table expected, got number%)",
	fl.mark, fl, 5)
raises("^bad argument #1 to 'mark' %(unknown option 'bogus'%)",
	fl.mark, fl, { bogus = 1 })
raises("^bad argument #2 to 'diff_text' %(unknown option 'max_entries'%)",
	fl.diff_text, fl, fm, { max_entries = 1 })

-- }======================================================

-- {======================== Misuse named ========================

local mt = idr.new()
for i = 0, 100 do mt:alloc(i) end
local rec = idr.recorder()
raises("^bad argument #1 to 'recorder' %(table expected, got number%)",
	idr.recorder, 5)
raises("^bad argument #1 to 'recorder' %(unknown option 'bogus'%)",
	idr.recorder, { bogus = 1 })
raises("^bad argument #1 to 'recorder' %(title must be a string%)",
	idr.recorder, { title = 5 })
raises("^bad argument #1 to 'frame' %(table expected, got number%)",
	rec.frame, rec, 5)
raises("^bad argument #1 to 'frame' %(events must be a list",
	rec.frame, rec, { events = 5 })
raises("^bad argument #1 to 'frame' %(tree must be an idr or IDA",
	rec.frame, rec, { tree = 5 })
raises("^bad argument #1 to 'watch' %(function expected, got number%)",
	rec.watch, rec, 5)
raises("^bad argument #1 to 'events' %(function expected, got nil%)",
	mt.events, mt)
raises("^bad argument #2 to 'save' %(trees must be a table%)",
	idr.save, os.tmpname(), nil)
assert(rec:count() == 0)
-- A callable table is a function to them.
local calls = setmetatable({}, { __call = function() return 7 end })
assert(select(2, mt:events(calls)) == 7)

-- t:fold() reads the node it is given again: a table with only a level
-- and a first ID names the node as well as t:top()'s.
local top = mt:top()
local runs = mt:fold { level = top.level, first = top.first }
assert(#runs == #mt:fold(top) and runs[1].words == mt:fold(top)[1].words)

-- }======================================================

-- {======================== Events out of range ========================

-- An event whose height no tree of this library has would have the
-- narration spell out that many levels (minutes, then no memory).
local huge = { { event = "op", op = "alloc", start = 0, ["end"] = 0, id = 0,
	height = 1 << 40 } }
raises("^bad argument #1 to 'frame' %(event 1: height must be an integer " ..
	"in %[0, %d+%], not 1099511627776%)", rec.frame, rec,
	{ tree = mt, events = huge })
raises("event 1: height must be", rec.frame, rec, { tree = mt,
	events = { { event = "visit", level = 0, first = 0, height = 2 ^ 40 } } })
raises("^bad argument #1 to 'explain' %(event 1: height must be", mt.explain,
	mt, huge)
raises("^bad argument #1 to 'explain' %(a function or a list of events",
	mt.explain, mt, 5)
local fine = { event = "op", op = "alloc", start = 0, ["end"] = 0, id = 0,
	height = 1 }
raises("event 2: level must be", rec.frame, rec, { tree = mt,
	events = { fine, { event = "visit", level = 99, first = 0 } } })
raises("event 1 is not an event table", rec.frame, rec,
	{ events = { { event = "nonsense" } } })
assert(rec:frame { tree = mt, events = { fine } } == 1)
-- Real events, of every kind an idr and an IDA report, go in.
local ia = idr.ida()
local evs = ia:events(function() for _ = 1, 3000 do ia:alloc() end end)
assert(rec:frame { tree = ia, events = evs } == 2)
assert(rec:frame { tree = mt, events = mt:events(mt.alloc, mt, "x", 1 << 30) }
	== 3)

-- }======================================================

-- {======================== t:clear() ========================

-- idr_destroy() with the object kept: IDs, values and nodes go; the
-- cursor and a tagged tree's generations stay.
local c = idr.new { base = 2, tagged = { id_bits = 8 } }
local tag = c:alloc_tagged("x")
assert(c:remove_tagged(tag) == "x")
local tag2 = c:alloc_tagged("y")
c:clear()
assert(#c == 0 and c:info().base == 2)
assert(c:find_tagged(tag2) == nil)
assert(c:alloc_tagged("z") ~= tag2, "a stale tag came back live")
local cy = idr.new()
cy:alloc_cyclic("a"); cy:alloc_cyclic("b")
cy:clear()
assert(cy:get_cursor() == 2 and cy:alloc_cyclic("c") == 2)
local ia2 = idr.ida()
ia2:alloc(); ia2:alloc()
ia2:clear()
assert(#ia2 == 0 and ia2:alloc() == 0)

-- }======================================================

-- {======================== Retired slots in the views ========================

-- A retired slot holds no ID: the dump and the path say retired, not
-- reserved or in use.
local rt = idr.new { tagged = { id_bits = 29, retire = true } }
for i = 1, 4 do assert(rt:remove_tagged(rt:alloc_tagged(i)) == i) end
assert(rt:dump():find("0:(retired)@g4", 1, true), rt:dump())
assert(not rt:dump():find("(reserved)", 1, true))
local pt = rt:path_text(0)
assert(pt:find("L0 0..63: slot 0 is retired\n", 1, true), pt)
assert(not pt:find("in use", 1, true))

-- }======================================================
