-- SPDX-License-Identifier: MIT
-- replay_page.lua - the replay page: one self-contained HTML file.
--
-- The data, the frames as replay.lua laid them out, goes as JSON in a
-- script element that is never run; lua/view/page.js draws each frame
-- from it and lua/view/page.css styles it.  Both are compiled in (lua/embed
-- -p, the view "page"), with their SHA-256 taken at build time: the
-- Content-Security-Policy allows that one script and that one style by
-- hash and forbids every request.  Every text from the session reaches
-- the page escaped: JSON with <, > and & as \u escapes, HTML with
-- entities.  The first frame is drawn here, in Lua, from the same boxes
-- and the same numbers the script draws with, so that the page shows it
-- with JavaScript off.
local _, _, _, view = ...

local L = view "frame"
local J = view "json"
local ASSETS = view "page"

local concat, format = table.concat, string.format

local P = {}

-- {========================= Escaping =============================

local HTML_ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
	['"'] = "&quot;", ["'"] = "&#39;" }

local function esc(s)
	return (tostring(s):gsub("[&<>\"']", HTML_ESC))
end

-- }===============================================================

-- {================ The first frame, drawn as SVG ==================
-- page.js's draw() makes the same elements from the same boxes.

local CELL_CLASS = { ["."] = "cf", ["#"] = "cu", ["+"] = "cc", x = "cx" }

local function row_title(r)
	local used = select(2, r[4]:gsub("[^.]", ""))
	return format("L%d \u{b7} %d/%d used", r[1], used, #r[4]),
		format("%d..%d", r[2], r[3])
end

-- A box's line of text at @x, @y, squeezed to the box's width when it
-- is longer than g.chars characters (page.js's text() does the same).
local function line(g, x, y, cls, s)
	local fit = #s > g.chars and format(' textLength="%d" ' ..
		'lengthAdjust="spacingAndGlyphs"', g.box_w - 2 * g.pad) or ""
	return format('<text%s x="%d" y="%d"%s>%s</text>', cls and
		' class="' .. cls .. '"' or "", x, y, fit, esc(s))
end

-- The middle of cell @s of a box at @x, @y.
local function cell_mid(g, x, y, s)
	return x + g.pad + s % g.cols * g.pitch + g.cell // 2,
		y + g.title + g.pad + s // g.cols * g.pitch + g.cell // 2
end

local function edge(g, boxes, box, out)
	local parent = boxes[box.p]
	local x1, y1 = cell_mid(g, parent.x, parent.y, box.s)
	local x2, y2 = box.x + g.box_w // 2, box.y
	local my = (y1 + y2) // 2
	out[#out + 1] = format('<path class="edge%s%s" d="M%d %dC%d %d %d %d ' ..
		'%d %d"/>', box.h and " hot" or "", box.k == "g" and " ghost" or "",
		x1, y1, x1, my, x2, my, x2, y2)
end

local function node_box(g, rows, box, i, out)
	local r = rows[box.r]
	local t1, t2 = row_title(r)
	out[#out + 1] = format('<g class="box %s%s%s%s" data-b="%d" ' ..
		'transform="translate(%d,%d)"><rect class="frame" width="%d" ' ..
		'height="%d" rx="4"/>%s%s', box.k .. (box.k == "g" and " gone" or ""),
		box.h and " hot" or "", box.q and " keyed" or "",
		box.pk and " packed" or "", i, box.x, box.y,
		g.box_w, g.node_h,
		line(g, g.pad, 13, nil, box.k == "g" and format("L%d \u{b7} freed",
		r[1]) or t1), line(g, g.pad, 26, "range", t2))
	for s = 0, #r[4] - 1 do
		out[#out + 1] = format('<rect class="c %s" data-s="%d" x="%d" ' ..
			'y="%d" width="%d" height="%d"/>',
			CELL_CLASS[r[4]:sub(s + 1, s + 1)], s,
			g.pad + s % g.cols * g.pitch,
			g.title + g.pad + s // g.cols * g.pitch, g.cell, g.cell)
	end
	out[#out + 1] = "</g>"
end

local function small_box(g, box, out)
	local a, b = box.t:match("^([^\n]*)\n?(.*)$")
	out[#out + 1] = format('<g class="box %s" transform="translate(%d,%d)">' ..
		'<rect class="frame" width="%d" height="%d" rx="4"/>%s%s</g>',
		box.k, box.x, box.y, g.box_w, g.small_h, line(g, g.pad, 18, nil, a),
		line(g, g.pad, 34, nil, b))
end

--- P.svg(rec, n): frame @n's tree as SVG markup.
function P.svg(rec, n)
	local f, boxes = rec.frames[n], rec:frame_boxes(n)
	if #boxes == 0 then
		return format('<p class="none">%s</p>',
			f.t and "(empty tree)" or "(no tree)")
	end
	local g, out = L.geometry(), {}
	out[1] = format('<svg class="tree" width="%d" height="%d" ' ..
		'viewBox="0 0 %d %d" role="img" aria-label="the tree">',
		f.w, f.h, f.w, f.h)
	for _, box in ipairs(boxes) do
		if box.p then edge(g, boxes, box, out) end
	end
	for i, box in ipairs(boxes) do
		if box.r then node_box(g, rec.rows, box, i, out)
		else small_box(g, box, out) end
	end
	out[#out + 1] = "</svg>"
	return concat(out)
end

-- }===============================================================

-- {=========================== The page ===========================

-- The patterns of the cells, referred to by page.css.
local DEFS = [==[
<svg class="defs" width="0" height="0" aria-hidden="true">
<defs>
<pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse"
 patternTransform="rotate(45)"><rect width="4" height="4" fill="#f3d6e0"/>
<rect width="2" height="4" fill="#8a2a4c"/></pattern>
<pattern id="dots" width="6" height="6" patternUnits="userSpaceOnUse">
<rect width="6" height="6" fill="#d6f0e3"/>
<circle cx="3" cy="3" r="1.6" fill="#1f8a5b"/></pattern>
</defs></svg>
]==]

local function legend_cell(cls)
	return '<svg width="13" height="13" viewBox="0 0 13 13">' ..
		'<rect class="c ' .. cls .. '" x="1" y="1" width="11" height="11"/>' ..
		'</svg>'
end

local LEGEND = '<div class="legend">' ..
	'<span>' .. legend_cell("cf") .. ' free</span>' ..
	'<span>' .. legend_cell("cu") .. ' in use</span>' ..
	'<span>' .. legend_cell("cc") .. ' child with room</span>' ..
	'<span>' .. legend_cell("cx") .. ' full</span>' ..
	'<span><b class="hotkey">blue</b>: the operation\'s path</span>' ..
	'<span><b class="chgkey">orange</b>: changed</span>'

-- An IDA's leaf slot holds a bitmap: said in the legend of its page.
local IDA_KEY = '<span>an IDA leaf\'s slot: a bitmap, its bar the share ' ..
	'of its IDs set</span>'
-- A keyed block, drawn as the level-1 node and leaves it stands for, as
-- DOT draws it: said when a frame has one.
local KEYED_KEY = '<span><b class="keyedkey">rounded, purple</b>: a ' ..
	'keyed block, its IDs as keys in one small block (no node below)</span>'

-- A packed node: said when a frame has one.
local PACKED_KEY = '<span><b class="packedkey">long dashes</b>: a packed ' ..
	'node, its entries side by side in a block sized to them, not 64 ' ..
	'slots</span>'

local function legend(rec)
	local keys = {}
	for _, r in ipairs(rec.rows) do
		if r[7] and r[7].bits then keys[1] = IDA_KEY break end
	end
	for _, b in ipairs(rec.boxes) do
		if b.q then keys[#keys + 1] = KEYED_KEY break end
	end
	for _, b in ipairs(rec.boxes) do
		if b.pk then keys[#keys + 1] = PACKED_KEY break end
	end
	return LEGEND .. table.concat(keys) .. "</div>"
end

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

local SPEEDS = { "0.25", "0.5", "1", "2", "4" }

local function speed_control()
	local opts = {}
	for _, s in ipairs(SPEEDS) do
		opts[#opts + 1] = format('<option value="%s"%s>%s\u{d7}</option>',
			s, s == "1" and " selected" or "", s)
	end
	return '<label class="fine">speed <select id="speed" ' ..
		'aria-label="speed">' .. concat(opts) .. "</select></label>"
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
	for i, e in ipairs(f.e) do evs[i] = "<li>" .. esc(e.w) .. "</li>" end
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


local function tree_name(f)
	if not f.t then return "no tree" end
	return f.nm ~= "" and "tree " .. f.nm or "tree (unnamed)"
end

-- What the events did, in explain's words (words.lua): the event now
-- played and the kernel's step, or, a frame at a time, the kernel's
-- steps of the whole operation.
local function now_panel(f)
	local steps, seen = {}, {}
	for _, e in ipairs(f.e) do
		if e.k and not seen[e.k] then
			seen[e.k] = true
			steps[#steps + 1] = "<li>" .. esc(e.k) .. "</li>"
		end
	end
	return concat({
		'<div class="evpanel"><p class="evline">',
		#f.e > 0 and format("%d events.", #f.e + f.m) or "No events.",
		'</p><p class="evtext" hidden></p><h2 class="kernel-h"' .. (#steps == 0 and " hidden" or "") ..
			'>In the kernel</h2><ul class="kernel">', concat(steps),
		"</ul></div>",
	})
end

local function stage(rec, f)
	return concat({
		'<section class="stage"><div class="treehead">',
		'<span class="tname">' .. esc(tree_name(f)) .. "</span>",
		legend(rec), "</div>",
		'<div class="treebox">' .. (rec.frames[1] and P.svg(rec, 1) or
			'<p class="none">(no tree)</p>') .. "</div>",
		now_panel(f),
		'<div id="tip" role="tooltip" hidden></div>',
		"</section>",
	}, "\n")
end

local CSP = "default-src 'none'; style-src 'sha256-" ..
	ASSETS["page.css"].sha256 .. "'; script-src 'sha256-" ..
	ASSETS["page.js"].sha256 .. "'; img-src 'none'; base-uri 'none'; " ..
	"form-action 'none'; connect-src 'none'"

local function controls(n)
	return concat({
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
		speed_control(),
		'<label class="fine"><input type="checkbox" id="fine"> ' ..
			"step each event</label>",
		"</div>",
	}, "\n")
end

--- P.html(rec) -> text: recorder @rec's page.
function P.html(rec)
	local n = #rec.frames
	local first = rec.frames[1] or { c = "", o = "", n = "", e = {}, m = 0,
		b = {}, nm = "", t = false }
	local data = J.script({ rows = rec.rows, boxes = rec.boxes,
		frames = rec.frames, title = rec.title, geo = L.geometry() })
	return concat({
		"<!DOCTYPE html>",
		'<html lang="en"><head><meta charset="utf-8">',
		'<meta http-equiv="Content-Security-Policy" content="' .. CSP ..
			'">',
		'<meta name="referrer" content="no-referrer">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		"<title>" .. esc(rec.title) .. "</title>",
		"<style>" .. ASSETS["page.css"].text .. "</style>",
		"</head><body>",
		DEFS,
		"<header><h1>" .. esc(rec.title) .. "</h1>",
		controls(n),
		"</header>",
		"<noscript><p>This is the first of " .. n .. " frames: " ..
			"stepping through them needs JavaScript.</p></noscript>",
		'<main id="view">',
		lesson_block(first),
		stage(rec, first),
		side(first),
		"</main>",
		'<div id="print"></div>',
		'<script type="application/json" id="data">',
		data,
		"</script>",
		"<script>" .. ASSETS["page.js"].text .. "</script>",
		"</body></html>",
		"",
	}, "\n")
end

-- }===============================================================

return P
