"use strict";
/* The replay page's script: it draws each frame as replay.lua laid it
 * out (boxes, rows of cells, events), and holds no layout of its own. */
(function () {
var D = JSON.parse(document.getElementById("data").textContent);
var G = D.geo, N = D.frames.length, NS = "http://www.w3.org/2000/svg";
/* A frame names its boxes by number: boxes are stored once. */
D.frames.forEach(function (f) {
  f.b = f.b.map(function (id) { return D.boxes[id - 1]; });
});
var $ = function (id) { return document.getElementById(id); };
var pos = { f: 0, e: -1 }, fine = false, timer = null;
var CLASS = { ".": "cf", "#": "cu", "+": "cc", x: "cx" };
var WORD = { ".": "free", "#": "in use", "+": "a child with room",
  x: "full" };

function el(name, attrs, parent) {
  var e = document.createElementNS(NS, name);
  for (var a in attrs) e.setAttribute(a, attrs[a]);
  if (parent) parent.appendChild(e);
  return e;
}
/* A box's line of text, squeezed to the box's width when longer than it
 * (an ID near 2^31 has 10 digits): G.chars characters of the font fit. */
function text(parent, x, y, cls, s) {
  var t = el("text", { x: x, y: y }, parent);
  if (cls) t.setAttribute("class", cls);
  t.textContent = s;
  if (s.length > G.chars) {
    t.setAttribute("textLength", G.box_w - 2 * G.pad);
    t.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}
/* The cells of every node box as frame f's event k left them: the
 * frame's (after the operation), with the events after k undone, last
 * first, each to what its cell held before. */
function cellsAt(f, k) {
  var cells = f.b.map(function (b) {
    return b.r ? D.rows[b.r - 1][3].split("") : null;
  });
  for (var j = f.e.length - 1; j > k; j--) {
    var e = f.e[j];
    if (e.a && cells[e.b - 1]) cells[e.b - 1][e.s] = e.z;
  }
  return cells;
}
/* An IDA leaf's count of IDs set in slot s's bitmap at event k of frame
 * f: the frame's, with the bits set or cleared after k undone. */
function countAt(f, b, s, k) {
  var r = D.rows[f.b[b - 1].r - 1], c = r[5][s];
  for (var j = f.e.length - 1; j > k; j--)
    if (f.e[j].d && f.e[j].b === b && f.e[j].s === s) c -= f.e[j].d;
  return c;
}
/* Whether box b shows at event k: a node made later is not there yet,
 * a node freed earlier is gone; "going" while the event frees it. */
function shown(f, b, k) {
  var state = f.b[b - 1].k === "g" ? "gone" : "there";
  f.e.forEach(function (e, j) {
    if (e.b !== b) return;
    if (e.n === "new" && j > k) state = "notyet";
    if (e.n === "free" && j <= k) state = j === k ? "going" : "gone";
    if (e.n === "free" && j > k) state = "there";
  });
  return state;
}
function cellMid(box, s) {
  return [box.x + G.pad + s % G.cols * G.pitch + G.cell / 2,
    box.y + G.title + G.pad + Math.floor(s / G.cols) * G.pitch + G.cell / 2];
}
function edge(svg, f, box, going) {
  var a = cellMid(f.b[box.p - 1], box.s), x2 = box.x + G.box_w / 2,
    y2 = box.y, my = (a[1] + y2) / 2;
  el("path", { "class": "edge" + (box.h ? " hot" : "") +
    (going ? " ghost" : ""), d: "M" + a[0] +
    " " + a[1] + "C" + a[0] + " " + my + " " + x2 + " " + my + " " + x2 +
    " " + y2 }, svg);
}
function nodeBox(svg, f, i, ctx) {
  var box = f.b[i], r = D.rows[box.r - 1], cells = ctx.cells[i];
  var used = cells.filter(function (c) { return c !== "."; }).length;
  /* A node the operation frees looks as the others until it goes. */
  var going = ctx.state[i] === "going";
  var g = el("g", { "class": "box " + (going ? "g gone" : "n") +
    (box.h ? " hot" : "") + (box.q ? " keyed" : "") +
    (box.pk ? " packed" : "") + (ctx.isNew[i] ? " new" : ""),
    "data-b": i + 1, transform: "translate(" + box.x + "," + box.y + ")" },
    svg);
  el("rect", { "class": "frame", width: G.box_w, height: G.node_h, rx: 4 }, g);
  text(g, G.pad, 13, "", "L" + r[0] + " \u00b7 " + (going ?
    "freed" : used + "/" + cells.length + " used"));
  text(g, G.pad, 26, "range", r[1] + ".." + r[2]);
  cells.forEach(function (c, s) {
    var cls = "c " + CLASS[c];
    if (ctx.changed[(i + 1) + ":" + s]) cls += " chg";
    if (ctx.cur && ctx.cur.b === i + 1 && ctx.cur.s === s) cls += " cur";
    var x = G.pad + s % G.cols * G.pitch,
      y = G.title + G.pad + Math.floor(s / G.cols) * G.pitch;
    el("rect", { "class": cls, "data-s": s, x: x, y: y, width: G.cell,
      height: G.cell }, g);
    /* An IDA bitmap: a bar as high as the share of its bits set. */
    if (r[6] && r[6].bits && c !== ".") {
      var h = Math.max(2, Math.round((G.cell - 2) * countAt(ctx.f, i + 1, s,
        ctx.shownTo) / r[6].bits));
      el("rect", { "class": "bits", x: x + 1, y: y + G.cell - 1 - h,
        width: G.cell - 2, height: h }, g);
    }
  });
}
function smallBox(svg, box) {
  var g = el("g", { "class": "box " + box.k,
    transform: "translate(" + box.x + "," + box.y + ")" }, svg);
  el("rect", { "class": "frame", width: G.box_w, height: G.small_h, rx: 4 },
    g);
  var lines = box.t.split("\n");
  text(g, G.pad, 18, "", lines[0]);
  text(g, G.pad, 34, "", lines[1] || "");
}
/* Frame i's tree at event k (-1: after the operation, its changes lit). */
function draw(i, k) {
  var f = D.frames[i];
  if (!f.b.length) {
    var p = document.createElement("p");
    p.className = "none";
    p.textContent = f.t ? "(empty tree)" : "(no tree)";
    return p;
  }
  var shownTo = k < 0 ? f.e.length - 1 : k;
  var ctx = { cells: cellsAt(f, shownTo), state: [], isNew: [], changed: {},
    cur: k >= 0 ? f.e[k] : null, f: f, shownTo: shownTo };
  f.e.forEach(function (e, j) {
    if ((e.a || e.d) && (k < 0 || j === k))
      ctx.changed[e.b + ":" + e.s] = 1;
    if (e.n === "new" && (k < 0 || j === k)) ctx.isNew[e.b - 1] = 1;
  });
  var svg = el("svg", { "class": "tree", width: f.w, height: f.h,
    viewBox: "0 0 " + f.w + " " + f.h, role: "img",
    "aria-label": "the tree" });
  f.b.forEach(function (box, b) {
    ctx.state[b] = shown(f, b + 1, shownTo);
    /* After the operation, what it freed shows faded. */
    if (k < 0 && box.k === "g") ctx.state[b] = "going";
    if (box.p && ctx.state[b] !== "gone" && ctx.state[b] !== "notyet" &&
        (ctx.state[b] === "going" || ctx.cells[box.p - 1][box.s] !== "."))
      edge(svg, f, box, ctx.state[b] === "going");
  });
  f.b.forEach(function (box, b) {
    if (ctx.state[b] === "gone" || ctx.state[b] === "notyet") return;
    if (box.r) nodeBox(svg, f, b, ctx);
    else smallBox(svg, box);
  });
  return svg;
}
/* Hover: a slot's IDs, value and bits. */
function tip(ev) {
  var t = $("tip"), c = ev.target;
  if (!c.classList || !c.classList.contains("c") || !c.parentNode.dataset.b) {
    t.hidden = true;
    return;
  }
  var f = D.frames[pos.f], box = f.b[c.parentNode.dataset.b - 1];
  var r = D.rows[box.r - 1], s = +c.dataset.s, n = r[3].length;
  var span = (r[2] - r[1] + 1) / n, lo = r[1] + s * span;
  var st = [...c.classList].indexOf("cu") >= 0 ? "#" :
    [...c.classList].indexOf("cc") >= 0 ? "+" :
    [...c.classList].indexOf("cx") >= 0 ? "x" : ".";
  var ida = r[6] && r[6].bits, b = +c.parentNode.dataset.b;
  var lines = ["L" + r[0] + " slot " + s + ": " + (ida && st !== "." ?
    (st === "x" ? "a full bitmap" : "a bitmap with room") : WORD[st]),
    (span === 1 ? "ID " + lo : "IDs " + lo + ".." + (lo + span - 1))];
  if (ida && st !== ".") {
    var set = countAt(f, b, s, pos.e < 0 ? f.e.length - 1 : pos.e);
    lines.push("bitmap: " + set + " of " + r[6].bits + " bits set (" +
      set + (set === 1 ? " ID" : " IDs") + " in use)");
  } else if (r[4] && r[4][s]) lines.push("value " + r[4][s]);
  if (r[6] && r[6].gen !== undefined) {
    var g = r[5][s], tid = g * Math.pow(2, r[6].gen) + lo;
    lines.push(st === "." ? "generation " + g + ": a tagged ID of an " +
      "earlier one is stale" : "tagged ID " + tid + " = generation " + g +
      " << " + r[6].gen + " | ID " + lo);
  }
  lines.push("slot " + s + " in binary " +
    s.toString(2).padStart(Math.log2(n), "0") + " (the ID's digit here)");
  lines.push("present bit " + (st === "." ? 0 : 1) + ", full bit " +
    (st === "x" || (st === "#" && r[0] === 0) ? 1 : 0));
  if (span === 1) lines.push("ID bits " + lo.toString(2));
  t.textContent = lines.join("\n");
  t.hidden = false;
  var at = $("view").querySelector(".stage").getBoundingClientRect();
  t.style.left = Math.min(ev.clientX - at.left + 12, at.width - 200) + "px";
  t.style.top = (ev.clientY - at.top + 16) + "px";
}
function evHead(f) {
  if (!f.e.length) return "Events (none)";
  if (!f.m) return "Events (" + f.e.length + ")";
  return "Events (" + (f.e.length + f.m) + "; the first " + f.e.length +
    " shown)";
}
function put(root, sel, s, empty) {
  var e = root.querySelector(sel);
  e.textContent = s || empty || "";
  e.hidden = e.textContent === "";
}
/* A lesson's paragraphs and question; the answer closed again. */
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
/* The panel: the event now played and its kernel step, or the frame's. */
function fillNow(root, f, k) {
  var line = root.querySelector(".evline"), ul = root.querySelector(".kernel");
  ul.textContent = "";
  var steps = [];
  put(root, ".evtext", k >= 0 ? f.e[k].x : "");
  if (k >= 0) {
    line.textContent = "event " + (k + 1) + " / " + f.e.length + ": " +
      f.e[k].w;
    if (f.e[k].k) steps.push(f.e[k].k);
  } else {
    line.textContent = f.e.length ? (f.e.length + f.m) + " events: tick " +
      "\u201cstep each event\u201d to play them one by one." : "No events.";
    f.e.forEach(function (e) {
      if (e.k && steps.indexOf(e.k) < 0) steps.push(e.k);
    });
  }
  steps.forEach(function (s) {
    var li = document.createElement("li");
    li.textContent = s;
    ul.appendChild(li);
  });
  root.querySelector(".kernel-h").hidden = !steps.length;
}
function fill(root, i, k) {
  var f = D.frames[i];
  fillLesson(root, f);
  root.querySelector(".tname").textContent = !f.t ? "no tree" :
    f.nm ? "tree " + f.nm : "tree (unnamed)";
  root.querySelector(".cmd").textContent = f.c;
  var done = -1;
  f.e.forEach(function (e, j) { if (/^done /.test(e.w)) done = j; });
  root.querySelector(".out").textContent = k >= 0 && k < done ?
    "(not yet: the operation is still running)" :
    f.o === "" ? "(no output)" : f.o;
  var narr = root.querySelector(".narr"), nh = root.querySelector(".narr-h");
  narr.textContent = f.n;
  narr.hidden = nh.hidden = f.n === "";
  var ol = root.querySelector(".events");
  ol.textContent = "";
  f.e.forEach(function (e, j) {
    var li = document.createElement("li");
    li.textContent = e.w;
    if (j === k) li.className = "now";
    ol.appendChild(li);
  });
  root.querySelector(".ev-h").textContent = evHead(f);
  fillNow(root, f, k);
  var box = root.querySelector(".treebox");
  box.textContent = "";
  box.appendChild(draw(i, k));
  var now = ol.querySelector(".now");
  if (now && root.id === "view") ol.scrollTop = now.offsetTop - ol.offsetTop;
  if (root.id === "view") centre(box, focus(f, k));
}
/* The box a reader looks for in frame f at event k: the event's node,
 * else the deepest node the operation touched (the way down's end). */
function focus(f, k) {
  var e = k >= 0 ? f.e[k] : null, best = null;
  if (e && e.b > 0) return f.b[e.b - 1];
  f.b.forEach(function (b) {
    if (b.h && b.r && (!best || b.y > best.y)) best = b;
  });
  return best;
}
/* Scroll the tree's pane so that box b is in the middle of it: a wide
 * tree's changed leaf may be far off to the side. */
function centre(pane, b) {
  if (!b) return;
  pane.scrollLeft = Math.max(0, b.x + G.box_w / 2 - pane.clientWidth / 2);
  pane.scrollTop = Math.max(0, b.y + G.node_h / 2 - pane.clientHeight / 2);
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
  if (timer) clearTimeout(timer);
  timer = null;
  $("play").querySelector("path").setAttribute("d", PLAY);
  $("play").setAttribute("aria-label", "play");
}
/* A frame shows 1.2 s, an event 0.7 s, at speed 1. */
function delay() { return (fine ? 700 : 1200) / +$("speed").value; }
function tick() {
  if (stepIndex() >= STEPS.length - 1) return stop();
  show(stepIndex() + 1);
  timer = setTimeout(tick, delay());
}
function play() {
  if (timer) return stop();
  if (stepIndex() >= STEPS.length - 1) show(0);
  timer = setTimeout(tick, delay());
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
function fromHash(hash) {
  var m = /frame=(\d+)(?:&event=(\d+))?/.exec(hash || location.hash);
  if (!m) return false;
  var f = Math.max(1, Math.min(N, +m[1])) - 1, e = m[2] ? +m[2] - 1 : -1;
  if (e >= 0 && D.frames[f].e.length) {
    fine = true;
    $("fine").checked = true;
    STEPS = steps();
    e = Math.min(e, D.frames[f].e.length - 1);
  }
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
  var hash = location.hash, out = [], cells = function () {
    return $("view").querySelectorAll(".treebox rect.c").length;
  };
  function note(what) {
    out.push(what + ": " + $("counter").textContent + " | cmd=" +
      $("view").querySelector(".cmd").textContent + " | cells=" + cells());
  }
  show(0); note("first");
  go(1); note("forward");
  go(1); note("forward");
  go(-1); note("back");
  show(STEPS.length - 1); note("last");
  /* Whether the node the reader looks for is in the tree's pane. */
  var pane = $("view").querySelector(".treebox"),
    fb = focus(D.frames[pos.f], pos.e);
  if (fb) out.push("focus: L" + D.rows[fb.r - 1][0] + " " +
    D.rows[fb.r - 1][1] + " " + (fb.x < pane.scrollLeft + pane.clientWidth &&
    fb.x + G.box_w > pane.scrollLeft && fb.y + G.node_h > pane.scrollTop &&
    fb.y < pane.scrollTop + pane.clientHeight ? "in view" : "out of view"));
  go(1); note("forward-at-end");
  setFine(true); show(0); go(1); note("fine-forward");
  go(-1); note("fine-back");
  setFine(false); show(0); note("first-again");
  function hover(what, sel) {
    var cell = $("view").querySelector(sel);
    if (!cell) return;
    cell.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    out.push(what + ": " + $("tip").textContent.replace(/\n/g, " | "));
  }
  hover("hover", ".treebox .box.n rect.c.cu");
  /* #frame=N&selftest: a leaf's first slot in use there, hovered. */
  if (fromHash(hash)) {
    note("at");
    hover("hover-at", ".treebox .box.n rect.c.cu, .treebox .box.n rect.c.cc");
  }
  var qi = -1;
  D.frames.forEach(function (f, i) { if (qi < 0 && f.q) qi = i; });
  if (qi >= 0) {
    var v = $("view"), ans = v.querySelector(".qans");
    var seen = function (what) {
      var vis = ans.checkVisibility ? ans.checkVisibility()
        : ans.getClientRects().length > 0;
      out.push(what + ": frame " + (qi + 1) + " | details " +
        (v.querySelector(".ans").open ? "open" : "closed") + " | answer " +
        (vis ? "shown: " + ans.textContent : "hidden"));
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
/* #layout: what the page measures of itself, for the browser tests: its
 * width against the window's, the tree beside the text, whether an
 * output box keeps its lines whole, and whether a new node fades in. */
function layoutNote() {
  var st = $("view").querySelector(".stage").getBoundingClientRect();
  var sd = $("view").querySelector(".side").getBoundingClientRect();
  var nb = $("view").querySelector(".treebox .box.new");
  var pre = document.createElement("pre");
  pre.id = "layout";
  pre.textContent = "page " + document.documentElement.scrollWidth + " of " +
    window.innerWidth + "; tree " + (st.right <= sd.left ? "left of side" :
    "not beside the side") + "; out " +
    getComputedStyle($("view").querySelector(".out")).whiteSpace +
    "; new nodes " + (!nb ? "none" :
      getComputedStyle(nb).animationName === "none" ? "still" : "fade in");
  document.body.appendChild(pre);
}
$("first").onclick = function () { stop(); show(0); };
$("back").onclick = function () { go(-1); };
$("play").onclick = play;
$("fwd").onclick = function () { go(1); };
$("last").onclick = function () { stop(); show(STEPS.length - 1); };
$("slider").oninput = function () { stop(); show(+this.value); };
$("fine").onchange = function () { stop(); setFine(this.checked); };
$("view").addEventListener("mouseover", tip);
$("view").addEventListener("mouseleave", function () { $("tip").hidden = true; });
document.addEventListener("keydown", function (e) {
  var t = e.target && e.target.tagName;
  if ((t === "INPUT" && e.target.type === "range" && e.key !== " ") ||
      t === "SELECT") return;
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
if (/layout/.test(location.hash)) layoutNote();
})();
