# idrsh's dot: the cells the last command changed, the way to an ID, its
# arguments, and a million IDs rendered by Graphviz into a picture no
# larger than 4000 pixels a side.

setup() {
	load test_helper
	idrsh_setup
}

idrsh_lines() {
	run --separate-stderr "$IDRSH" < <(printf '%s\n' "$@")
}

CHANGED='◆</FONT></TD>'
PATH_NODE='BORDER="3" COLOR="#0072b2"'

# How many times $1 occurs in $output.
occurrences() {
	grep -o -- "$1" <<< "$output" | wc -l
}

# A PNG's width and height, from its header (big-endian at bytes 16..23).
png_size() {
	od -An -tu1 -j16 -N8 "$1" |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
			$5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# An SVG's width and height in pixels (Graphviz writes points: 3 make 4).
svg_size() {
	sed -n 's/^<svg width="\([0-9.]*\)pt" height="\([0-9.]*\)pt".*/\1 \2/p' "$1" |
		awk '{ printf "%d %d\n", $1 * 4 / 3 + 0.5, $2 * 4 / 3 + 0.5 }'
}

@test "dot marks the cells the last command changed" {
	idrsh_lines dot "alloc a" "alloc b 64" dot
	assert_success
	# Growing: the new top's slots 0 and 1, and the new leaf's slot 0.
	[ "$(occurrences "$CHANGED")" -eq 3 ]
	assert_output --partial "a cell the last operation changed"
	# Shrinking frees the nodes that changed: the picture says so.
	idrsh_lines dot "alloc a" "alloc b 64" "remove 64" dot
	[ "$(occurrences "$CHANGED")" -eq 0 ]
	assert_output --partial "The cells the last operation changed are gone"
}

@test "dot: a command that changes nothing keeps the last marks; a lookup clears them" {
	idrsh_lines dot "alloc a" dump count dot
	[ "$(occurrences "$CHANGED")" -eq 1 ]
	idrsh_lines dot "alloc a" "find 0" dot
	[ "$(occurrences "$CHANGED")" -eq 0 ]
	idrsh_lines dot "alloc a" "remove 0" "alloc b 5" dot
	[ "$(occurrences "$CHANGED")" -eq 1 ]
}

@test "dot: marks are the current tree's last operation's, a lua chunk's too" {
	idrsh_lines dot "alloc a" "new u" "alloc b 70" "use default" dot
	[ "$(occurrences "$CHANGED")" -eq 1 ]
	assert_output --partial "0:a"
	# the last of the chunk's three allocations: slot 2 alone
	idrsh_lines dot "lua for i = 1, 3 do t:alloc(i) end" dot
	[ "$(occurrences "$CHANGED")" -eq 1 ]
	assert_output --partial 'PORT="s2"'
	# a find changes no cell
	idrsh_lines dot "alloc a" "find 0" dot
	[ "$(occurrences "$CHANGED")" -eq 0 ]
}

@test "dot's kept events leave trace on, and a trace set by the command, alone" {
	idrsh_lines dot "trace on" "alloc a" dot "alloc b" "trace off" "alloc c" dot
	assert_success
	assert_line "trace: slot-set level=0 first=0 last=63 slot=1"
	[ "$(grep -c '^trace: ' <<< "$output")" -eq 11 ]	# op, done and 4 or 3 between
	[ "$(occurrences "$CHANGED")" -eq 2 ]
}

@test "no tree keeps events until the session's first dot; then each does" {
	# What the library's traced path costs is paid only once dot reads
	# the events: before, the last operation's are none, and no trace
	# function is set on the tree.
	idrsh_lines "alloc a" "lua print('kept', #t:last_events(), t:trace(nil))" \
		"new u" "alloc b" "lua print('kept', #t:last_events())"
	assert_success
	assert_line "kept	0	nil"
	assert_line "kept	0"
	idrsh_lines "alloc a" dot "alloc b" "lua print('kept', #t:last_events())" \
		"new u" "alloc c" "lua print('kept', #t:last_events())"
	assert_success
	assert_line "kept	5"	# op visit slot-set full done
	assert_line "kept	6"	# op malloc node-new slot-set full done
	[ "$(occurrences "$CHANGED")" -eq 0 ]	# the first dot: nothing kept yet
}

@test "dot --at ID draws the way down in blue" {
	idrsh_lines "alloc a" "alloc b 64" "dot --at 64"
	assert_success
	[ "$(occurrences "$PATH_NODE")" -eq 2 ]
	assert_output --partial "the way down to ID 64."
	idrsh_lines "alloc a" "dot --at 0 $BATS_TEST_TMPDIR/t.dot"
	assert_success
	grep -q -- "$PATH_NODE" "$BATS_TEST_TMPDIR/t.dot"
}

@test "dot with bad --at arguments fails, and says why" {
	idrsh_lines "dot --at" "dot --at x" "dot --at -1" "dot --at 4294967296" \
		"dot --at 1 --at 2" "dot --at 4294967295" "dot --png"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]
idrsh: <stdin>:2: dot: bad ID 'x': not a number
idrsh: <stdin>:3: dot: bad ID '-1': out of range 0 .. 4294967295
idrsh: <stdin>:4: dot: bad ID '4294967296': out of range 0 .. 4294967295
idrsh: <stdin>:5: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]
idrsh: <stdin>:7: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]"
}

@test "dot of a million IDs renders into at most 4000 pixels a side" {
	command -v dot || skip "Graphviz is not installed"
	local png="$BATS_TEST_TMPDIR/m.png" svg="$BATS_TEST_TMPDIR/m.svg"
	idrsh_lines "lua for i = 1, 1000000 do t:alloc(true) end" count \
		dot "remove 500000" "dot --at 999999 --png $png" "dot --svg $svg"
	assert_success
	assert_line 1000000
	read -r w h < <(png_size "$png")
	echo "png: $w x $h"
	[ "$w" -gt 100 ] && [ "$w" -le 4000 ] && [ "$h" -gt 100 ] &&
		[ "$h" -le 4000 ] || return 1
	read -r w h < <(svg_size "$svg")
	echo "svg: $w x $h"
	[ "$w" -gt 100 ] && [ "$w" -le 4000 ] && [ "$h" -gt 100 ] &&
		[ "$h" -le 4000 ] || return 1
	# The collapse is said in the picture.
	grep -q "alike siblings, collapsed" "$svg"
	grep -q "a cell the last operation changed" "$svg"
}

@test "make bench's dot figures: t:dot{} and Graphviz at N=2000, each checked" {
	command -v dot || skip "Graphviz is not installed"
	LUA_CPATH_5_4='build/?.so;;' run lua5.4 bench/dot.lua 2000 1 \
		"$BATS_TEST_TMPDIR/dot.tsv"
	assert_success
	assert_line --partial "dot: N = 2000 in a row, medians of 1 runs"
	assert_line --regexp '^t:dot\{at, changed\} +[0-9.]+ ms  \([0-9]+ bytes of DOT\)$'
	assert_line --regexp '^dot -Tpng +[0-9.]+ ms  \([0-9]+ x [0-9]+ pixels\)$'
	run cut -f1,2 "$BATS_TEST_TMPDIR/dot.tsv"
	assert_output "view	n
dot-text	2000
dot-png	2000"
}
