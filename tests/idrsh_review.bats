#!/usr/bin/env bats
# Defects an outside review of the shell found, each held to its fix:
# Ctrl-C keeps alloc_many and import all or none.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

# Runs idrsh on the lines given, each allocation in the current tree
# slowed down by its trace callback, so that the command the 100th is
# part of is still under way when SIGINT comes, once that allocation has
# said "going" on stderr.  A watchdog kills idrsh after 60 s (exit 137):
# a lost signal fails the test.
interrupt_slowly() {
	local slow='if e.event == "op" and e.op:find("^alloc") then n = (n or 0) + 1; if n == 100 then io.stderr:write("going\n") end; for _ = 1, 20000 do end end'
	printf '%s\n' "lua local _ = t:trace(function(e) $slow end)" "$@" >"$BATS_TEST_TMPDIR/in"
	run --separate-stderr bash -c '
		: > "$3"
		"$1" < "$2" 2> "$3" & pid=$!
		(sleep 60; kill -KILL $pid) >/dev/null 2>&1 </dev/null 3>&- & dog=$!
		for i in $(seq 300); do grep -qs going "$3" && break; sleep 0.1; done
		sleep 0.2
		kill -INT $pid
		wait $pid; status=$?; kill $dog 2>/dev/null
		cat "$3" >&2; exit $status' \
		sh "$IDRSH" "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/err"
}

@test "Ctrl-C stops alloc_many and gives its IDs back, as a failure does" {
	interrupt_slowly 'alloc keep' 'alloc_many 1000000' 'lua local _ = t:trace(nil)' count 'find 1'
	assert_failure 1
	assert_output "0
1"
	assert_regex "$stderr" "<stdin>:3: interrupted!"
	assert_regex "$stderr" "find: no id 1 \(ENOENT\)"
}

@test "Ctrl-C stops import and gives its IDs back" {
	seq 1 1000000 >"$BATS_TEST_TMPDIR/ids"
	interrupt_slowly 'alloc keep' "import $BATS_TEST_TMPDIR/ids" 'lua local _ = t:trace(nil)' count 'find 1'
	assert_failure 1
	assert_output "0
1"
	assert_regex "$stderr" "<stdin>:3: interrupted!"
}

@test "trace, explain and step show nothing of list's walk: no steps outside an op" {
	run -0 "$IDRSH" -c 'alloc_many 3' -c 'trace on' -c list -c 'find 1'
	assert_output "3 IDs: 0..2
0 v
1 v
2 v
trace: op find id=1
trace: visit level=0 first=0 last=63 slot=1
trace: done find result=1
v"
	run -0 "$IDRSH" --json -c 'alloc_many 2' -c 'trace on' -c list
	assert_output '[0,1]
[{"id":0,"value":"v"},{"id":1,"value":"v"}]'
	run -0 "$IDRSH" -c 'alloc_many 2' -c 'explain list'
	assert_output "2 IDs: 0..1
0 v
1 v
(list ran no traced operation: nothing to tell)"
	# The user's own trace function is back after the walk.
	run -0 "$IDRSH" -c 'alloc_many 2' -c 'lua n = 0; t:trace(function() n = n + 1 end)' \
		-c list -c '= n' -c 'find 0' -c '= n > 0'
	assert_output "2 IDs: 0..1
0 v
1 v
0
v
true"
}

@test "exit status: --help, shell.md and idrsh(1) say that lines typed at the prompt do not count" {
	run -0 "$IDRSH" --help
	assert_line "Exit status: 0 if every command of a script, -c, -e or piped input succeeded,"
	assert_line "1 if one failed (lines typed at the prompt do not count), 2 for a usage error."
	grep -qF "$(sed -n 's/^\(1 if one failed.*\)$/\1/p' <<<"$output")" doc/shell.md
	man_text=$(man -l man/idrsh.1 2>/dev/null | sed -n '/^EXIT STATUS/,/^EXAMPLES/p' | tr -s ' \n' '  ')
	[[ "$man_text" == *"Lines typed at the prompt do not count"* ]]
	# And so it is: piped input counts, the same line typed does not,
	# -c does even when the prompt follows.
	run bash -c 'printf "find 7\n" | "$1" -q' sh "$IDRSH"
	assert_failure 1
	run bash -c 'printf "find 7\n" | "$1" -q --interactive' sh "$IDRSH"
	assert_success
	run bash -c 'printf "count\n" | "$1" -q --interactive -c "find 7" -i' sh "$IDRSH"
	assert_failure 1
}

@test "a tree with a base: a failed allocation names the base as where the search started" {
	run --separate-stderr "$IDRSH" -c 'new u --tagged 4 --base 15' -c 'alloc_tagged a' \
		-c 'alloc_tagged b' -c 'alloc_many 2' -c 'alloc_tagged c 0 14'
	assert_output 15
	assert_equal "$stderr" "idrsh: -c:3: alloc_tagged: no free id at or above 15 (ENOSPC)
idrsh: -c:4: alloc_many: no free id at or above 15 (ENOSPC)
idrsh: -c:5: alloc_tagged: no free id in [15, 14): the range is empty (ENOSPC)"
	run --separate-stderr "$IDRSH" -c 'new b --base 15' -c 'alloc a 3 14' \
		-c 'alloc_u32 x 0 3' -c 'alloc x 20 21' -c 'alloc y 20 21'
	assert_output 20
	assert_equal "$stderr" "idrsh: -c:2: alloc: no free id in [15, 14): the range is empty (ENOSPC)
idrsh: -c:3: alloc_u32: no free id in [15, 3] (ENOSPC)
idrsh: -c:5: alloc: no free id in [20, 21) (ENOSPC)"
}

@test "destroy empties the tree as idr_destroy() does: stale tags stay stale, the cursor and the handles stay" {
	run ./build/idrsh -q -c 'new h --tagged 8' -c 'alloc_tagged a' \
		-c 'remove_tagged 0' -c 'alloc_tagged b' -c destroy \
		-c 'alloc_tagged c' -c 'check 0' -c count
	assert_success
	assert_line "512"
	assert_line --partial "stale: id 0 gen 0"
	refute_line --partial "live"
	run ./build/idrsh -q -c 'alloc_cyclic a' -c 'alloc_cyclic b' \
		-c 'alloc a' -e 'old = t' -c destroy -c cursor \
		-c 'alloc_cyclic c' -c '= old:count()'
	assert_success
	assert_equal "${lines[3]}" "2"
	assert_equal "${lines[4]}" "2"
	assert_equal "${lines[5]}" "1"
}
