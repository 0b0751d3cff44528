#!/usr/bin/env bats
# dump at a terminal: held to the screen's height, and long output (--full)
# through $PAGER, on a real pty (script(1)) of 20 rows; never in scripts
# or pipes.  The pager is a fake that records that it ran and what it got.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	export INPUTRC="$BATS_TEST_DIRNAME/inputrc" TERM=xterm
	unset LINES
	PAGED="$BATS_TEST_TMPDIR/paged"
	cat > "$BATS_TEST_TMPDIR/pager" <<-EOF
		#!/bin/sh
		echo "pager ran with: \$*" > "$PAGED"
		cat >> "$PAGED"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/pager"
	export PAGER="$BATS_TEST_TMPDIR/pager"
	# 300 leaves of 1/64, 2 and 3 in turn: nothing collapses.
	FILL='lua for i = 0, 299 do for j = 0, (i & 1) + 1 do t:alloc(i, i * 64 + j) end end'
}

# Runs "$@" (a shell command line) on a pty of 20 rows, feeding it the
# keys in $KEYS (printf formats, a pause between each); CRs dropped.
pty() {
	run bash -c '
		cmd=$1; shift
		for keys in "$@"; do sleep 0.2; printf "$keys"; done |
			script -qec "stty rows 20 cols 80; $cmd" /dev/null |
			tr -d "\r"
		exit "${PIPESTATUS[1]}"' pty "$1" "${KEYS[@]}"
}

@test "pty: dump --full longer than the screen goes through \$PAGER" {
	KEYS=("$FILL\n" 'dump --full\n' '\004')
	pty "exec $IDRSH"
	assert_success
	[ -s "$PAGED" ] || { echo "the pager did not run"; return 1; }
	run grep -c '^    L0 ' "$PAGED"
	assert_output 300
	run head -n 2 "$PAGED"
	assert_line --index 1 "idr: 750 IDs, height 3, 306 nodes"
}

@test "pty: dump --depth N longer than the screen goes through \$PAGER, whole" {
	KEYS=("$FILL\n" 'dump --depth 3\n' '\004')
	pty "exec $IDRSH"
	assert_success
	[ -s "$PAGED" ] || { echo "the pager did not run"; return 1; }
	run grep -c '^    L0 ' "$PAGED"
	assert_output 300
	run grep -c 'levels shown' "$PAGED"
	assert_output 0
}

@test "pty: without PAGER, less -R" {
	mkdir "$BATS_TEST_TMPDIR/bin"
	cp "$BATS_TEST_TMPDIR/pager" "$BATS_TEST_TMPDIR/bin/less"
	unset PAGER
	KEYS=("$FILL\n" 'dump --full\n' '\004')
	pty "PATH=$BATS_TEST_TMPDIR/bin:\$PATH exec $IDRSH"
	assert_success
	run head -n 1 "$PAGED"
	assert_output "pager ran with: -R"
}

@test "pty: a pager that cannot run: the dump is printed whole, then the error" {
	export PAGER="$BATS_TEST_TMPDIR/no-such-pager -R"
	KEYS=("$FILL\n" 'dump --full\n' '\004')
	pty "exec $IDRSH"
	assert_success
	assert_output --partial "dump: cannot run the pager '$PAGER' (set PAGER)"
	run grep -c '^    L0 ' <<<"$output"
	assert_output 300
}

@test "pty: the default dump fits the screen, says how to see more, is not paged" {
	KEYS=("$FILL\n" 'dump\n' '\004')
	pty "exec $IDRSH"
	assert_success
	[ ! -e "$PAGED" ] || { echo "paged:"; cat "$PAGED"; return 1; }
	# From the header to the last line of the dump: a screen less a line.
	first=$(printf '%s\n' "$output" | grep -n '^idr: 750 IDs' | cut -d: -f1)
	last=$(printf '%s\n' "$output" | grep -n 'levels shown; more: --full' |
		cut -d: -f1)
	[ -n "$first" ] && [ -n "$last" ]
	echo "dump lines: $((last - first + 1))"
	[ $((last - first + 1)) -le 19 ]
}

@test "pty: a short dump --full is printed, not paged" {
	KEYS=('alloc a\n' 'dump --full\n' '\004')
	pty "exec $IDRSH"
	assert_success
	assert_line "  0:a"
	[ ! -e "$PAGED" ]
}

# Fails if the pager ran for case $1; else the dump is in the output.
not_paged() {
	[ ! -e "$PAGED" ] || { echo "paged in $1:"; head -3 "$PAGED"; return 1; }
	assert_success
	assert_line "idr: 750 IDs, height 3, 306 nodes"
}

@test "pty: never paged in a script, a sourced file, -c, or a pipe" {
	printf '%s\ndump --full\n' "$FILL" > "$BATS_TEST_TMPDIR/s.idrsh"
	KEYS=()
	pty "exec $IDRSH $BATS_TEST_TMPDIR/s.idrsh"
	not_paged "a script"
	KEYS=("source $BATS_TEST_TMPDIR/s.idrsh\n" '\004')
	pty "exec $IDRSH"
	not_paged "a sourced file"
	KEYS=()
	pty "exec $IDRSH -c '$FILL' -c 'dump --full'"
	not_paged "-c"
	# Typed at the terminal, but the output goes to a pipe.
	KEYS=("$FILL\n" 'dump --full\n' '\004')
	pty "$IDRSH | cat"
	not_paged "a pipe"
}

@test "off a terminal, the default dump of 10^7 IDs is 50 lines or less" {
	run bash -c "$IDRSH -c 'lua for i = 1, 10000000 do t:alloc(true) end' -c dump | cat"
	assert_success
	echo "$output"
	[ "${#lines[@]}" -le 50 ]
	assert_line "idr: 10000000 IDs, height 4, 158732 nodes"
}

@test "off a terminal, 10^7 IDs with a hole every 4096 dump in 50 lines, saying how to see more" {
	run bash -c "$IDRSH -c 'lua for i = 1, 10000000 do t:alloc(true) end for i = 0, 9999999, 4096 do t:remove(i) end' -c dump | cat"
	assert_success
	echo "$output"
	[ "${#lines[@]}" -le 50 ]
	assert_line --index 0 "idr: 9997558 IDs, height 4, 158732 nodes"
	assert_line --index -1 --regexp '^\([0-9] of 4 levels shown; more: --full, --depth N, --at ID, --range A B\)$'
}

@test "pty: a pager that quits before the end ends the output, not idrsh" {
	# 5000 IDs in 2000 leaves: a dump --full of 260 KB, more than a
	# pipe holds, so the writes go on after the pager has gone.
	cat > "$BATS_TEST_TMPDIR/quitter" <<-EOF
		#!/bin/sh
		head -c 10 > "$PAGED"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/quitter"
	export PAGER="$BATS_TEST_TMPDIR/quitter"
	big='lua for i = 0, 1999 do for j = 0, (i & 1) + 1 do t:alloc(i, i * 64 + j) end end'
	KEYS=("$big\n" 'dump --full\n' 'count\n' '\004')
	pty "exec $IDRSH"
	assert_success
	[ "$(wc -c < "$PAGED")" -eq 10 ]
	assert_line "idr> count"
	assert_line "5000"
}
