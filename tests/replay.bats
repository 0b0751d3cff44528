# The replay page (lua/view/replay.lua, idrsh --html, record) opened in a
# real browser: Debian's chromium, headless, with no network (a dead
# proxy), a throwaway profile under build/, and a timeout, since a
# headless browser can hang.  Screenshots are checked by their pixels
# (tests/replay/png-colors), stepping by the page's own #selftest, which
# writes what it saw into the DOM that --dump-dom prints.

setup_file() {
	export OUT="$BATS_FILE_TMPDIR"
	./build/idrsh --html "$OUT/demo.html" tests/replay/demo.idrsh \
		> /dev/null
}

setup() {
	load test_helper
	idrsh_setup
	command -v chromium > /dev/null ||
		fail "chromium is not installed (make deps-test installs it)"
}

# browser ARGS... URL: chromium headless, killed after 90 seconds.
# Screenshots are of a still page: with reduced motion asked for, the
# page plays no animation, so no pixel count catches a cell mid-fade.
browser() {
	local rc=0
	timeout -k 5 90 chromium --headless --no-sandbox \
		--user-data-dir="$TOP/build/chromium-profile" \
		--proxy-server=127.0.0.1:9 --disable-background-networking \
		--disable-gpu --window-size="${WINDOW:-1280,900}" \
		--force-prefers-reduced-motion \
		--virtual-time-budget=3000 "$@" \
		2> "$OUT/chromium.err" ||
		rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
		{ echo "chromium hung: killed after 90 seconds" >&2; return 1; }
	return "$rc"
}

url() {
	echo "file://$1${2:+#$2}"
}

# png_count FILE NAME: the count png-colors gives NAME.
png_count() {
	python3 tests/replay/png-colors "$1" | awk -v k="$2" '$1 == k { print $2 }'
}

@test "the page makes no request: a CSP forbids them and nothing refers out" {
	local f="$OUT/demo.html"
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';" "$f"
	# The one URL in the file is the SVG namespace, a name, not a request.
	run grep -c -i -e 'https\?:' -e '//' "$f"
	[ "$output" = 1 ] || { grep -n -i -e 'https\?:' -e '//' "$f"; return 1; }
	grep -q '"http://www.w3.org/2000/svg"' "$f"
	run grep -i -e 'src=' -e 'href=' -e '@import' -e 'url([^#]' "$f"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
}

@test "the CSP allows the page's one script and one style by their hashes" {
	python3 - "$OUT/demo.html" <<-'EOF'
	import base64, hashlib, re, sys
	page = open(sys.argv[1], encoding="utf-8").read()
	csp = re.search(r'Content-Security-Policy" content="([^"]*)"', page)[1]
	def h(text):
	    d = hashlib.sha256(text.encode("utf-8")).digest()
	    return "'sha256-" + base64.b64encode(d).decode() + "'"
	style = re.findall(r"<style>(.*?)</style>", page, re.S)
	script = re.findall(r"<script>(.*?)</script>", page, re.S)
	assert len(style) == 1 and len(script) == 1, (len(style), len(script))
	assert "style-src " + h(style[0]) + ";" in csp, csp
	assert "script-src " + h(script[0]) + ";" in csp, csp
	assert "unsafe" not in csp, csp
	EOF
	# A script slipped in (as a bug in escaping would) does not run; the
	# page's own does.
	sed 's|<main id="view">|<script>document.title = "injected"</script>&|' \
		"$OUT/demo.html" > "$OUT/injected.html"
	browser --dump-dom "$(url "$OUT/injected.html" frame=2)" > "$OUT/inj.html"
	grep -q '<title>demo.idrsh</title>' "$OUT/inj.html"
	grep -q '<span id="counter">frame 2 / 171</span>' "$OUT/inj.html"
}

@test "a value <script>alert(1)</script> is stored and shown as text" {
	local f="$OUT/demo.html"
	run grep -c '<script>alert(1)' "$f"
	[ "$output" = 0 ]
	browser --dump-dom "$(url "$f" frame=66)" > "$OUT/dom3.html"
	grep -q '<pre class="cmd">alloc "&lt;script&gt;alert(1)&lt;/script&gt;"</pre>' \
		"$OUT/dom3.html" || { grep -n 'class="cmd"' "$OUT/dom3.html"; return 1; }
	run grep -c '<script>alert' "$OUT/dom3.html"
	[ "$output" = 0 ]
}

@test "the first frame: not blank, the tree's cells drawn" {
	browser --screenshot="$OUT/first.png" "$(url "$OUT/demo.html")"
	[ "$(png_count "$OUT/first.png" colors)" -gt 50 ]
	# The first of 64 allocations: one leaf, on the path (its box lit),
	# one slot used (the legend alone has about 70 pixels of each colour).
	[ "$(png_count "$OUT/first.png" used)" -gt 120 ]
	[ "$(png_count "$OUT/first.png" path)" -gt 500 ]
	# The first frame marks no change.
	[ "$(png_count "$OUT/first.png" changed)" -lt 200 ]
}

@test "a later frame: the grown tree, full and child cells, changes marked" {
	# At the size of the picture in the README and doc/teaching.md (doc/replay.png is a copy).
	WINDOW=1200,760 browser --screenshot="$OUT/later.png" \
		"$(url "$OUT/demo.html" frame=67)"
	cp "$OUT/later.png" build/replay-later.png
	[ "$(png_count "$OUT/later.png" used)" -gt 70 ]
	[ "$(png_count "$OUT/later.png" full)" -gt 0 ]
	[ "$(png_count "$OUT/later.png" child)" -gt 0 ]
	[ "$(png_count "$OUT/later.png" changed)" -gt 100 ]
	[ "$(png_count "$OUT/later.png" path)" -gt 1000 ]
	[ "$(png_count "$OUT/later.png" height)" -eq 760 ]
}

@test "a keyed block and its run are drawn rounded, and the legend says what they are" {
	# Frame 67, 'alloc far 8300': 8300 alone in its level-1 range.
	browser --dump-dom "$(url "$OUT/demo.html" frame=67)" > "$OUT/keyed.html"
	[ "$(grep -o 'class="box n hot keyed' "$OUT/keyed.html" | wc -l)" -eq 2 ]
	grep -q 'rounded, purple</b>: a keyed block' "$OUT/keyed.html"
	browser --dump-dom "$(url "$OUT/demo.html" frame=66)" > "$OUT/unkeyed.html"
	run grep -c 'class="box [^"]*keyed' "$OUT/unkeyed.html"
	[ "$output" = 0 ]
	# The first frame, drawn before any script runs; no legend line where
	# no frame has a keyed block.
	./build/idrsh --html "$OUT/k1.html" -c 'alloc a 5000 5001' > /dev/null
	[ "$(grep -o 'class="box n hot keyed' "$OUT/k1.html" | wc -l)" -eq 2 ]
	./build/idrsh --html "$OUT/k0.html" -c 'alloc a' > /dev/null
	run grep -c 'keyed' "$OUT/k0.html"
	[ "$output" != 0 ] # page.js and page.css name the class
	run grep -c 'rounded, purple' "$OUT/k0.html"
	[ "$output" = 0 ]
}

@test "a packed node is drawn with long dashes, and the legend says what they are" {
	# ID 100 alone in an empty tree: a packed top and a packed leaf.
	./build/idrsh --html "$OUT/p1.html" -c 'alloc a 100 101' > /dev/null
	[ "$(grep -o 'class="box n hot packed"' "$OUT/p1.html" | wc -l)" -eq 2 ]
	grep -q 'long dashes</b>: a packed node' "$OUT/p1.html"
	# Drawn by the page's script too: a whole leaf thinned by removals
	# packs at 48 entries, and the last frame shows it so.
	./build/idrsh --html "$OUT/p2.html" -c 'alloc_many 64' \
		-c 'lua for i = 0, 20 do t:remove(i) end' > /dev/null
	browser --dump-dom "$(url "$OUT/p2.html" frame=1)" > "$OUT/p2-1.html"
	grep -q 'class="box n hot new"' "$OUT/p2-1.html"
	run grep -c 'class="box [^"]*packed' "$OUT/p2-1.html"
	[ "$output" = 0 ]
	n=$(grep -o 'frame 1 / [0-9]*' "$OUT/p2-1.html" | grep -o '[0-9]*$')
	browser --dump-dom "$(url "$OUT/p2.html" frame="$n")" > "$OUT/p2-n.html"
	grep -q 'class="box n hot packed"' "$OUT/p2-n.html"
	# No legend line where no frame has one.
	./build/idrsh --html "$OUT/p0.html" -c 'alloc a' > /dev/null
	run grep -c 'long dashes' "$OUT/p0.html"
	[ "$output" = 0 ]
}

@test "stepping forward and back, and finely by event (#selftest)" {
	browser --dump-dom "$(url "$OUT/demo.html" selftest)" > "$OUT/self.html"
	sed -n '/<pre id="selftest">/,/selftest done/p' "$OUT/self.html" \
		> "$OUT/self.txt"
	cat "$OUT/self.txt"
	# A frame an operation: the 64 of the first line's loop first.
	local loop='lua for i = 0, 63 do t:alloc("v" .. i) end'
	# "[operation k of N]" on a line of its own, not off the box's edge.
	grep -qxF "first: frame 1 / 171 | cmd=$loop" "$OUT/self.txt"
	grep -qxF "forward: frame 2 / 171 | cmd=$loop" "$OUT/self.txt"
	grep -qxF "[operation 2 of 64] | cells=64" "$OUT/self.txt"
	grep -qxF "[operation 3 of 64] | cells=64" "$OUT/self.txt"
	grep -qxF "back: frame 2 / 171 | cmd=$loop" "$OUT/self.txt"
	grep -q '^last: frame 171 / 171 | cmd=find 8300' "$OUT/self.txt"
	grep -q '^forward-at-end: frame 171 / 171' "$OUT/self.txt"
	grep -q '^fine-forward: frame 1 / 171 · event 2 / 6 ' "$OUT/self.txt"
	grep -q '^fine-back: frame 1 / 171 · event 1 / 6 ' "$OUT/self.txt"
	grep -q '^first-again: frame 1 / 171 |' "$OUT/self.txt"
	# Hover on a slot: its ID, value and bits.
	grep -qF 'hover: L0 slot 0: in use | ID 0 | value v0 | slot 0 in binary 000000 (the ID'"'"'s digit here) | present bit 1, full bit 1' "$OUT/self.txt"
	grep -q 'selftest done' "$OUT/self.txt"
}

@test "a wide tree's page scrolls its pane to the node the operation changed" {
	# 3000 random IDs: a tree wider and taller than the window.
	printf '%s\n' 'math.randomseed(7)' 'for _ = 1, 3000 do' \
		'  local id = math.random(0, 2^31 - 2) t:alloc("v", id, id + 1)' \
		'end' > "$OUT/wide.lua"
	./build/idrsh -q -c "source $OUT/wide.lua" -c "record on" \
		-c "alloc a" -c "record save $OUT/wide.html" > /dev/null
	WINDOW=1200,760 browser --dump-dom "$(url "$OUT/wide.html" selftest)" \
		> "$OUT/wide-dom.html"
	sed -n '/<pre id="selftest">/,/selftest done/p' "$OUT/wide-dom.html" \
		> "$OUT/wide.txt"
	cat "$OUT/wide.txt"
	grep -qxF "focus: L0 0 in view" "$OUT/wide.txt"
}

@test "a #frame=n link opens that frame" {
	browser --dump-dom "$(url "$OUT/demo.html" frame=68)" > "$OUT/dom5.html"
	grep -q '<span id="counter">frame 68 / 171</span>' "$OUT/dom5.html"
	grep -q '<pre class="cmd">remove 5</pre>' "$OUT/dom5.html"
}

@test "with JavaScript off: the first frame, and a word on stepping" {
	grep -q '<noscript><p>This is the first of 171 frames: stepping through them needs JavaScript.</p></noscript>' \
		"$OUT/demo.html"
	# Headless screenshots need scripting on: the page's own script is
	# blocked instead, by its CSP, which the copy says 'none' to.
	sed "s/script-src [^;]*/script-src 'none'/" "$OUT/demo.html" \
		> "$OUT/nojs.html"
	grep -q "script-src 'none'" "$OUT/nojs.html"
	browser --screenshot="$OUT/nojs.png" "$(url "$OUT/nojs.html")"
	[ "$(png_count "$OUT/nojs.png" used)" -gt 120 ]
	[ "$(png_count "$OUT/nojs.png" path)" -gt 500 ]
}

@test "printed, the page gives each frame a page" {
	./build/idrsh --html "$OUT/four.html" -c 'alloc a' -c 'alloc b 64' \
		-c 'remove 0' -c 'find 64' > /dev/null
	browser --print-to-pdf="$OUT/four.pdf" --no-pdf-header-footer \
		"$(url "$OUT/four.html")"
	run grep -a -c '/Type /Page\b' "$OUT/four.pdf"
	[ "$output" -ge 4 ]
}

@test "record on ... record save: a frame a command typed" {
	run "$IDRSH" <<-EOF
	alloc before
	record on
	alloc a
	alloc b 100
	nosuch
	record save $OUT/typed.html
	EOF
	assert_output --partial "wrote 3 frames to $OUT/typed.html"
	grep -q '"c":"alloc a"' "$OUT/typed.html"
	grep -q '"c":"nosuch","e":\[\],[^{]*"o":"idrsh: \\u003cstdin\\u003e:5: unknown command' \
		"$OUT/typed.html" || { grep -o '"c":"nosuch".\{80\}' "$OUT/typed.html"; return 1; }
	run grep -c '"c":"alloc before"' "$OUT/typed.html"
	[ "$output" = 0 ]
	browser --dump-dom "$(url "$OUT/typed.html" frame=2)" > "$OUT/typed2.html"
	grep -q '<pre class="out">100' "$OUT/typed2.html"
}

@test "record save before record on is an error" {
	run "$IDRSH" -c "record save $OUT/none.html"
	[ "$status" -eq 1 ]
	assert_output --partial "record: nothing recorded: say 'record on' first"
}

@test "record: a line's operations past the 100th share its last frame" {
	# A frame each took minutes and gigabytes at 10^5 operations.
	run timeout 60 "$IDRSH" -c 'record on' -c 'alloc_many 100000' \
		-c 'alloc z' -c "record save $OUT/many.html"
	assert_success
	assert_line "wrote 102 frames to $OUT/many.html"
	run grep -o '"c":"[^"]*"' "$OUT/many.html"
	assert_line --index 0 '"c":"alloc_many 100000\n[operation 1 of 100000]"'
	assert_line --index 99 '"c":"alloc_many 100000\n[operation 100 of 100000]"'
	assert_line --index 100 '"c":"alloc_many 100000\n[operations 101 to 100000 of 100000]"'
	assert_line --index 101 '"c":"alloc z"'
	[ "$(stat -c %s "$OUT/many.html")" -lt 2000000 ]
}

@test "idrsh --html SCRIPT.lua: a frame an operation" {
	cat > "$OUT/s.lua" <<-'EOF'
	local idr = require "idr"
	local t = idr.new {}
	t:alloc("a")
	t:alloc("b", 8300)
	t:remove(0)
	EOF
	run "$IDRSH" --html "$OUT/lua.html" "$OUT/s.lua"
	[ "$status" -eq 0 ]
	grep -q '"c":"t:alloc(\\"b\\", 8300)"' "$OUT/lua.html"
	browser --dump-dom "$(url "$OUT/lua.html" selftest)" > "$OUT/lua-dom.html"
	grep -q '^last: frame 3 / 3 | cmd=t:remove(0)' "$OUT/lua-dom.html"
}

@test "--html to a file that cannot be written fails before the commands run" {
	run "$IDRSH" --html /nonexistent/dir/x.html -c 'alloc a' -c 'print "ran"'
	[ "$status" -eq 1 ]
	assert_output "idrsh: --html: /nonexistent/dir/x.html: No such file or directory"
	# A writable file not there before is not left behind by the check.
	run "$IDRSH" --html "$OUT/later-fail.html" -c 'nosuch'
	[ "$status" -eq 1 ]
	[ -s "$OUT/later-fail.html" ]
}

# at WIDTH FRAME: the demo page's DOM at FRAME in a window WIDTH wide,
# with what the page measured of itself (#selftest's widths).
dom_at() {
	WINDOW="$1,900" browser --dump-dom "$(url "$OUT/demo.html" "frame=$2")" \
		> "$OUT/dom-$1.html"
}

@test "at 700, 1000 and 1400 pixels: the tree beside the text, drawn as a tree" {
	for w in 700 1000 1400; do
		dom_at "$w" 67
		f="$OUT/dom-$w.html"
		grep -q '<span id="counter">frame 67 / 171</span>' "$f"
		# The tree's name, edges from slots to boxes, the path lit.
		grep -q '<span class="tname">tree default</span>' "$f"
		[ "$(grep -o '<path class="edge' "$f" | wc -l)" -ge 3 ]
		grep -q '<path class="edge hot"' "$f"
		grep -q '<g class="box n hot' "$f"
		# The speed control and the kernel's panel.
		grep -q '<select id="speed"' "$f"
		grep -q '<ul class="kernel">' "$f"
		WINDOW="$w,900" browser --screenshot="$OUT/w$w.png" \
			"$(url "$OUT/demo.html" frame=67)"
		[ "$(png_count "$OUT/w$w.png" width)" -eq "$w" ]
		[ "$(png_count "$OUT/w$w.png" path)" -gt 500 ]
		[ "$(png_count "$OUT/w$w.png" used)" -gt 70 ]
	done
	cp "$OUT/w700.png" build/replay-700.png
}

@test "at 700 pixels nothing overflows the page sideways; a slot map does not wrap" {
	WINDOW=700,900 browser --dump-dom "$(url "$OUT/demo.html" "frame=2&layout")" \
		> "$OUT/layout.html"
	grep -q '<pre id="layout">page 700 of 700; tree left of side; out pre; new nodes none</pre>' \
		"$OUT/layout.html" || { grep -o '<pre id="layout">[^<]*' "$OUT/layout.html"; return 1; }
}

# The screenshots count pixels of the path, which a new node on it would
# dim while it faded in: reduced motion must stop that fade too (it did
# not: the rule that undid it was less specific than the one it undoes).
@test "with reduced motion asked for, a new node does not fade in" {
	browser --dump-dom "$(url "$OUT/demo.html" "frame=67&layout")" \
		> "$OUT/motion.html"
	grep -q '; new nodes still</pre>' "$OUT/motion.html" ||
		{ grep -o '<pre id="layout">[^<]*' "$OUT/motion.html"; return 1; }
}

@test "step each event: a slot fills at its event, a node appears at its own" {
	# Frame 2 is 'alloc 1' on a leaf: its slot-set event is the 4th of 5.
	browser --dump-dom "$(url "$OUT/demo.html" "frame=2&event=1")" > "$OUT/ev1.html"
	browser --dump-dom "$(url "$OUT/demo.html" "frame=2&event=5")" > "$OUT/ev5.html"
	grep -q 'class="c cf" data-s="1"' "$OUT/ev1.html"
	grep -q 'class="c cu chg" data-s="1"' "$OUT/ev5.html" ||
		grep -q 'class="c cu" data-s="1"' "$OUT/ev5.html"
	# The grow of 'alloc far 8300' (frame 67): the new top is not there
	# at the first event, and is at the last.
	browser --dump-dom "$(url "$OUT/demo.html" "frame=67&event=1")" > "$OUT/g1.html"
	browser --dump-dom "$(url "$OUT/demo.html" "frame=67&event=9")" > "$OUT/g9.html"
	run grep -c 'L2 · ' "$OUT/g1.html"
	[ "$output" = 0 ]
	grep -q 'L2 · ' "$OUT/g9.html"
	grep -q 'class="evline">event 9 / 9: ' "$OUT/g9.html"
}

@test "--html with -e, and a .lua script on the shell's own tree: a frame an operation, once" {
	run "$IDRSH" --html "$OUT/e.html" -e 't:alloc("a") t:alloc("b")' \
		-c 'alloc c'
	[ "$status" -eq 0 ]
	run grep -o '"c":"[^,]*,' "$OUT/e.html"
	[ "${lines[0]}" = '"c":"-e t:alloc(\"a\") t:alloc(\"b\")\n[operation 1 of 2]",' ]
	[ "${lines[1]}" = '"c":"-e t:alloc(\"a\") t:alloc(\"b\")\n[operation 2 of 2]",' ]
	[ "${lines[2]}" = '"c":"alloc c",' ]
	[ "${#lines[@]}" -eq 3 ]
	printf 't:alloc("x")\nlocal u = require("idr").new {}\nu:alloc("y")\n' \
		> "$OUT/own.lua"
	# -c first: the shell's trees are observed when the script starts.
	run "$IDRSH" --html "$OUT/own.html" -c 'alloc z' "$OUT/own.lua"
	[ "$status" -eq 0 ]
	run grep -o '"c":"[^,]*,' "$OUT/own.html"
	[ "${#lines[@]}" -eq 3 ] || { echo "$output"; return 1; }
}

@test "lesson --html: every paragraph and question, escaped; the answer hidden until clicked" {
	local l="$OUT/esc.lesson" f="$OUT/lesson.html"
	cat > "$l" <<-'EOF2'
	title: <b>Escapes</b> & "quotes"

	A paragraph with <script>alert(1)</script> & more,
	on two lines.

	> alloc "<i>x</i>"

	? Which ID will 'alloc <img alt=x>' return?
	= alloc "<img alt=x>"
	! Because <em>the lowest</em> free ID is 1.

	After the question: <u>the end</u>.
	EOF2
	run "$IDRSH" -c "lesson $l --html $f"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "wrote 3 frames, 1 question, to $f" ]
	# Nothing of the lesson reaches the file as markup.
	run grep -c -e '<script>alert' -e '<img' -e '<i>x' -e '<b>Escapes' \
		-e '<em>' -e '<u>' "$f"
	[ "$output" = 0 ]
	grep -q '<title>&lt;b&gt;Escapes&lt;/b&gt; &amp; &quot;quotes&quot;</title>' "$f"
	grep -qF '<p class="para">A paragraph with &lt;script&gt;alert(1)&lt;/script&gt; &amp; more, on two lines.</p>' "$f"
	# No external reference (the SVG namespace is a name).
	run grep -c -i -e 'https\?:' -e '//' "$f"
	[ "$output" = 1 ]
	run grep -i -e 'src=' -e 'href=' -e '@import' -e 'url([^#]' "$f"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	# In the browser: the question's frame, its text as text, the answer
	# closed; the last frame, the paragraph after it.
	browser --dump-dom "$(url "$f" frame=2)" > "$OUT/q.html"
	grep -qF "<span class=\"qtext\">Which ID will 'alloc &lt;img alt=x&gt;' return?</span>" \
		"$OUT/q.html" || { grep -n qtext "$OUT/q.html"; return 1; }
	grep -qF '<details class="ans"><summary>Show the answer</summary>' "$OUT/q.html"
	grep -qF '<p class="qwhy">Because &lt;em&gt;the lowest&lt;/em&gt; free ID is 1.</p>' "$OUT/q.html"
	browser --dump-dom "$(url "$f" frame=3)" > "$OUT/q3.html"
	grep -qF '<p class="para">After the question: &lt;u&gt;the end&lt;/u&gt;.</p>' "$OUT/q3.html"
	# Hidden until "Show the answer" is clicked, and closed again when
	# the student steps away and back (the page's #selftest).
	browser --dump-dom "$(url "$f" selftest)" > "$OUT/qself.html"
	sed -n '/<pre id="selftest">/,/selftest done/p' "$OUT/qself.html"
	grep -qx 'question: frame 2 | details closed | answer hidden' "$OUT/qself.html"
	grep -qx 'clicked: frame 2 | details open | answer shown: 1' "$OUT/qself.html"
	grep -qx 'back-again: frame 2 | details closed | answer hidden' "$OUT/qself.html"
}

@test "lesson lowest-free --html: every paragraph and question of the file on the page" {
	local f="$OUT/lf.html"
	"$IDRSH" -c "lesson lowest-free --html $f" > /dev/null
	python3 - examples/lessons/lowest-free.lesson "$f" <<-'EOF2'
	import json, re, sys
	src = open(sys.argv[1], encoding="utf-8").read()
	page = open(sys.argv[2], encoding="utf-8").read()
	data = json.loads(re.search(r'<script type="application/json" id="data">\n(.*?)\n</script>',
	                            page, re.S)[1])
	paras, questions, blocks = [], [], re.split(r"\n\s*\n", src)
	for b in blocks:
	    lines = [l for l in b.splitlines() if not l.startswith(("#", "title:"))]
	    text = [l for l in lines if l[:1] not in (">", "?", "=", "!")]
	    if text: paras.append(" ".join(text))
	    q = [l[2:] for l in lines if l.startswith("? ")]
	    if q: questions.append(" ".join(q))
	shown = "\n\n".join(f.get("p", "") for f in data["frames"])
	asked = [f["q"]["t"] for f in data["frames"] if "q" in f]
	for p in paras: assert p in shown, p
	assert asked == questions, (asked, questions)
	assert all(f["q"]["a"] for f in data["frames"] if "q" in f)
	print(len(paras), "paragraphs,", len(asked), "questions")
	EOF2
}

# boxes FILE: each box drawn in a dumped DOM, one a line: its class,
# title and range ("box n hot|L0 · 1/64 used|0..63").
boxes() {
	grep -o '<g class="box [^"]*" data-b="[0-9]*"[^>]*><rect[^>]*></rect><text[^>]*>[^<]*</text><text[^>]*>[^<]*' "$1" |
		sed 's/^<g class="\([^"]*\)".*<text[^>]*>\([^<]*\)<\/text><text[^>]*>\(.*\)$/\1|\2|\3/'
}

@test "a removal: what it frees is drawn as it was, the way down too, and fades at its node-free" {
	# Preloaded: whole nodes, each a box (a lone ID's keyed block has no
	# leaf of its own to free).
	printf 'alloc a\npreload\nalloc far 5000\nalloc deep 300000\npreload_end\nremove 300000\n' \
		> "$OUT/free.idrsh"
	./build/idrsh --html "$OUT/free.html" "$OUT/free.idrsh" > /dev/null
	# Event 5 visits the leaf: the leaf, its L1 and L2, and the old top
	# L3 (the tree shrinks) are there, as they were, on the path.
	browser --dump-dom "$(url "$OUT/free.html" "frame=6&event=5")" > "$OUT/f5.html"
	boxes "$OUT/f5.html" > "$OUT/f6.txt"
	cat "$OUT/f6.txt"
	grep -qx 'box n hot|L3 · 2/64 used|0..16777215' "$OUT/f6.txt"
	grep -qx 'box n hot|L2 · 1/64 used|262144..524287' "$OUT/f6.txt"
	grep -qx 'box n hot|L1 · 1/64 used|299008..303103' "$OUT/f6.txt"
	grep -qx 'box n hot|L0 · 1/64 used|299968..300031' "$OUT/f6.txt"
	# Event 9 frees the leaf: it fades; at event 10 it is gone.
	browser --dump-dom "$(url "$OUT/free.html" "frame=6&event=9")" > "$OUT/f9.html"
	boxes "$OUT/f9.html" | grep -qx 'box g gone hot|L0 · freed|299968..300031'
	browser --dump-dom "$(url "$OUT/free.html" "frame=6&event=10")" > "$OUT/f10.html"
	run grep -c '299968..300031</text>' "$OUT/f10.html"
	[ "$output" = 0 ]
	# After the operation, all it freed shows faded; the top is L2.
	browser --dump-dom "$(url "$OUT/free.html" "frame=6")" > "$OUT/f.html"
	boxes "$OUT/f.html" > "$OUT/f.txt"
	grep -qx 'box g gone hot|L3 · freed|0..16777215' "$OUT/f.txt"
	grep -qx 'box n hot|L2 · 2/64 used|0..262143' "$OUT/f.txt"
	[ "$(grep -c '^box g gone' "$OUT/f.txt")" -eq 4 ]
}

@test "an edge appears at its attach event, when its slot shows as used" {
	# Frame 67 grows the tree: event 3 makes the new top, event 4
	# attaches the old top at its slot 0, event 7 a new L1 at slot 2.
	for e in 3 4 6 7; do
		browser --dump-dom "$(url "$OUT/demo.html" "frame=67&event=$e")" \
			> "$OUT/at$e.html"
		grep -o '<path class="edge' "$OUT/at$e.html" | wc -l > "$OUT/n$e"
	done
	[ "$(cat "$OUT/n4")" -eq $(($(cat "$OUT/n3") + 1)) ]
	[ "$(cat "$OUT/n7")" -eq $(($(cat "$OUT/n6") + 1)) ]
	# At event 3 the new top's slot 0 is free, at event 4 a child.  The
	# top 8300's growth made is packed (a lone ID's levels).
	grep -q '<g class="box n hot packed new" data-b="1"[^>]*><rect[^>]*></rect><text[^>]*>L2 · 0/64 used' "$OUT/at3.html"
	grep -q '<g class="box n hot packed" data-b="1"[^>]*><rect[^>]*></rect><text[^>]*>L2 · 1/64 used' "$OUT/at4.html"
}

@test "box text fits its box: IDs near 2^31 squeezed, not cut" {
	./build/idrsh --html "$OUT/sparse.html" -c 'alloc a 1073741824' \
		-c 'alloc b 2147483000' -c 'alloc c 2147483647' > /dev/null
	browser --dump-dom "$(url "$OUT/sparse.html" frame=3)" > "$OUT/sp.html"
	# Every text longer than 16 characters is fitted to the box's width.
	grep -o '<text[^>]*>[^<]\{17,\}</text>' "$OUT/sp.html" > "$OUT/long.txt"
	[ -s "$OUT/long.txt" ]
	run grep -v 'textLength="103" lengthAdjust="spacingAndGlyphs"' "$OUT/long.txt"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	grep -q '>2130706432..2147483647</text>' "$OUT/long.txt"
	# The first frame, drawn in Lua for a page without JavaScript, too.
	grep -o '<text[^>]*>[^<]\{17,\}</text>' "$OUT/sparse.html" |
		grep -v -q 'textLength' && return 1
	true
}

@test "with JavaScript off the controls are hidden; the hint to step is the script's" {
	grep -q '\[hidden\] { display: none !important; }' "$OUT/demo.html"
	grep -q '<div class="controls" id="controls" hidden>' "$OUT/nojs.html" ||
		sed "s/script-src [^;]*/script-src 'none'/" "$OUT/demo.html" > "$OUT/nojs.html"
	browser --dump-dom "$(url "$OUT/nojs.html")" > "$OUT/nojs-dom.html"
	grep -q '<div class="controls" id="controls" hidden="">' "$OUT/nojs-dom.html"
	grep -q '<p class="evline">6 events.</p>' "$OUT/nojs-dom.html"
	browser --dump-dom "$(url "$OUT/demo.html" frame=1)" > "$OUT/js-dom.html"
	grep -q '<p class="evline">6 events: tick “step each event” to play them one by one.</p>' \
		"$OUT/js-dom.html"
}

@test "stepping events: the output shows at the done event" {
	browser --dump-dom "$(url "$OUT/demo.html" "frame=67&event=3")" > "$OUT/o3.html"
	grep -q '<pre class="out">(not yet: the operation is still running)</pre>' "$OUT/o3.html"
	browser --dump-dom "$(url "$OUT/demo.html" "frame=67&event=12")" > "$OUT/o12.html"
	grep -q '<pre class="out">8300' "$OUT/o12.html"
}

@test "an IDA's bitmaps: a bar each, its count of IDs set at each event" {
	./build/idrsh --html "$OUT/ida.html" -c 'new i --ida' \
		-c 'ida_alloc 100000 200000' -c 'ida_alloc 100000 200000' \
		-c 'ida_free 100000' > /dev/null
	browser --dump-dom "$(url "$OUT/ida.html" "frame=3&event=2&selftest")" > "$OUT/i2.html"
	browser --dump-dom "$(url "$OUT/ida.html" "frame=3&selftest")" > "$OUT/i3.html"
	grep -qF 'hover-at: L0 slot 24: a bitmap with room | IDs 98304..102399 | bitmap: 1 of 4096 bits set (1 ID in use)' "$OUT/i2.html"
	grep -qF 'hover-at: L0 slot 24: a bitmap with room | IDs 98304..102399 | bitmap: 2 of 4096 bits set (2 IDs in use)' "$OUT/i3.html"
	grep -q '<rect class="bits"' "$OUT/i3.html"
	grep -q "<span>an IDA leaf's slot: a bitmap, its bar the share of its IDs set</span>" "$OUT/ida.html"
	# The kernel's steps: the XArray's, the bitmap kzalloc()ed.
	grep -q 'ida_alloc_range(): kzalloc() of a struct ida_bitmap' "$OUT/ida.html"
	run grep -c 'free_layer\|radix_tree_node_alloc' "$OUT/ida.html"
	[ "$output" = 0 ]
}

@test "a tagged tree: hover tells the tagged ID and its generation" {
	./build/idrsh --html "$OUT/tag.html" -c 'new c --tagged 8' \
		-c 'alloc_tagged a' -c 'remove_tagged 0' -c 'alloc_tagged b' > /dev/null
	browser --dump-dom "$(url "$OUT/tag.html" "frame=5&selftest")" > "$OUT/t5.html"
	grep -qF 'hover-at: L0 slot 0: in use | ID 0 | value b | tagged ID 256 = generation 1 &lt;&lt; 8 | ID 0' "$OUT/t5.html"
	# remove_tagged's done event: the entry returned, not "returns 0".
	grep -q 'remove_tagged is over: tagged ID 0 removed: it returns the entry it held' "$OUT/tag.html"
}

@test "--html records every command, whatever record on and off say" {
	run "$IDRSH" --html "$OUT/h.html" -c 'alloc first' -c 'record on' \
		-c 'alloc a' -c 'record off' -c 'alloc b'
	assert_success
	assert_line "--html records every command: recording goes on"
	for c in 'alloc first' 'alloc a' 'alloc b'; do
		grep -q "\"c\":\"$c\"" "$OUT/h.html"
	done
	# The page's title is the script's base name, not its path.
	run "$IDRSH" --html "$OUT/t.html" "$TOP/tests/replay/demo.idrsh"
	grep -q '<h1>demo.idrsh</h1>' "$OUT/t.html"
	run grep -c "$TOP" "$OUT/t.html"
	[ "$output" = 0 ]
}

@test "a second record on keeps the frames so far; one frame is 'frame'" {
	run "$IDRSH" -c 'record on' -c 'alloc a' -c 'record on' -c 'alloc b' \
		-c "record save $OUT/two.html"
	assert_success
	assert_line "recording goes on: the 1 frame so far kept"
	assert_line "wrote 2 frames to $OUT/two.html"
	run "$IDRSH" -c 'record on' -c 'alloc a' -c "record save $OUT/one.html"
	assert_line "wrote 1 frame to $OUT/one.html"
}

@test "--html refuses a file name that looks like an option" {
	cd "$OUT"
	run "$TOP/build/idrsh" --html -c 'alloc a'
	[ "$status" -eq 2 ]
	assert_output --partial "--html: refused: say ./FILE for a file named -c"
	[ ! -e ./-c ]
}
