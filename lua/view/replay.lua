-- SPDX-License-Identifier: MIT
-- replay.lua - frames of a session, for the HTML page that replays them
-- (replay_page.lua writes it).
--
--   local rec = idr.recorder { title = "..." }
--   rec:frame { tree = t, name = "default", command = "alloc x",
--               output = "0\n", events = evs, narration = "...",
--               text = "...", question = { ... } }
--   local page = rec:html()
--
-- A frame keeps what it draws, laid out (frame.lua): the nodes the
-- operation touched, the way to its ID, the nodes above them, and a few
-- boxes around them, read from the tree a node at a time; never the
-- whole tree.  A node's content (its cells, a leaf's values) is stored
-- once, in one table of rows, and frames name rows by number, so a
-- thousand frames of the same few nodes cost their rows once.  Each
-- event keeps its words, the kernel's step, the box and cell it changed
-- and what that cell held before, so that the page can play the
-- operation event by event.
local idr, idr_methods, ida_methods, view = ...

local L = view "frame"
local O = view "options"
local W = view "words"
local G = view "geometry"
local E = view "events"
local M = view "marks"

local concat, format = table.concat, string.format
-- {============================ Frames ============================

local Recorder = {}
Recorder.__index = Recorder

local RECORDER_KEYS = { title = true, name_of = true }

--- idr.recorder([opts]) -> recorder: an empty replay.  opts.title names
-- the page; opts.name_of(t), a tree's name for a frame that gives none.
function idr.recorder(opts)
	O.opts("recorder", opts, RECORDER_KEYS)
	opts = opts or {}
	if opts.title ~= nil and type(opts.title) ~= "string" then
		O.bad("recorder", "title must be a string")
	end
	if opts.name_of ~= nil then O.func("recorder", opts.name_of) end
	return setmetatable({
		title = opts.title or "idr replay",
		name_of = opts.name_of or function() return "" end,
		rows = {},	-- row n: { level, first, last, cells, values }
		row_of = {},	-- a row's content as text -> n
		boxes = {},	-- box n: a box of frame.lua's, placed
		box_of = {},	-- a box's content as text -> n
		frames = {},
		-- Per tree, a leaf's row by its bitmaps, while no event
		-- touches it: its values are read once.
		leaves = setmetatable({}, { __mode = "k" }),
		busy = setmetatable({}, { __mode = "k" }),	-- see wrap()
	}, Recorder)
end

-- Row number of @r (frame.lua's L.row()), stored once.
function Recorder:row(r)
	local text = concat({ r[1], r[2], r[3], r[4],
		r[5] and concat(r[5], "\0") or "", r[6] and concat(r[6], " ") or "",
		r[7] and (r[7].gen or -r[7].bits) or "" }, "\1")
	local id = self.row_of[text]
	if not id then
		self.rows[#self.rows + 1] = r
		id = #self.rows
		self.row_of[text] = id
	end
	return id
end

-- Box numbers of @boxes, each stored once: most of a frame's boxes are
-- the frame's before, where they were.
function Recorder:box_ids(boxes)
	local ids = {}
	for i, b in ipairs(boxes) do
		local text = concat({ b.k, b.r or b.t, b.p or 0, b.s or -1, b.h or 0,
			b.q or 0, b.pk or 0, b.x, b.y }, "\1")
		local id = self.box_of[text]
		if not id then
			self.boxes[#self.boxes + 1] = b
			id = #self.boxes
			self.box_of[text] = id
		end
		ids[i] = id
	end
	return ids
end

--- rec:frame_boxes(n) -> list: frame @n's boxes, as frame.lua laid them
-- out ({ k, r or t, p, s, h, q, x, y }).
function Recorder:frame_boxes(n)
	if math.type(n) ~= "integer" or not self.frames[n] then
		O.bad("frame_boxes", ("no frame %s: the recorder has %s"):format(
			tostring(n), #self.frames == 0 and "none" or
			"frames 1 to " .. #self.frames))
	end
	local list = {}
	for i, id in ipairs(self.frames[n].b) do list[i] = self.boxes[id] end
	return list
end

-- The rows function of tree @t for L.layout(): node @n's row number; a
-- leaf not touched (@hot false) is read again only if its bitmaps changed.
function Recorder:rows_of(t)
	local ida = t:info().kind == "ida"
	local cache = self.leaves[t] or {}
	self.leaves[t] = cache
	return function(n, hot, gone)
		if gone then return self:row(L.row(n, ida)) end
		if n.level ~= 0 then return self:row(L.row(n, ida, t)) end
		local k = format("%d:%d:%d:%d", n.first, n.last, n.present, n.full)
		if hot or not cache[k] then cache[k] = self:row(L.row(n, ida, t)) end
		return cache[k]
	end
end

-- An event as a frame keeps it, in words.lua's words: { w = its line, as
-- trace prints it, x = its sentence, as explain tells it, k = the
-- kernel's step (if any), b = the box it happened in (0: none drawn),
-- s = the slot, a and z =
-- the cell's character after and before it, n = "new" or "free" when it
-- made or freed the node of box b (not when a copy takes a node's place:
-- its box stays), d = +1 or -1: an IDA bit set or
-- cleared in the bitmap of slot s }.
-- An IDA's bitmap event: its IDs are one slot of a leaf, the leaf's box
-- and that slot are where it happens; a bit set or cleared changes the
-- slot's count of IDs set by d.
local BIT = { ["bit-set"] = 1, ["bit-clear"] = -1 }

local function bitmap_item(ev, where, item)
	local span = ev.last - ev.first + 1
	local leaf = ev.first - ev.first % (span * G.SLOTS)
	item.b = where["0:" .. leaf] or 0
	item.s = (ev.first - leaf) // span
	item.d = BIT[ev.event]
	return item
end

local function event_item(ev, where, ida, op, mark)
	local level, first = L.event_node(ev)
	local kernel = W.kernel(ev, op, mark)
	local item = { w = W.line(ev), x = W.text(ev, mark), s = ev.slot,
		k = kernel ~= "" and kernel or nil }
	if ida and (ev.aux == "bitmap" or BIT[ev.event]) then
		return bitmap_item(ev, where, item)
	end
	local b = level and not ev.aux and where[level .. ":" .. first] or 0
	local after, before = L.change(ev, ida, mark)
	item.b = b
	if b > 0 and after then item.a, item.z = after, before end
	-- A copy in the place of a node (marks.lua) leaves the box there.
	local stays = M.REPLACES[mark]
	if b > 0 and not stays and ev.event == "node-new" then item.n = "new" end
	if b > 0 and not stays and ev.event == "node-free" then
		item.n = "free"
	end
	return item
end

-- A frame keeps this many events at most (a Lua loop may make
-- thousands); the page says how many it left off.
local MAX_EVENTS = 400

-- A lesson's question as the page keeps it: the answer and what shows
-- it are behind "Show the answer".
local function question(q)
	local function s(v) return v and tostring(v) or "" end
	return { k = s(q.number), t = s(q.text), c = s(q.command),
		a = s(q.answer), o = s(q.output), w = s(q.why),
		n = s(q.narration) }
end

--- rec:narrate(t, events[, more]) -> text, or nil: @t:explain() of the
-- events a frame keeps (the first MAX_EVENTS), and a line that says how
-- many it left untold (those, and @more the caller did not keep): all of
-- a loop's 10^5 operations told would make a page of hundreds of
-- megabytes.
function Recorder.narrate(_, t, all, more)
	if not (t and t.explain) or #all == 0 then return nil end
	local kept = all
	if #all > MAX_EVENTS then kept = { table.unpack(all, 1, MAX_EVENTS) } end
	local ok, text = pcall(t.explain, t, kept)
	if not ok or type(text) ~= "string" then return nil end
	more = #all - #kept + (more or 0)
	if more > 0 then
		text = text:gsub("\n?$", "\n") ..
			format("(%d more events, not told)\n", more)
	end
	return text
end

-- A frame's fields: those of text, and the rest.
local FRAME_KEYS = { tree = "tree", events = "events", more = "count",
	name = "text", command = "text", output = "text", narration = "text",
	text = "text", question = "question" }
local FRAME_LIST = "tree, name, command, output, narration, text, " ..
	"question, events, more"

-- Raise unless @f is a frame table: a tree, a list of events, a count.
local function check_frame(f)
	if type(f) ~= "table" then
		O.bad("frame", "table expected, got " .. type(f))
	end
	local mt = getmetatable(f.tree)
	if f.tree ~= nil and not (type(mt) == "table" and
			(mt.__index == idr_methods or mt.__index == ida_methods)) then
		O.bad("frame", "tree must be an idr or IDA, not " .. type(f.tree))
	end
	if f.events ~= nil and type(f.events) ~= "table" then
		O.bad("frame", "events must be a list of events, as t:events() " ..
			"returns, not " .. type(f.events))
	end
	if f.more ~= nil and not (math.type(f.more) == "integer" and
			f.more >= 0) then
		O.bad("frame", "more must be a non-negative integer")
	end
	for k, v in pairs(f) do
		if not FRAME_KEYS[k] then
			O.bad("frame", ("no option %s (options: %s)"):format(
				tostring(k), FRAME_LIST))
		elseif FRAME_KEYS[k] == "text" and type(v) ~= "string" and
				type(v) ~= "number" then
			O.bad("frame", ("%s must be a string, not %s"):format(k,
				type(v)))
		end
	end
	if f.question ~= nil and type(f.question) ~= "table" then
		O.bad("frame", "question must be a table")
	end
end

--- rec:frame(f) -> n: records one operation as frame n: f.tree (an idr
-- or IDA, as it is after the operation, or nil if there was none),
-- f.name (the tree's name), f.command, f.output, f.events (the list
-- t:events() returns) and f.narration (text), each optional; f.more,
-- the events the caller left out of f.events.  A lesson's frame may also
-- have f.text (its paragraphs, shown above) and f.question = { number
-- ("Question 1 of 3"), text, command, answer, output, why, narration },
-- whose answer the page hides until a click.
function Recorder:frame(f)
	check_frame(f)
	local all = f.events or {}
	local kept = all
	if #all > MAX_EVENTS then kept = { table.unpack(all, 1, MAX_EVENTS) } end
	-- What the frame reads: the kept events, drawn and told.
	W.told("frame", kept, #kept)
	local boxes, w, h, where = {}, 0, 0, {}
	if f.tree then
		boxes, w, h, where = L.layout(f.tree, kept, self:rows_of(f.tree))
	end
	local ida = f.tree and f.tree:info().kind == "ida"
	local evs, op = {}, {}
	local marks = f.tree and M.of(kept, M.shape(f.tree)) or {}
	for i, ev in ipairs(kept) do
		if ev.event == "op" then op = ev end
		evs[i] = event_item(ev, where, ida, op, marks[ev])
	end
	local narration = f.narration
	if narration == nil then
		narration = self:narrate(f.tree, all, f.more)
	end
	self.frames[#self.frames + 1] = {
		c = tostring(f.command or ""), o = tostring(f.output or ""),
		n = narration and tostring(narration) or "", e = evs,
		b = self:box_ids(boxes), w = w, h = h, t = f.tree ~= nil,
		nm = tostring(f.name or f.tree and self.name_of(f.tree) or ""),
		m = #all - #evs + (f.more or 0),
		p = f.text and tostring(f.text) or nil,
		q = f.question and question(f.question) or nil,
	}
	return #self.frames
end

--- rec:amend(n, f): sets frame @n's command, output and question to
-- f.command, f.output and f.question, where given: for a caller that
-- learns them after the operation (the shell, which records each
-- operation as it ends and knows the command line only once the line is
-- over; a lesson, whose question shows the tree before the answer's
-- command runs).
function Recorder:amend(n, f)
	local fr = self.frames[n]
	if f.command then fr.c = tostring(f.command) end
	if f.output then fr.o = tostring(f.output) end
	if f.question then fr.q = question(f.question) end
end

-- The operations that change a tree: what rec:watch() records.
local CHANGES = { "alloc", "alloc_cyclic", "alloc_u32", "remove",
	"replace", "pre_get", "get_new", "get_new_above", "alloc_tagged",
	"remove_tagged", "set_cursor", "free", "unalloc", "clear" }

local function repr(v)
	if type(v) == "string" then return format("%q", v) end
	return tostring(v)
end

local function reprs(list, from, to)
	local parts = {}
	for i = from, to do parts[#parts + 1] = repr(list[i]) end
	return concat(parts, ", ")
end

-- A watch's calls that get a frame each; the rest share one last frame,
-- as the shell's lines do past their 100th operation: a frame is a few
-- kilobytes of page, and no one steps through 10^5 of them.
local WATCH_MAX = 1000

-- Counts a call past WATCH_MAX in @w instead of making its frame.
local function fold(w, t, command, evs)
	w.rest, w.tree, w.last = w.rest + 1, t, command
	w.more = w.more + (evs and #evs or 0)
end

-- Each wrapper a watch set: the method it wraps, and whether its watch
-- is over (then it only calls that method).
local wrapped = setmetatable({}, { __mode = "k" })

-- The method to call or put back in place of @f: past the wrappers of
-- watches that are over (two coroutines' watches can end in any order).
local function live(f)
	while wrapped[f] and wrapped[f].over do f = wrapped[f].orig end
	return f
end

-- @orig, wrapped to record a frame a call made by @w's coroutine.  A
-- watch within a watch of the same recorder wraps the outer one's
-- wrappers, and one call is one frame: the recorder's coroutines inside
-- a recorded call (rec.busy) record no more.
function Recorder:wrap(name, orig, w)
	local rec, link = self, { orig = orig }
	local function wrapper(t, ...)
		local call, co = live(link.orig), coroutine.running()
		if link.over or not E.ours(w.owner) or rec.busy[co] then
			return call(t, ...)
		end
		rec.busy[co] = true
		local _ <close> = setmetatable({}, { __close = function()
			rec.busy[co] = nil
		end })
		local args = table.pack(...)
		local res, evs
		if t.trace then
			res = table.pack(t:events(function()
				return call(t, table.unpack(args, 1, args.n))
			end))
			evs = table.remove(res, 1)
			res.n = res.n - 1
		else
			res = table.pack(call(t, ...))
		end
		local command = format("t:%s(%s)", name, reprs(args, 1, args.n))
		if w.n >= WATCH_MAX then
			fold(w, t, command, evs)
		else
			w.n = w.n + 1
			rec:frame { tree = t, events = evs, command = command,
				output = reprs(res, 1, res.n) .. "\n" }
		end
		return table.unpack(res, 1, res.n)
	end
	wrapped[wrapper] = link
	return wrapper
end

-- Ends watch @w of @rec: each method it wrapped goes back (past the
-- wrappers of watches over), unless a later watch's wrapper is on top of
-- it; and the calls past WATCH_MAX get their one frame, however fn ended
-- (not when its coroutine was collected: no one waits for the frames).
local function unwrap(rec, w, collected)
	if w.over then return end
	w.over = true
	for _, s in ipairs(w.saved) do
		local m, name, wrapper = s[1], s[2], s[3]
		wrapped[wrapper].over = true
		if m[name] == wrapper then m[name] = live(wrapper) end
	end
	if w.rest > 0 and not collected then
		rec:frame { tree = w.tree, more = w.more, command = format(
			"[calls %d to %d of %d, the last %s]", w.n + 1,
			w.n + w.rest, w.n + w.rest, w.last) }
	end
end

--- rec:watch(fn, ...) -> fn's results: calls fn(...) and records a frame
-- for every operation that changes a tree (alloc, remove, ...), on any
-- tree, that fn's coroutine makes while it runs; a Lua script's replay.
-- Past WATCH_MAX calls, the rest share one last frame (the tree the last
-- of them changed).  The methods go back when fn returns or raises an
-- error, or its coroutine is closed or collected.
function Recorder:watch(fn, ...)
	O.func("watch", fn)
	local w = { n = 0, rest = 0, more = 0, saved = {},
		owner = E.owner_now() }
	local _ <close> = setmetatable({}, {
		__close = function() unwrap(self, w) end,
		__gc = function() pcall(unwrap, self, w, true) end })
	for _, m in ipairs({ idr_methods, ida_methods }) do
		for _, name in ipairs(CHANGES) do
			if m[name] then
				local wrapper = self:wrap(name, m[name], w)
				w.saved[#w.saved + 1] = { m, name, wrapper }
				m[name] = wrapper
			end
		end
	end
	return fn(...)
end

--- rec:count() -> the number of frames.
function Recorder:count()
	return #self.frames
end

-- }===============================================================

local P = view "replay_page"

--- rec:html() -> text: the page, one self-contained HTML file.
function Recorder:html()
	return P.html(self)
end

return idr
