-- SPDX-License-Identifier: MIT
-- replay.lua - frames of a session, and the HTML page that replays them.
--
--   local rec = idr.recorder { title = "..." }
--   rec:frame { tree = t, command = "alloc x", output = "0\n",
--               events = evs, narration = "...", text = "...",
--               question = { ... } }
--   local page = rec:html()
--
-- A frame keeps the tree's shape (t:nodes()) as it is after the
-- operation, but only what changed: every node row is stored once, by
-- its content, in one table of rows, and a frame says which nodes (by
-- level and first ID) now point at which row and which are gone.  A
-- thousand operations on a tree of 100,000 IDs touch a few rows each,
-- so the page stays well under a few megabytes (make bench says how
-- much).
--
-- The page is one file: the data as JSON in a script element that is
-- never run, one inline script that draws it, one inline style, and a
-- Content-Security-Policy that forbids every request.  Every text from
-- the session reaches the page escaped: JSON with <, > and & as \u
-- escapes, HTML with entities.  The first frame is drawn here, in Lua,
-- so that the page shows it with JavaScript off.
local idr, idr_methods, ida_methods = ...

local concat, format = table.concat, string.format

-- {============================ Frames ============================

local Recorder = {}
Recorder.__index = Recorder

--- idr.recorder([opts]) -> recorder: an empty replay.  opts.title names
-- the page.
function idr.recorder(opts)
	opts = opts or {}
	return setmetatable({
		title = opts.title or "idr replay",
		rows = {},	-- row n: { level, first, last, present, full, slots }
		row_of = {},	-- a row's content as text -> n
		frames = {},
		now = {},	-- node key ("level:first") -> row, after the last frame
	}, Recorder)
end

local function hex(n)
	return format("%016x", n or 0)
end

-- Row number of node @n's content, stored once.
function Recorder:row(n)
	local r = { n.level, n.first, n.last, hex(n.present), hex(n.full),
		n.slots or 64 }
	local text = concat(r, " ")
	local id = self.row_of[text]
	if not id then
		self.rows[#self.rows + 1] = r
		id = #self.rows
		self.row_of[text] = id
	end
	return id
end

-- What changed in the tree since the last frame: set { key, row }
-- pairs, and the keys of nodes that are gone.
function Recorder:delta(t)
	local set, gone, now = {}, {}, {}
	local ok, nodes = pcall(t.nodes, t)
	if not ok then nodes = {} end
	for _, n in ipairs(nodes) do
		local key = n.level .. ":" .. n.first
		local id = self:row(n)
		now[key] = id
		if self.now[key] ~= id then set[#set + 1] = { key, id } end
	end
	for key in pairs(self.now) do
		if not now[key] then gone[#gone + 1] = key end
	end
	table.sort(gone)
	self.now = now
	return set, gone
end

-- One event as a short line ("slot-set L0 0..63 slot 2"), and where
-- in the tree it happened.
local function event_row(ev)
	local parts = { tostring(ev.event), ev.op }
	local op = tostring(ev.op)
	if ev.event == "op" and (op:find("alloc") or op:find("get_new")) then
		-- An allocation's range; its 'id' means nothing.
		parts[#parts + 1] = "from " .. tostring(ev.start)
		if (ev["end"] or 0) > 0 then
			parts[#parts + 1] = "below " .. ev["end"]
		end
	elseif ev.event == "op" and ev.id then
		parts[#parts + 1] = "id " .. ev.id
	elseif ev.event == "done" then
		parts[#parts + 1] = "result " .. tostring(ev.result) ..
			(ev.errno and " (" .. ev.errno .. ")" or "")
	end
	if ev.level then
		parts[2] = format("L%s %s..%s", ev.level, ev.first, ev.last)
	end
	if ev.slot then parts[#parts + 1] = "slot " .. ev.slot end
	if ev.nodes then parts[#parts + 1] = "nodes " .. ev.nodes end
	if ev.height and (ev.event == "grow" or ev.event == "shrink") then
		parts[#parts + 1] = "height " .. ev.height
	end
	return { concat(parts, " "), ev.level or false, ev.first or false,
		ev.slot or false }
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

--- rec:frame(f) -> n: records one operation as frame n: f.tree (an idr
-- or IDA, as it is after the operation, or nil if there was none),
-- f.command, f.output, f.events (the list t:events() returns) and
-- f.narration (text), each optional; f.more, the events the caller
-- left out of f.events.  A lesson's frame may also have
-- f.text (its paragraphs, shown above) and f.question = { number
-- ("Question 1 of 3"), text, command, answer, output, why, narration },
-- whose answer the page hides until a click.
function Recorder:frame(f)
	local set, gone = {}, {}
	if f.tree then set, gone = self:delta(f.tree) end
	local evs, all = {}, f.events or {}
	for i = 1, math.min(#all, MAX_EVENTS) do evs[i] = event_row(all[i]) end
	local narration = f.narration
	if narration == nil then
		narration = self:narrate(f.tree, all, f.more)
	end
	self.frames[#self.frames + 1] = {
		c = tostring(f.command or ""), o = tostring(f.output or ""),
		n = narration and tostring(narration) or "", e = evs,
		s = set, d = gone, t = f.tree ~= nil,
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
	"remove_tagged", "set_cursor", "free" }

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
-- as the shell's lines do past their 100th operation: each frame
-- compares the whole tree, so a loop of 10^5 calls would take hours.
local WATCH_MAX = 1000

-- Counts a call past WATCH_MAX in @w instead of making its frame.
local function fold(w, t, command, evs)
	w.rest, w.tree, w.last = w.rest + 1, t, command
	w.more = w.more + (evs and #evs or 0)
end

-- @orig, wrapped to record a frame a call.
function Recorder:wrap(name, orig)
	local rec = self
	return function(t, ...)
		local args = table.pack(...)
		local res, evs
		if t.trace then
			res = table.pack(t:events(function()
				return orig(t, table.unpack(args, 1, args.n))
			end))
			evs = table.remove(res, 1)
			res.n = res.n - 1
		else
			res = table.pack(orig(t, ...))
		end
		local command = format("t:%s(%s)", name, reprs(args, 1, args.n))
		local w = rec.watching
		if w and w.n >= WATCH_MAX then
			fold(w, t, command, evs)
		else
			if w then w.n = w.n + 1 end
			rec:frame { tree = t, events = evs, command = command,
				output = reprs(res, 1, res.n) .. "\n" }
		end
		return table.unpack(res, 1, res.n)
	end
end

--- rec:watch(fn, ...) -> fn's results: calls fn(...) and records a frame
-- for every operation that changes a tree (alloc, remove, ...), on any
-- tree, while it runs; a Lua script's replay.  Past WATCH_MAX calls,
-- the rest share one last frame (the tree the last of them changed).
function Recorder:watch(fn, ...)
	local saved = {}
	for _, m in ipairs({ idr_methods, ida_methods }) do
		for _, name in ipairs(CHANGES) do
			if m[name] then
				saved[#saved + 1] = { m, name, m[name] }
				m[name] = self:wrap(name, m[name])
			end
		end
	end
	local outer = self.watching
	local w = { n = 0, rest = 0, more = 0 }
	self.watching = w
	local res = table.pack(pcall(fn, ...))
	self.watching = outer
	for _, s in ipairs(saved) do s[1][s[2]] = s[3] end
	if w.rest > 0 then
		self:frame { tree = w.tree, more = w.more, command = format(
			"[calls %d to %d of %d, the last %s]", w.n + 1,
			w.n + w.rest, w.n + w.rest, w.last) }
	end
	if not res[1] then error(res[2], 0) end
	return table.unpack(res, 2, res.n)
end

--- rec:count() -> the number of frames.
function Recorder:count()
	return #self.frames
end

-- }===============================================================

-- {========================= Escaping =============================

local JSON_ESC = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n",
	["\t"] = "\\t" }

-- A JSON string that is safe inside a script element: no <, > or &.
local function json_string(s)
	return '"' .. s:gsub('[%c"\\<>&\127]', function(c)
		return JSON_ESC[c] or format("\\u%04x", c:byte())
	end) .. '"'
end

local function json(v, out)
	local ty = type(v)
	if ty == "table" then
		local first = v[1] == nil and next(v) ~= nil
		if first then
			local keys = {}
			for k in pairs(v) do keys[#keys + 1] = k end
			table.sort(keys)
			out[#out + 1] = "{"
			for i, k in ipairs(keys) do
				out[#out + 1] = (i > 1 and "," or "") ..
					json_string(k) .. ":"
				json(v[k], out)
			end
			out[#out + 1] = "}"
		else
			out[#out + 1] = "["
			for i, x in ipairs(v) do
				if i > 1 then out[#out + 1] = "," end
				json(x, out)
			end
			out[#out + 1] = "]"
		end
	elseif ty == "string" then
		out[#out + 1] = json_string(v)
	elseif ty == "number" then
		out[#out + 1] = math.type(v) == "integer" and tostring(v)
			or format("%.17g", v)
	else
		out[#out + 1] = tostring(v == true)
	end
	return out
end

local HTML_ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
	['"'] = "&quot;", ["'"] = "&#39;" }

local function esc(s)
	return (tostring(s):gsub("[&<>\"']", HTML_ESC))
end

-- }===============================================================

-- {================ The tree as SVG (the first frame) ==============
-- The same drawing as the page's script (draw() there): keep the two
-- alike.  Nodes are walked in order, runs of alike sibling subtrees
-- are one box, and in a large tree the subtrees off the operation's
-- path are one row each.

local CELL, GAP, ROW_H, INDENT, NOTE_W, CHAR_W = 11, 4, 22, 14, 70, 7
local label_w = 120	-- the frame's: its longest label's width
local BIG = 48		-- more nodes than this: fold what is off the path
local FEW = 16		-- nodes changed by one operation, at most, to show

local function bit(h, s)
	local n = tonumber(h:sub(9), 16)
	if s >= 32 then n, s = tonumber(h:sub(1, 8), 16), s - 32 end
	return (n >> s) & 1 == 1
end

-- The nodes in walk order, with children and a signature each.
local function shape(now, rows)
	local list = {}
	for key, id in pairs(now) do
		local r = rows[id]
		list[#list + 1] = { key = key, r = r, kids = {} }
	end
	table.sort(list, function(a, b)
		if a.r[2] ~= b.r[2] then return a.r[2] < b.r[2] end
		return a.r[1] > b.r[1]
	end)
	local stack, top = {}, {}
	for _, n in ipairs(list) do
		while #stack > 0 and (stack[#stack].r[1] <= n.r[1] or
			stack[#stack].r[3] < n.r[2]) do
			stack[#stack] = nil
		end
		local parent = stack[#stack]
		if parent then parent.kids[#parent.kids + 1] = n
		else top[#top + 1] = n end
		stack[#stack + 1] = n
	end
	local sigs, count = {}, 0
	local function sign(n)
		local parts = { n.r[1], n.r[4], n.r[5] }
		n.size = 1
		for _, k in ipairs(n.kids) do
			parts[#parts + 1] = sign(k)
			n.size = n.size + k.size
		end
		local text = concat(parts, ",")
		if not sigs[text] then count = count + 1; sigs[text] = count end
		n.sig = sigs[text]
		return n.sig
	end
	for _, n in ipairs(top) do sign(n) end
	return top, #list
end

-- Display items: { n, depth, kind = "node"|"run"|"fold", count, last }.
local function layout(top, total, focus)
	local items, big = {}, total > BIG
	local function hot(n)
		if n.hot ~= nil then return n.hot end
		n.hot = focus[n.key] or false
		for _, k in ipairs(n.kids) do
			if hot(k) then n.hot = true end
		end
		return n.hot
	end
	local function visit(n, depth)
		items[#items + 1] = { n = n, depth = depth, kind = "node" }
		local kids, i = n.kids, 1
		while i <= #kids do
			-- A run: alike siblings off the path, three or more.
			local j = i
			while not hot(kids[i]) and j < #kids and
				kids[j + 1].sig == kids[i].sig and
				not hot(kids[j + 1]) do
				j = j + 1
			end
			if j - i >= 2 then
				items[#items + 1] = { n = kids[i], depth = depth + 1,
					kind = "run", count = j - i + 1, last = kids[j] }
			else
				for x = i, j do
					local k = kids[x]
					if big and not hot(k) and #k.kids > 0 then
						items[#items + 1] = { n = k,
							depth = depth + 1, kind = "fold" }
					else
						visit(k, depth + 1)
					end
				end
			end
			i = j + 1
		end
	end
	for _, n in ipairs(top) do visit(n, 0) end
	return items
end

local function cell_x(s)
	return label_w + s * CELL + (s // 8) * GAP
end

local function label(it)
	local r = it.n.r
	if it.kind == "run" then
		return format("%d \u{00d7} L%d %d..%d", it.count, r[1], r[2],
			it.last.r[3])
	end
	return format("L%d %d..%d", r[1], r[2], r[3])
end

local function cell_state(r, s)
	local p, f = bit(r[4], s), bit(r[5], s)
	if r[1] == 0 then return p and "u" or "f" end
	if f then return "x" end
	return p and "c" or "f"
end

-- One item's SVG at height @y.
local function draw_item(it, y, path, out)
	local r, n = it.n.r, it.n
	local x0 = it.depth * INDENT
	local note = ""
	if it.kind == "run" then
		note = "alike"
	elseif it.kind == "fold" then
		note = format("+%d below", n.size - 1)
	end
	local cls = path[n.key] and "row path" or "row"
	out[#out + 1] = format('<g class="%s" transform="translate(0,%d)">',
		cls, y)
	if path[n.key] then
		out[#out + 1] = format('<rect class="band" x="0" y="-2" width="%d" height="%d"/>',
			cell_x(r[6]) + 4, ROW_H - 2)
	end
	if it.kind == "run" then
		out[#out + 1] = format('<rect class="run" x="%d" y="-2" width="%d" height="%d"/>',
			x0, cell_x(r[6]) - x0 + 2, ROW_H - 2)
	end
	out[#out + 1] = format('<text x="%d" y="13">%s</text>', x0 + 2,
		esc(label(it)))
	if note ~= "" then
		out[#out + 1] = format('<text class="note" x="%d" y="13">%s</text>',
			cell_x(r[6]) + 6, esc(note))
	end
	local d = { f = {}, u = {}, c = {}, x = {} }
	for s = 0, r[6] - 1 do
		local st = cell_state(r, s)
		local p = d[st]
		p[#p + 1] = format("M%d 3h%dv%dh-%dz", cell_x(s), CELL - 2,
			CELL + 2, CELL - 2)
	end
	for _, st in ipairs({ "f", "u", "c", "x" }) do
		if #d[st] > 0 then
			out[#out + 1] = format('<path class="s%s" d="%s"/>', st,
				concat(d[st]))
		end
	end
	out[#out + 1] = "</g>"
end

local function svg_of(items, path)
	label_w = 120
	for _, it in ipairs(items) do
		label_w = math.max(label_w, it.depth * INDENT +
			utf8.len(label(it)) * CHAR_W + 12)
	end
	local out, w = {}, cell_x(64) + NOTE_W
	local h = #items * ROW_H + 4
	out[1] = format('<svg class="tree" ' ..
		'width="%d" height="%d" viewBox="0 0 %d %d" role="img" ' ..
		'aria-label="the tree">', w, h, w, h)
	for i, it in ipairs(items) do
		draw_item(it, (i - 1) * ROW_H + 2, path, out)
	end
	out[#out + 1] = "</svg>"
	return concat(out, "\n")
end

-- The first frame's tree, and its path (the nodes its events touched).
function Recorder:first_svg()
	local f = self.frames[1]
	if not f or not f.t then return '<p class="none">(no tree)</p>' end
	local now = {}
	for _, p in ipairs(f.s) do now[p[1]] = p[2] end
	local path = {}
	for _, e in ipairs(f.e) do
		if e[2] then path[e[2] .. ":" .. e[3]] = true end
	end
	local top, total = shape(now, self.rows)
	local focus = {}
	for k in pairs(now) do focus[k] = path[k] or #f.s <= FEW end
	if next(now) == nil then return '<p class="none">(empty tree)</p>' end
	return svg_of(layout(top, total, focus), path)
end

-- }===============================================================

-- {=========================== The page ===========================

local CSS = [==[
:root { --fg: #1d2430; --muted: #5b6675; --line: #d5dae1; --bg: #fbfcfd;
  --used: #2f6fd6; --full: #8a2a4c; --child: #1f8a5b; --changed: #e8890c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg);
  background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem;
  padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: #fff;
  position: sticky; top: 0; z-index: 1; }
h1 { font-size: 1.05rem; margin: 0 .5rem 0 0; }
.controls { display: flex; align-items: center; gap: .3rem; }
.controls button { font: inherit; min-width: 2.3rem; padding: .3rem .5rem;
  line-height: 0;
  border: 1px solid #aab3bf; border-radius: 4px; background: #f3f5f8;
  cursor: pointer; }
.controls button svg { width: 16px; height: 16px; fill: #2a3340; }
.controls button:focus-visible { outline: 2px solid var(--used); }
#slider { width: 16rem; }
#counter { font-variant-numeric: tabular-nums; min-width: 6.5rem; }
label.fine { color: var(--muted); }
main { display: grid; grid-template-columns: minmax(14rem, 18rem) 1fr;
  gap: 1rem; padding: .8rem 1rem; }
@media (max-width: 1000px) { main { grid-template-columns: 1fr; } }
.side h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em;
  color: var(--muted); margin: .6rem 0 .2rem; }
pre { margin: 0; padding: .4rem .6rem; background: #fff;
  border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap;
  word-break: break-word; font: 13px/1.4 ui-monospace, monospace; }
pre.cmd { font-weight: 600; }
pre.cmd::before { content: "idr> "; color: var(--muted); font-weight: 400; }
pre.out { max-height: 14rem; overflow: auto; }
p.narr { margin: 0; padding: .4rem .6rem; background: #fffbea;
  border-left: 3px solid #aab3bf; white-space: pre-wrap; }
ol.events { margin: 0; padding-left: 2.2rem; font: 12px/1.5 ui-monospace,
  monospace; max-height: 16rem; overflow: auto; }
ol.events li.now { background: #ffe9c2; font-weight: 700; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; font-size: 13px;
  color: var(--muted); margin-bottom: .4rem; }
.legend svg { vertical-align: middle; }
.tree { display: block; max-width: 100%; height: auto; }
.tree text { font: 11.5px ui-monospace, monospace; fill: var(--fg); }
.tree text.note { fill: var(--muted); font-size: 11px; }
.tree .path text { font-weight: 700; }
.tree rect.band { fill: #fff3cf; }
.tree rect.run { fill: #eef1f5; stroke: #8d97a5; stroke-dasharray: 4 3; }
.sf { fill: #fff; stroke: #b9c0ca; }
.su { fill: var(--used); stroke: #1b4c9c; }
.sx { fill: url(#hatch); stroke: var(--full); }
.sc { fill: url(#dots); stroke: var(--child); }
.chg { fill: none; stroke: var(--changed); stroke-width: 2.5; }
.cur { fill: none; stroke: #000; stroke-width: 2; }
.none { color: var(--muted); }
svg.defs { position: absolute; }
noscript p { margin: .5rem 1rem; padding: .4rem .6rem; background: #fff3cf; }
.lesson { grid-column: 1 / -1; max-width: 62rem; }
p.para { margin: 0 0 .5rem; white-space: pre-line; }
.quest { padding: .5rem .7rem; background: #eef4ff;
  border-left: 3px solid var(--used); border-radius: 4px; }
.quest p { margin: 0 0 .3rem; }
details.ans summary { cursor: pointer; color: #1b4c9c; font-weight: 600; }
details.ans[open] summary { margin-bottom: .3rem; }
pre.qcmd { font-weight: 600; margin: .3rem 0; }
pre.qcmd::before { content: "idr> "; color: var(--muted); font-weight: 400; }
p.qwhy { margin: .3rem 0 0; white-space: pre-line; }
p.qnarr { margin: .3rem 0 0; padding: .4rem .6rem; background: #fffbea;
  border-left: 3px solid var(--changed); white-space: pre-wrap; }
#print { display: none; }
@media print {
  header, #selftest { display: none; }
  body { background: #fff; }
  body.printing main#view { display: none; }
  body.printing #print { display: block; }
  #print section { break-after: page; page-break-after: always; }
  main { grid-template-columns: 1fr; }
  pre.out, ol.events { max-height: none; overflow: visible; }
}
]==]

-- The patterns of the cells; the page's script draws the same ones.
local DEFS = [==[
<svg class="defs" width="0" height="0" aria-hidden="true">
<defs>
<pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse"
 patternTransform="rotate(45)"><rect width="4" height="4" fill="#f3d6e0"/>
<rect width="2" height="4" fill="#8a2a4c"/></pattern>
<pattern id="dots" width="9" height="14" patternUnits="userSpaceOnUse"
 x="0" y="3"><rect width="9" height="14" fill="#d6f0e3"/>
<circle cx="4.5" cy="7" r="2.3" fill="#1f8a5b"/></pattern>
</defs></svg>
]==]

local function legend_cell(cls, extra)
	return '<svg width="13" height="16" viewBox="0 0 13 16">' ..
		'<path class="' .. cls .. '" d="M1 2h9v12h-9z"/>' ..
		(extra or "") .. '</svg>'
end

local LEGEND = '<div class="legend">' ..
	'<span>' .. legend_cell("sf") .. ' free (empty)</span>' ..
	'<span>' .. legend_cell("su") .. ' in use (solid)</span>' ..
	'<span>' .. legend_cell("sc") .. ' child with room (dot)</span>' ..
	'<span>' .. legend_cell("sx") .. ' full (hatched)</span>' ..
	'<span>' .. legend_cell("sf", '<path class="chg" d="M0 1h11v14h-11z"/>')
	.. ' changed (ringed)</span>' ..
	'<span><b>bold row</b>: the operation\'s path</span></div>'

local SCRIPT = [==[
"use strict";
(function () {
var D = JSON.parse(document.getElementById("data").textContent);
var CELL = 11, GAP = 4, ROW_H = 22, INDENT = 14, BIG = 48,
  NOTE_W = 70, CHAR_W = 7, LABEL_W = 120,
  FEW = 16;
var NS = "http://www.w3.org/2000/svg";
var $ = function (id) { return document.getElementById(id); };
var N = D.frames.length;
var pos = { f: 0, e: -1 }, fine = false, timer = null;

/* The tree after frame i: the changes of frames 0..i applied, from a
 * copy kept every EVERY frames (a state each frame would cost memory as
 * the frames times the nodes). */
var EVERY = 32, marks = [], memo = { i: -1, s: null };
function apply(s, j) {
  var f = D.frames[j];
  f.s.forEach(function (p) { s[p[0]] = p[1]; });
  f.d.forEach(function (k) { delete s[k]; });
}
function stateAt(i) {
  if (memo.i === i) return memo.s;
  var m = Math.floor(i / EVERY), s, j;
  while (marks.length <= m) {
    var k = marks.length;
    s = k ? Object.assign({}, marks[k - 1]) : {};
    for (j = k ? (k - 1) * EVERY + 1 : 0; j <= k * EVERY && j < N; j++)
      apply(s, j);
    marks.push(s);
  }
  s = Object.assign({}, marks[m]);
  for (j = m * EVERY + 1; j <= i; j++) apply(s, j);
  memo = { i: i, s: s };
  return s;
}
function bit(h, s) {
  var n = s >= 32 ? parseInt(h.slice(0, 8), 16) : parseInt(h.slice(8), 16);
  return (n >>> (s % 32)) & 1;
}
function cellState(r, s) {
  var p = bit(r[3], s), f = bit(r[4], s);
  if (r[0] === 0) return p ? "u" : "f";
  if (f) return "x";
  return p ? "c" : "f";
}
function shape(now) {
  var list = Object.keys(now).map(function (k) {
    return { key: k, r: D.rows[now[k] - 1], kids: [] };
  });
  list.sort(function (a, b) { return a.r[1] - b.r[1] || b.r[0] - a.r[0]; });
  var stack = [], top = [];
  list.forEach(function (n) {
    while (stack.length && (stack[stack.length - 1].r[0] <= n.r[0] ||
        stack[stack.length - 1].r[2] < n.r[1])) stack.pop();
    var p = stack[stack.length - 1];
    (p ? p.kids : top).push(n);
    stack.push(n);
  });
  var sigs = {}, count = 0;
  function sign(n) {
    var parts = [n.r[0], n.r[3], n.r[4]];
    n.size = 1;
    n.kids.forEach(function (k) { parts.push(sign(k)); n.size += k.size; });
    var t = parts.join(",");
    if (!sigs[t]) sigs[t] = ++count;
    return (n.sig = sigs[t]);
  }
  top.forEach(sign);
  return { top: top, total: list.length };
}
function layout(sh, focus) {
  var items = [], big = sh.total > BIG;
  function hot(n) {
    if (n.hot !== undefined) return n.hot;
    n.hot = !!focus[n.key];
    n.kids.forEach(function (k) { if (hot(k)) n.hot = true; });
    return n.hot;
  }
  function visit(n, depth) {
    items.push({ n: n, depth: depth, kind: "node" });
    var kids = n.kids, i = 0;
    while (i < kids.length) {
      var j = i, x;
      while (!hot(kids[i]) && j + 1 < kids.length &&
          kids[j + 1].sig === kids[i].sig && !hot(kids[j + 1])) j++;
      if (j - i >= 2) {
        items.push({ n: kids[i], depth: depth + 1, kind: "run",
          count: j - i + 1, last: kids[j] });
      } else {
        for (x = i; x <= j; x++) {
          var k = kids[x];
          if (big && !hot(k) && k.kids.length)
            items.push({ n: k, depth: depth + 1, kind: "fold" });
          else visit(k, depth + 1);
        }
      }
      i = j + 1;
    }
  }
  sh.top.forEach(function (n) { visit(n, 0); });
  return items;
}
function label(it) {
  var r = it.n.r;
  if (it.kind === "run")
    return it.count + " \u00d7 L" + r[0] + " " + r[1] + ".." + it.last.r[2];
  return "L" + r[0] + " " + r[1] + ".." + r[2];
}
function cellX(s) { return LABEL_W + s * CELL + Math.floor(s / 8) * GAP; }
function el(name, attrs, parent) {
  var e = document.createElementNS(NS, name);
  for (var a in attrs) e.setAttribute(a, attrs[a]);
  if (parent) parent.appendChild(e);
  return e;
}
function text(parent, x, cls, s) {
  var t = el("text", { x: x, y: 13 }, parent);
  if (cls) t.setAttribute("class", cls);
  t.textContent = s;
}
function drawItem(svg, it, y, ctx) {
  var n = it.n, r = n.r, x0 = it.depth * INDENT;
  var g = el("g", { transform: "translate(0," + y + ")",
    "class": ctx.path[n.key] ? "row path" : "row" }, svg);
  if (ctx.path[n.key])
    el("rect", { "class": "band", x: 0, y: -2, width: cellX(r[5]) + 4,
      height: ROW_H - 2 }, g);
  var note = "";
  if (it.kind === "run") {
    note = "alike";
    el("rect", { "class": "run", x: x0, y: -2, width: cellX(r[5]) - x0 + 2,
      height: ROW_H - 2 }, g);
  } else if (it.kind === "fold") {
    note = "+" + (n.size - 1) + " below";
  }
  text(g, x0 + 2, "", label(it));
  if (note) text(g, cellX(r[5]) + 6, "note", note);
  var d = { f: "", u: "", c: "", x: "" }, chg = "", cur = "";
  var old = it.kind === "run" ? null : ctx.before[n.key];
  var oldRow = old ? D.rows[old - 1] : null;
  for (var s = 0; s < r[5]; s++) {
    var st = cellState(r, s), box = "M" + cellX(s) + " 3h" + (CELL - 2) +
      "v" + (CELL + 2) + "h-" + (CELL - 2) + "z";
    d[st] += box;
    if (ctx.mark && it.kind !== "run" && ctx.changed[n.key] &&
        (oldRow ? cellState(oldRow, s) : "f") !== st)
      chg += "M" + (cellX(s) - 1.5) + " 1.5h" + (CELL + 1) + "v" +
        (CELL + 5) + "h-" + (CELL + 1) + "z";
    if (ctx.cur && ctx.cur.key === n.key && ctx.cur.slot === s)
      cur += "M" + (cellX(s) - 2) + " 0h" + (CELL + 2) + "v" + (CELL + 8) +
        "h-" + (CELL + 2) + "z";
  }
  ["f", "u", "c", "x"].forEach(function (k) {
    if (d[k]) el("path", { "class": "s" + k, d: d[k] }, g);
  });
  if (chg) el("path", { "class": "chg", d: chg }, g);
  if (cur) el("path", { "class": "cur", d: cur }, g);
}
function treeSvg(i, evIndex) {
  var f = D.frames[i], before = i > 0 ? stateAt(i - 1) : {};
  var now = stateAt(i);
  if (!Object.keys(now).length) {
    var p = document.createElement("p");
    p.className = "none";
    p.textContent = f.t ? "(empty tree)" : "(no tree)";
    return p;
  }
  var path = {}, changed = {}, focus = {};
  f.e.forEach(function (e) { if (e[1] !== false) path[e[1] + ":" + e[2]] = 1; });
  f.s.forEach(function (p) { changed[p[0]] = 1; });
  var few = f.s.length <= FEW;
  Object.keys(now).forEach(function (k) {
    if (path[k] || (few && changed[k])) focus[k] = 1;
  });
  var cur = null;
  if (evIndex >= 0 && f.e[evIndex] && f.e[evIndex][1] !== false) {
    var e = f.e[evIndex];
    cur = { key: e[1] + ":" + e[2], slot: e[3] };
    focus[cur.key] = 1;
  }
  var items = layout(shape(now), focus);
  LABEL_W = 120;
  items.forEach(function (it) {
    LABEL_W = Math.max(LABEL_W, it.depth * INDENT + label(it).length * CHAR_W
      + 12);
  });
  var w = cellX(64) + NOTE_W, h = items.length * ROW_H + 4;
  var svg = el("svg", { "class": "tree", width: w, height: h,
    viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": "the tree" });
  var ctx = { path: path, changed: changed, before: before, cur: cur,
    mark: i > 0 };
  items.forEach(function (it, k) { drawItem(svg, it, k * ROW_H + 2, ctx); });
  return svg;
}
function evHead(f) {
  if (!f.e.length) return "Events (none)";
  if (!f.m) return "Events (" + f.e.length + ")";
  return "Events (" + (f.e.length + f.m) + "; the first " + f.e.length +
    " shown)";
}
/* A lesson's paragraphs and question; the answer closed again. */
function put(root, sel, s, empty) {
  var e = root.querySelector(sel);
  e.textContent = s || empty || "";
  e.hidden = e.textContent === "";
}
function fillLesson(root, f) {
  var q = f.q || {};
  root.querySelector(".lesson").hidden = !f.p && !f.q;
  put(root, ".para", f.p);
  root.querySelector(".quest").hidden = !f.q;
  put(root, ".qnum", q.k);
  put(root, ".qtext", q.t);
  put(root, ".qans", q.a);
  put(root, ".qcmd", q.c);
  put(root, ".qout", q.o, "(no output)");
  put(root, ".qwhy", q.w);
  put(root, ".qnarr", q.n);
  root.querySelector(".ans").open = false;
  root.querySelector(".run").hidden = f.c === "" && !!(f.p || f.q);
}
function fill(root, i, evIndex) {
  var f = D.frames[i];
  fillLesson(root, f);
  root.querySelector(".cmd").textContent = f.c;
  var out = root.querySelector(".out");
  out.textContent = f.o === "" ? "(no output)" : f.o;
  var narr = root.querySelector(".narr"), nh = root.querySelector(".narr-h");
  narr.textContent = f.n;
  narr.hidden = nh.hidden = f.n === "";
  var ol = root.querySelector(".events");
  ol.textContent = "";
  f.e.forEach(function (e, k) {
    var li = document.createElement("li");
    li.textContent = e[0];
    if (k === evIndex) li.className = "now";
    ol.appendChild(li);
  });
  root.querySelector(".ev-h").textContent = evHead(f);
  var box = root.querySelector(".treebox");
  box.textContent = "";
  box.appendChild(treeSvg(i, evIndex));
  var now = ol.querySelector(".now");
  if (now && now.scrollIntoView && root.id === "view")
    now.scrollIntoView({ block: "nearest" });
}
/* Steps: a frame each, or in fine mode an event each (a frame with no
 * events is one step). */
function steps() {
  var list = [];
  D.frames.forEach(function (f, i) {
    if (!fine || !f.e.length) list.push({ f: i, e: -1 });
    else f.e.forEach(function (_, k) { list.push({ f: i, e: k }); });
  });
  return list;
}
var STEPS = steps();
function stepIndex() {
  for (var k = 0; k < STEPS.length; k++)
    if (STEPS[k].f === pos.f && (STEPS[k].e === pos.e || !fine)) return k;
  for (k = 0; k < STEPS.length; k++) if (STEPS[k].f === pos.f) return k;
  return 0;
}
function show(k, keepHash) {
  k = Math.max(0, Math.min(STEPS.length - 1, k));
  pos = { f: STEPS[k].f, e: STEPS[k].e };
  fill($("view"), pos.f, pos.e);
  $("slider").max = STEPS.length - 1;
  $("slider").value = k;
  var c = "frame " + (pos.f + 1) + " / " + N;
  if (pos.e >= 0) c += " \u00b7 event " + (pos.e + 1) + " / " +
    D.frames[pos.f].e.length;
  $("counter").textContent = c;
  if (!keepHash && history.replaceState)
    history.replaceState(null, "", "#frame=" + (pos.f + 1) +
      (pos.e >= 0 ? "&event=" + (pos.e + 1) : ""));
}
function go(d) { stop(); show(stepIndex() + d); }
var PLAY = "M4 2v12l10-6z", PAUSE = "M3 2h4v12H3zM9 2h4v12H9z";
function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("play").querySelector("path").setAttribute("d", PLAY);
  $("play").setAttribute("aria-label", "play");
}
function play() {
  if (timer) return stop();
  if (stepIndex() >= STEPS.length - 1) show(0);
  timer = setInterval(function () {
    if (stepIndex() >= STEPS.length - 1) return stop();
    show(stepIndex() + 1);
  }, fine ? 500 : 900);
  $("play").querySelector("path").setAttribute("d", PAUSE);
  $("play").setAttribute("aria-label", "pause");
}
function setFine(on) {
  var f = pos.f;
  fine = on;
  $("fine").checked = on;
  STEPS = steps();
  pos = { f: f, e: -1 };
  for (var k = 0; k < STEPS.length; k++) if (STEPS[k].f === f) break;
  show(k);
}
function fromHash() {
  var m = /frame=(\d+)(?:&event=(\d+))?/.exec(location.hash);
  if (!m) return false;
  var f = Math.max(1, Math.min(N, +m[1])) - 1, e = m[2] ? +m[2] - 1 : -1;
  if (e >= 0 && D.frames[f].e.length) { fine = true; $("fine").checked = true;
    STEPS = steps(); }
  pos = { f: f, e: e };
  show(stepIndex(), true);
  return true;
}
function printAll() {
  var box = $("print");
  box.textContent = "";
  D.frames.forEach(function (f, i) {
    var s = $("view").cloneNode(true);
    s.removeAttribute("id");
    var sec = document.createElement("section");
    var h = document.createElement("h2");
    h.textContent = "Frame " + (i + 1) + " / " + N;
    sec.appendChild(h);
    sec.appendChild(s);
    box.appendChild(sec);
    fill(s, i, -1);
  });
  document.body.classList.add("printing");
}
function selftest() {
  var out = [], svgCells = function () {
    return $("view").querySelectorAll(".treebox path").length;
  };
  function note(what) {
    out.push(what + ": " + $("counter").textContent + " | cmd=" +
      $("view").querySelector(".cmd").textContent + " | paths=" + svgCells());
  }
  show(0); note("first");
  go(1); note("forward");
  go(1); note("forward");
  go(-1); note("back");
  show(STEPS.length - 1); note("last");
  go(1); note("forward-at-end");
  setFine(true); show(0); go(1); note("fine-forward");
  go(-1); note("fine-back");
  setFine(false); show(0); note("first-again");
  var qi = -1;
  D.frames.forEach(function (f, i) { if (qi < 0 && f.q) qi = i; });
  if (qi >= 0) {
    var v = $("view"), ans = v.querySelector(".qans");
    var seen = function (what) {
      var shown = ans.checkVisibility ? ans.checkVisibility()
        : ans.getClientRects().length > 0;
      out.push(what + ": frame " + (qi + 1) + " | details " +
        (v.querySelector(".ans").open ? "open" : "closed") + " | answer " +
        (shown ? "shown: " + ans.textContent : "hidden"));
    };
    show(qi); seen("question");
    v.querySelector(".ans summary").click(); seen("clicked");
    go(1); go(-1); seen("back-again");
  }
  var pre = document.createElement("pre");
  pre.id = "selftest";
  pre.textContent = "selftest\n" + out.join("\n") + "\nselftest done";
  document.body.appendChild(pre);
}

$("first").onclick = function () { stop(); show(0); };
$("back").onclick = function () { go(-1); };
$("play").onclick = play;
$("fwd").onclick = function () { go(1); };
$("last").onclick = function () { stop(); show(STEPS.length - 1); };
$("slider").oninput = function () { stop(); show(+this.value); };
$("fine").onchange = function () { stop(); setFine(this.checked); };
document.addEventListener("keydown", function (e) {
  if (e.target && e.target.tagName === "INPUT" && e.target.type === "range"
      && e.key !== " ") return;
  var k = e.key;
  if (k === "ArrowRight" || k === "ArrowDown") go(1);
  else if (k === "ArrowLeft" || k === "ArrowUp") go(-1);
  else if (k === "Home") { stop(); show(0); }
  else if (k === "End") { stop(); show(STEPS.length - 1); }
  else if (k === " ") play();
  else return;
  e.preventDefault();
});
window.addEventListener("hashchange", function () { stop(); fromHash(); });
window.addEventListener("beforeprint", printAll);
window.addEventListener("afterprint", function () {
  document.body.classList.remove("printing");
});
$("controls").hidden = false;
if (!N) return;
if (!fromHash()) show(0, true);
if (/selftest/.test(location.hash)) selftest();
})();
]==]

-- The controls' icons, drawn: no font has to hold them.
local ICON = {
	first = "M3 2h2v12H3zM14 2v12L6 8z",
	back = "M12 2v12L4 8z",
	play = "M4 2v12l10-6z",
	fwd = "M1 2v12l7-6zM8 2v12l7-6z",
	last = "M11 2h2v12h-2zM2 2v12l8-6z",
}

local function button(id, title, d)
	return format('<button id="%s" title="%s" aria-label="%s">' ..
		'<svg viewBox="0 0 16 16"><path d="%s"/></svg></button>',
		id, title, id, d)
end

local function ev_head(f)
	if #f.e == 0 then return "Events (none)" end
	if f.m == 0 then return "Events (" .. #f.e .. ")" end
	return format("Events (%d; the first %d shown)", #f.e + f.m, #f.e)
end

local function hidden(s)
	return (s == nil or s == "") and " hidden" or ""
end

-- A lesson's paragraphs and question, above the frame (the page's
-- fillLesson() fills the same elements).  The answer is in a <details>:
-- hidden until "Show the answer" is clicked, with JavaScript or without.
local function lesson_block(f)
	local q = f.q or {}
	local function p(cls, s, tag)
		tag = tag or "p"
		return format('<%s class="%s"%s>%s</%s>', tag, cls, hidden(s),
			esc(s or ""), tag)
	end
	return concat({
		'<section class="lesson"' .. ((f.p or f.q) and "" or " hidden") ..
			">",
		p("para", f.p),
		'<div class="quest"' .. (f.q and "" or " hidden") .. ">",
		"<p>" .. p("qnum", q.k, "b") .. " " .. p("qtext", q.t, "span") ..
			"</p>",
		'<details class="ans"><summary>Show the answer</summary>',
		"<p>Answer: " .. p("qans", q.a, "b") .. "</p>",
		p("qcmd", q.c, "pre"),
		p("qout", f.q and (q.o == "" and "(no output)" or q.o), "pre"),
		p("qwhy", q.w),
		p("qnarr", q.n),
		"</details></div></section>",
	}, "\n")
end

local function side(f)
	local evs = {}
	for i, e in ipairs(f.e) do evs[i] = "<li>" .. esc(e[1]) .. "</li>" end
	local hide = f.n == "" and " hidden" or ""
	local run = f.c == "" and (f.p or f.q) and " hidden" or ""
	return concat({
		'<div class="side"><div class="run"' .. run .. ">",
		"<h2>Command</h2>",
		'<pre class="cmd">' .. esc(f.c) .. "</pre>",
		"<h2>Output</h2>",
		'<pre class="out">' .. esc(f.o == "" and "(no output)" or f.o) ..
			"</pre>",
		'<h2 class="narr-h"' .. hide .. ">Why</h2>",
		'<p class="narr"' .. hide .. ">" .. esc(f.n) .. "</p>",
		'<h2 class="ev-h">' .. ev_head(f) .. "</h2>",
		'<ol class="events">' .. concat(evs) .. "</ol>",
		"</div></div>",
	}, "\n")
end

-- {------------------------- SHA-256 -------------------------------
-- For the CSP: the page's one script and one style are allowed by their
-- hashes, so that no other inline script or style could run, were some
-- text ever to slip through unescaped.

local K = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

local M32 = 0xffffffff

local function rotr(x, n)
	return ((x >> n) | (x << (32 - n))) & M32
end

local function sha256_block(h, msg, at)
	local w = {}
	for i = 1, 16 do w[i] = string.unpack(">I4", msg, at + (i - 1) * 4) end
	for i = 17, 64 do
		local a, b = w[i - 15], w[i - 2]
		local s0 = rotr(a, 7) ~ rotr(a, 18) ~ (a >> 3)
		local s1 = rotr(b, 17) ~ rotr(b, 19) ~ (b >> 10)
		w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & M32
	end
	local a, b, c, d, e, f, g, hh = table.unpack(h)
	for i = 1, 64 do
		local t1 = hh + (rotr(e, 6) ~ rotr(e, 11) ~ rotr(e, 25)) +
			((e & f) ~ (~e & g)) + K[i] + w[i]
		local t2 = (rotr(a, 2) ~ rotr(a, 13) ~ rotr(a, 22)) +
			((a & b) ~ (a & c) ~ (b & c))
		hh, g, f, e = g, f, e, (d + t1) & M32
		d, c, b, a = c, b, a, (t1 + t2) & M32
	end
	for i, x in ipairs({ a, b, c, d, e, f, g, hh }) do
		h[i] = (h[i] + x) & M32
	end
end

local function sha256(msg)
	local h = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 }
	local len = #msg
	msg = msg .. "\x80" .. string.rep("\0", (55 - len) % 64) ..
		string.pack(">I8", len * 8)
	for at = 1, #msg, 64 do sha256_block(h, msg, at) end
	return string.pack(">I4I4I4I4I4I4I4I4", table.unpack(h))
end

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

local function base64(s)
	local out = {}
	for i = 1, #s, 3 do
		local a, b, c = s:byte(i, i + 2)
		local n = (a << 16) | ((b or 0) << 8) | (c or 0)
		local q = {}
		for k = 1, 4 do
			q[k] = B64:sub(((n >> (6 * (4 - k))) & 63) + 1,
				((n >> (6 * (4 - k))) & 63) + 1)
		end
		if not b then q[3] = "=" end
		if not c then q[4] = "=" end
		out[#out + 1] = concat(q)
	end
	return concat(out)
end

local function csp_hash(text)
	return "'sha256-" .. base64(sha256(text)) .. "'"
end


-- }----------------------------------------------------------------

local CSP = "default-src 'none'; style-src " .. csp_hash(CSS) ..
	"; script-src " .. csp_hash(SCRIPT) .. "; img-src 'none'; " ..
	"base-uri 'none'; form-action 'none'; connect-src 'none'"

--- rec:html() -> text: the page, one self-contained HTML file.
function Recorder:html()
	local n = #self.frames
	local first = self.frames[1] or { c = "", o = "", n = "", e = {}, m = 0 }
	local data = json({ rows = self.rows, frames = self.frames,
		title = self.title }, {})
	return concat({
		"<!DOCTYPE html>",
		'<html lang="en"><head><meta charset="utf-8">',
		'<meta http-equiv="Content-Security-Policy" content="' .. CSP ..
			'">',
		'<meta name="referrer" content="no-referrer">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		"<title>" .. esc(self.title) .. "</title>",
		"<style>" .. CSS .. "</style>",
		"</head><body>",
		DEFS,
		"<header><h1>" .. esc(self.title) .. "</h1>",
		'<div class="controls" id="controls" hidden>',
		button("first", "first (Home)", ICON.first),
		button("back", "back (\u{2190})", ICON.back),
		button("play", "play/pause (space)", ICON.play),
		button("fwd", "forward (\u{2192})", ICON.fwd),
		button("last", "last (End)", ICON.last),
		'<input type="range" id="slider" min="0" max="' ..
			math.max(n - 1, 0) .. '" value="0" aria-label="frame">',
		'<span id="counter">frame ' .. math.min(n, 1) .. " / " .. n ..
			"</span>",
		'<label class="fine"><input type="checkbox" id="fine"> ' ..
			"step each event</label>",
		"</div></header>",
		"<noscript><p>This is the first of " .. n .. " frames: " ..
			"stepping through them needs JavaScript.</p></noscript>",
		'<main id="view">',
		lesson_block(first),
		side(first),
		'<div class="treecol">' .. LEGEND ..
			'<div class="treebox">' .. self:first_svg() .. "</div></div>",
		"</main>",
		'<div id="print"></div>',
		'<script type="application/json" id="data">',
		concat(data),
		"</script>",
		"<script>" .. SCRIPT .. "</script>",
		"</body></html>",
		"",
	}, "\n")
end

-- }===============================================================

return idr
