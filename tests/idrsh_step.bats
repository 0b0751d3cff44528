#!/usr/bin/env bats
# step, mark and diff in the shell: at a real pty (script(1)) step waits
# for a line after each event; in pipes, scripts and --batch it never
# does.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	export INPUTRC="$BATS_TEST_DIRNAME/inputrc" TERM=xterm
}

# Feeds the keys in $@ (printf formats, a pause between each) to idrsh
# on a pty; the transcript, with CRs dropped, is the output.
pty() {
	run timeout 20 bash -c '
		idrsh=$1; shift
		for keys in "$@"; do
			# Ctrl-C flushes what idrsh has not read yet: a slow start
			# (a busy machine) must not lose the keys before it.
			sleep 0.3; [ "$keys" = "\\003" ] && sleep 0.8
			printf "$keys"
		done |
			script -qec "exec $idrsh" /dev/null | tr -d "\r"
		exit "${PIPESTATUS[1]}"' pty "$IDRSH" "$@"
}

PROMPT='-- Enter: next step, c: continue, q: stop stepping -- '

# How many lines of the last output hold the fixed string $1.
count_of() {
	printf '%s\n' "$output" | grep -cF -- "$1"
}

@test "pty: step waits after each event; Enter shows the next" {
	# alloc into an empty tree: op, malloc, node-new, slot-set, full, done.
	pty 'step on\n' 'alloc a\n' '\n' '\n' 'q\n' 'count\n' '\004'
	assert_success
	assert_line "step 1, op: alloc begins (start 0, end 0)"
	assert_line "step 2, malloc: 1 node allocated for this operation"
	assert_line "step 3, node-new: a new leaf L0 0..63 joins the tree"
	# q after step 3: step 4 never drawn, and the alloc done.
	refute_output --partial "step 4,"
	[ "$(count_of "$PROMPT")" -eq 3 ]
	assert_line "0"
	assert_line "idr> count"
	assert_line "1"
}

@test "pty: 'c' draws the rest of the operation without waiting" {
	pty 'step on\n' 'alloc a\n' 'c\n' 'alloc b\n' '\n' 'q\n' 'count\n' \
		'\004'
	assert_success
	assert_line "step 5, full: leaf slot 0's full bit is set: the slot is used"
	# One wait for the first alloc, two for the second: 'c' lasts one
	# operation only.
	[ "$(count_of "$PROMPT")" -eq 3 ]
	assert_line "step 2, visit: the way down goes through L0 0..63 and takes its slot 1 (ID 1)"
	refute_output --partial "step 3, slot-set: leaf slot 1"
	assert_line "2"
}

@test "pty: 'q' stops stepping this operation only" {
	pty 'step on\n' 'alloc a\n' 'q\n' 'alloc b\n' 'c\n' '\004'
	assert_success
	refute_output --partial "node-new"
	assert_line "step 4, full: leaf slot 1's full bit is set: the slot is used"
	assert_line "0"
	assert_line "1"
}

@test "pty: a line that is not a step key says so and waits again" {
	pty 'step on\n' 'alloc a\n' 'count\n' 'c\n' '\004'
	assert_success
	assert_line --partial "(not a step key: the operation is still going on; type the line again once it ends)"
	[ "$(count_of "$PROMPT")" -eq 2 ]
	assert_line "0"
}

@test "pty: the step drawing marks the changed cell" {
	pty 'step on\n' 'alloc a 5\n' 'c\n' '\004'
	assert_success
	assert_line "  .....#.........................................................."
	assert_line "       ^ slot 5 (ID 5)"
}

@test "pty: Ctrl-C at the step prompt stops stepping; the command ends and prints its ID" {
	pty 'step on\n' 'alloc a\n' '\003' 'count\n' '\004'
	assert_success
	assert_line "(stepping stops here: the command goes on to its end)"
	refute_output --partial "interrupted!"
	refute_output --partial "step 2,"
	assert_line "0"
	assert_line "1"
	# All of a command's operations run, stepped no more.
	pty 'step on\n' 'alloc_many 3\n' '\003' 'count\n' '\004'
	assert_success
	[ "$(count_of "$PROMPT")" -eq 1 ]
	assert_line "3 IDs: 0..2"
	assert_line "3"
}

@test "pty: 'q' ends stepping for the whole command" {
	pty 'step on\n' 'alloc_many 5\n' 'q\n' 'count\n' 'alloc b\n' 'c\n' \
		'\004'
	assert_success
	# One question for the five allocations, then one for the next command.
	[ "$(count_of "$PROMPT")" -eq 2 ]
	assert_line "5 IDs: 0..4"
	assert_line "5"
	assert_line "step 4, full: leaf slot 5's full bit is set: the slot is used"
}

@test "pty: no wait after an operation's last step" {
	# alloc into an empty tree: 6 events, so 5 waits, and the next line
	# is a command again.
	pty 'step on\n' 'alloc a\n' '\n' '\n' '\n' '\n' '\n' 'count\n' '\004'
	assert_success
	[ "$(count_of "$PROMPT")" -eq 5 ]
	assert_line "step 6, done: alloc is over: it returns 0"
	refute_output --partial "not a step key"
	assert_line "1"
}

@test "step's rows use the dump's symbols, and agree with the text" {
	run "$IDRSH" -c 'alloc a' -c 'step on' -c 'alloc b 5' -c 'alloc c 64' \
		-c 'new i --ida' -c 'ida_alloc'
	assert_success
	# slot-set: the row already shows the entry it tells.
	assert_line "step 3, slot-set: leaf slot 5 (ID 5) now holds an entry"
	run grep -A2 '^step 3, slot-set: leaf slot 5' <<<"$output"
	assert_line "  #....#.........................................................."
	# Growing: the new top is empty, then holds the old top ('+': room).
	run "$IDRSH" -c 'alloc a' -c 'step on' -c 'alloc c 64'
	run grep -A2 -E '^step [0-9]+, (node-new: a new node L1|attach|grow)' \
		<<<"$output"
	assert_line "  L1 0..4095  (# full, + room below, - empty)"
	assert_line "  ----------------------------------------------------------------"
	assert_line "  +---------------------------------------------------------------"
	assert_line "  ++--------------------------------------------------------------"
	# An IDA's leaf holds bitmaps: '+' one with room, '-' none.
	run "$IDRSH" -c 'new i --ida' -c 'step on' -c 'ida_alloc'
	run grep -A2 '^step 4, slot-set' <<<"$output"
	assert_line "  +---------------------------------------------------------------"
}

@test "pty: step off: no drawing, no wait" {
	pty 'step on\n' 'step off\n' 'alloc a\n' 'count\n' '\004'
	assert_success
	refute_output --partial "step 1,"
	assert_line "1"
}

@test "pty: --batch at a terminal never waits" {
	run timeout 20 bash -c "printf 'step on\nalloc a\ncount\n' |
		script -qec '$IDRSH --batch' /dev/null | tr -d '\r'"
	assert_success
	refute_output --partial "$PROMPT"
	assert_line --partial "step 5, full:"
	assert_line "1"
}

@test "pty: a script run at a terminal never waits" {
	printf 'step on\nalloc a\nalloc b\ncount\n' > "$BATS_TEST_TMPDIR/s.idrsh"
	run timeout 20 script -qec "$IDRSH $BATS_TEST_TMPDIR/s.idrsh" /dev/null
	assert_success
	refute_output --partial "$PROMPT"
	assert_line --partial "step 4, full: leaf slot 1's"
	assert_line --partial "2"
}

@test "pipe: step never waits; the next line is a command, not a key" {
	run timeout 20 "$IDRSH" <<'EOF2'
step on
alloc a
count
c
EOF2
	assert_failure	# 'c' is no command
	refute_output --partial "$PROMPT"
	assert_line "step 5, full: leaf slot 0's full bit is set: the slot is used"
	assert_line "1"
}

@test "pipe, --interactive: each step key is one line; the lines after it stay commands" {
	# Readline reads the commands a byte at a time: a key read through
	# stdio's buffer took every line after it (alloc b, count) with it.
	run timeout 20 "$IDRSH" --interactive -q <<'EOF2'
step on
alloc a
c
step off
alloc b
count
EOF2
	assert_success
	[ "$(count_of "$PROMPT")" -eq 1 ]
	assert_line --partial "step 6, done: alloc is over: it returns 0"
	assert_line "idr> alloc b"
	assert_line "idr> count"
	assert_line "2"
}

@test "step on an IDA draws its leaf and names its bitmaps" {
	run "$IDRSH" -c 'new i --ida' -c 'step on' -c 'ida_alloc'
	assert_success
	assert_line "step 4, slot-set: leaf slot 0 now holds the bitmap for IDs 0..4095"
	assert_line "step 5, node-new: a new bitmap for IDs 0..4095 hangs at slot 0 of its leaf"
	assert_line "step 6, bit-set: bit 0 of the bitmap of 0..4095 is set: ID 0 is taken"
	assert_line --index -1 "0"
}

@test "mark and diff: what an alloc and a remove changed" {
	run "$IDRSH" <<'EOF2'
alloc a
mark
alloc b 70
remove 0
diff
EOF2
	assert_success
	assert_output "0
mark 'mark': tree 'default', 1 ID, height 1, 1 node
70
a
since the mark: height 1 -> 2; 2 nodes made, 1 freed; 1 ID added, 1 removed
  height 1 -> 2 (the tree grew)
  made    L1 0..4095 (1 of 64 slots present)
  freed   L0 0..63
  made    L0 64..127 (1 of 64 slots present)
  removed 0 (was a)
  added   70 = b"
}

@test "mark NAME: several marks; diff NAME against each" {
	run "$IDRSH" <<'EOF2'
mark empty
alloc a
mark one
alloc b
diff one
diff empty
diff
EOF2
	assert_failure
	assert_line "since the mark: 1 node changed; 1 ID added"
	assert_line "  changed L0 0..63: now used 1"
	assert_line "since the mark: height 0 -> 1; 1 node made; 2 IDs added"
	assert_line "  added   1 = b"
	assert_line "idrsh: <stdin>:7: diff: no mark 'mark'; make one with 'mark'"
}

# The shell's destroy empties the same tree (idr_destroy): its marks
# still compare; the binding's destroy() ends the object, and its marks.
@test "diff: a mark of another tree, or of a destroyed one, says so" {
	run "$IDRSH" <<'EOF2'
mark m
new other
use other
diff m
use default
destroy
diff m
use other
lua trees.default:destroy()
use default
diff m
diff bad/name
diff --bogus
diff a b
EOF2
	assert_failure
	assert_line "idrsh: <stdin>:4: diff: mark 'm' is of tree 'default', not of the current tree 'other'; 'use default' first"
	assert_line "no change since the mark"
	assert_line "idrsh: <stdin>:11: diff: tree 'default' of mark 'm' was destroyed since; a mark compares one tree with itself"
	assert_line "idrsh: <stdin>:12: diff: bad mark name 'bad/name'"
	assert_line "idrsh: <stdin>:13: usage: diff [NAME] [--all]"
	assert_line "idrsh: <stdin>:14: usage: diff [NAME] [--all]"
}

@test "diff: past 40 lines, how many more; --all shows them all" {
	run "$IDRSH" <<'EOF2'
mark
lua for i = 0, 99 do t:alloc(i, i * 64) end
diff
EOF2
	assert_success
	assert_line --regexp '^  \.\.\. and [0-9]+ more changes not shown'
	[ "${#lines[@]}" -eq 43 ]	# the mark, a summary, 40, how many more
	run "$IDRSH" <<'EOF2'
mark
lua for i = 0, 99 do t:alloc(i, i * 64) end
diff --all mark
EOF2
	assert_success
	refute_output --partial "not shown"
	[ "${#lines[@]}" -gt 200 ]
}

@test "doc/teaching.md's step and diff sessions are what idrsh prints" {
	# Each block of its "## Looking inside" that opens with "$ idrsh ...".
	awk '/^## Looking inside/ { s = 1; next } s && /^## / { exit }
		s && /^```$/ { if (in_) { in_ = 0; print "\036" } else in_ = 1; next }
		s && in_' doc/teaching.md > "$BATS_TEST_TMPDIR/blocks"
	n=0
	while IFS= read -r -d $'\036' block; do
		block=${block#$'\n'}
		cmd=$(printf '%s\n' "$block" | sed -n '1s/^\$ idrsh //p')
		[ -n "$cmd" ] || continue
		want=$(printf '%s\n' "$block" | sed 1d)
		got=$(eval "$IDRSH $cmd" 2>&1)
		[ "$got" = "$want" ] ||
			{ diff <(echo "$want") <(echo "$got"); return 1; }
		case $cmd in
		*"step on"*) n=$((n | 1)) ;;
		*" diff"*) n=$((n | 2)) ;;
		esac
	done < "$BATS_TEST_TMPDIR/blocks"
	[ "$n" -eq 3 ]	# both were there, and checked
}
