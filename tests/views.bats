# Graphviz renders every picture of tests/lua/dot_cases.lua (written by
# tests/lua/dot_files.lua), as SVG and PNG, with nothing at all on stderr:
# no error, no warning.

setup_file() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	export DOTS="$BATS_FILE_TMPDIR/dot"
	mkdir -p "$DOTS"
	LUA_CPATH_5_4='build/?.so;;' lua5.4 tests/lua/dot_files.lua "$DOTS"
}

setup() {
	load test_helper
}

render() {
	local fmt=$1 f
	for f in "$DOTS"/*.dot; do
		dot -T"$fmt" "$f" -o "$BATS_TEST_TMPDIR/out.$fmt" \
			2> "$BATS_TEST_TMPDIR/err" || { echo "$f: failed"; return 1; }
		if [ -s "$BATS_TEST_TMPDIR/err" ]; then
			echo "$f:"; cat "$BATS_TEST_TMPDIR/err"; return 1
		fi
		[ -s "$BATS_TEST_TMPDIR/out.$fmt" ] || return 1
	done
}

@test "dot_files.lua wrote a DOT file for every scenario" {
	for name in empty one full-leaf three-levels sparse tagged ida large; do
		[ -s "$DOTS/$name.dot" ] || { echo "missing $name.dot"; return 1; }
	done
}

@test "dot -Tsvg renders each without a warning" {
	run render svg
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "dot -Tpng renders each without a warning" {
	run render png
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "a million IDs in a row render to at most 4000 pixels a side" {
	[ -s "$DOTS/million.dot" ] || { echo "missing million.dot"; return 1; }
	dot -Tpng "$DOTS/million.dot" -o "$BATS_TEST_TMPDIR/m.png"
	run file "$BATS_TEST_TMPDIR/m.png"
	[[ "$output" =~ ([0-9]+)\ x\ ([0-9]+) ]] || { echo "$output"; return 1; }
	echo "$output"
	[ "${BASH_REMATCH[1]}" -le 4000 ] && [ "${BASH_REMATCH[2]}" -le 4000 ]
}

# Sparse IDs over 31 bits, the way to one, a million with the way to one
# inside a collapsed run: every picture fits 4000 pixels a side.
@test "every picture renders to at most 4000 pixels a side" {
	local f
	for name in million-at sparse-31 large small; do
		[ -s "$DOTS/$name.dot" ] || { echo "missing $name.dot"; return 1; }
	done
	for f in "$DOTS"/*.dot; do
		dot -Tpng "$f" -o "$BATS_TEST_TMPDIR/p.png"
		run file "$BATS_TEST_TMPDIR/p.png"
		[[ "$output" =~ ([0-9]+)\ x\ ([0-9]+) ]] || { echo "$output"; return 1; }
		echo "$f: ${BASH_REMATCH[1]} x ${BASH_REMATCH[2]}"
		[ "${BASH_REMATCH[1]}" -le 4000 ] && [ "${BASH_REMATCH[2]}" -le 4000 ] ||
			return 1
	done
}
