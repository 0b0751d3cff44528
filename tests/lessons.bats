#!/usr/bin/env bats
# Lessons and quizzes: every lesson with right and wrong answers, through a
# pipe and at a pty; a seeded quiz; lesson files that are malformed or try
# to run Lua or read files; the golden text of one lesson's run.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	export INPUTRC="$BATS_TEST_DIRNAME/inputrc" TERM=xterm
	# The lessons done are kept in the test's own state directory.
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
}

# The course's order, as 'lesson' numbers it.
COURSE=(lowest-free lookup grow-shrink removal iteration cyclic pre-get
	preload generations ida memory packed why-64 rcu-readers)

# The right answers of each lesson, one a line (the library grades them:
# these are what a student who understood would say).
declare -gA RIGHT=(
	[lowest-free]=$'2\n65\n10'
	[grow-shrink]=$'2\n2\n2\n2'
	[cyclic]=$'-ENOSPC\n4\n3'
	[pre-get]=$'11\nEAGAIN\nnone'
	[generations]=$'65541\nstale\n0x20005\nno'
	[ida]=$'2\n1\n8'
	[packed]=$'yes\n0\nno\n2\n3\nyes\n2'
	[lookup]=$'3\n17\nno\nno'
	[removal]=$'0\n3\n1\n3\nENOENT'
	[iteration]=$'5000\nv\nENOENT\n6'
	[preload]=$'6\n10\n5\n2'
	[memory]=$'17\n6\n800\n744'
	[why-64]=$'65\n2000\n6\n5'
	[rcu-readers]=$'no\n0\n2\nyes\n2\n0'
)

questions() {
	printf '%s\n' "${RIGHT[$1]}" | wc -l
}

# What lesson $1 prints, answered right, from its question $2 - 1 (or its
# start) up to its question $2: all the student sees before being asked.
before_question() {
	printf 'lesson %s\n%s\n' "$1" "${RIGHT[$1]}" | "$IDRSH" 2>&1 |
		awk -v k="$2" '/^Question [0-9]+ of / { q = $2 + 0; if (q == k) exit } q == k - 1'
}

@test "lesson lists the course: every lesson, numbered in the suggested order, with its title" {
	run "$IDRSH" -c lesson
	assert_success
	for i in "${!COURSE[@]}"; do
		assert_line --regexp "^ *$((i + 1)) \[ \] ${COURSE[$i]} +[A-Z]"
	done
	assert_line --partial "0 of 14 done.  Type 'lesson next' for the next one (lowest-free)"
	[ "${#RIGHT[@]}" -eq 14 ] && [ "${#COURSE[@]}" -eq 14 ]
	[ "$(ls examples/lessons/*.lesson | wc -l)" -eq 14 ]
}

@test "lesson N takes the Nth of the course; past the end, an error" {
	run "$IDRSH" -c 'lesson 10' <<<"${RIGHT[ida]}"
	assert_success
	assert_line --index 0 "The IDA: IDs without pointers, in bitmaps"
	assert_line "Score: 3 of 3."
	run "$IDRSH" -c 'lesson 15'
	assert_failure 1
	assert_output "idrsh: -c:1: lesson: no lesson 15: the course has lessons 1 to 14"
}

@test "lesson next: the first lesson not done, remembered in \$XDG_STATE_HOME/idrsh; done means full score" {
	run "$IDRSH" -c 'lesson next' <<<"${RIGHT[lowest-free]}"
	assert_success
	assert_line "Score: 3 of 3."
	# The end names the next one.
	assert_line --index $((${#lines[@]} - 1)) "Next: 'lesson next' takes lookup (Lookup: idr_find() walks down by the ID's digits)."
	[ "$(cat "$XDG_STATE_HOME/idrsh/lessons-done")" = lowest-free ]
	run "$IDRSH" -c lesson
	assert_line --regexp '^ 1 \[x\] lowest-free '
	assert_line --regexp '^ 2 \[ \] lookup '
	assert_line --partial "1 of 14 done.  Type 'lesson next' for the next one (lookup)"
	# A lesson finished with a wrong answer is not done.
	run "$IDRSH" -c 'lesson next' <<<$'1\n1\n1\n1'
	assert_failure 1
	assert_line --partial "Lookup: idr_find()"
	assert_line "Not recorded as done: that takes every answer right. 'lesson lookup' starts it again."
	run "$IDRSH" -c 'lesson next' <<<"${RIGHT[lookup]}"
	assert_success
	assert_line "Score: 4 of 4."
	# Taken by name it counts too; a FILE or a quiz never does.
	run "$IDRSH" -c 'lesson removal' <<<"${RIGHT[removal]}"
	assert_success
	printf 'title: t\n' >"$BATS_TEST_TMPDIR/grow-shrink"
	idrsh=$(realpath "$IDRSH")
	(cd "$BATS_TEST_TMPDIR" && "$idrsh" -c 'lesson ./grow-shrink')
	"$IDRSH" -c 'quiz 1 --seed 1' <<<x || true
	[ "$(cat "$XDG_STATE_HOME/idrsh/lessons-done")" = $'lowest-free\nlookup\nremoval' ]
	run "$IDRSH" -c lesson
	assert_line --regexp '^ 4 \[x\] removal '
	assert_line --partial "Type 'lesson next' for the next one (grow-shrink)"
	# With no XDG_STATE_HOME: ~/.local/state/idrsh.
	unset XDG_STATE_HOME
	run "$IDRSH" -c 'lesson 1' <<<"${RIGHT[lowest-free]}"
	assert_success
	[ "$(cat "$HOME/.local/state/idrsh/lessons-done")" = lowest-free ]
}

@test "lesson next, every lesson done: says so; the whole course from 'lesson next'" {
	for l in "${COURSE[@]}"; do
		run "$IDRSH" -c 'lesson next' <<<"${RIGHT[$l]}"
		assert_success
		assert_line --index 0 "$(sed -n 's/^title: //p' "examples/lessons/$l.lesson")"
	done
	assert_line "That was the last lesson not done: the course is complete."
	run "$IDRSH" -c 'lesson next'
	assert_failure 1
	assert_output --partial "every lesson of the course is done (14 of 14)"
	run "$IDRSH" -c lesson
	assert_line --partial "14 of 14 done: the course is complete."
	refute_output --partial "none is left"
	refute_line --partial "[ ]"
}

@test "an unwritable state directory: a warning, and the lesson still passes" {
	mkdir -p "$XDG_STATE_HOME"
	: >"$XDG_STATE_HOME/idrsh" # a file where the directory should be
	run "$IDRSH" -c 'lesson 1' <<<"${RIGHT[lowest-free]}"
	assert_success
	assert_line "Score: 3 of 3."
	assert_line --partial "idrsh: warning: lesson lowest-free not recorded as done: "
	run "$IDRSH" -c lesson
	assert_success
	assert_line --partial "0 of 14 done."
}

@test "every lesson, right answers through a pipe: full score, exit 0" {
	for l in "${!RIGHT[@]}"; do
		n=$(questions "$l")
		run "$IDRSH" <<<"lesson $l
${RIGHT[$l]}
count"
		assert_success
		assert_line "Score: $n of $n."
		refute_line --partial "Wrong:"
		refute_line --partial "answer is missing"
		# The line after the answers is a command again.
		assert_line --index -1 --regexp '^[0-9]+$'
	done
}

@test "every lesson, wrong answers through a pipe: each explained, exit 1" {
	for l in "${!RIGHT[@]}"; do
		n=$(questions "$l")
		run "$IDRSH" <<<"lesson $l
$(yes nonsense | head -n $((2 * n)))"
		assert_failure 1
		assert_line "Score: 0 of $n."
		[ "$(grep -c '^Wrong: you said nonsense; the answer is ' <<<"$output")" -eq "$n" ]
		[ "$(grep -c '^Why: ' <<<"$output")" -eq "$n" ]
	done
}

# The slips of issue 30, one test each: each fails on the lesson text
# before the fix.
@test "grow-shrink asks which slot of the root 8300 takes before it shows 8300's path or digits" {
	run before_question grow-shrink 2
	assert_success
	assert_line "idr> alloc c 8300"
	refute_output --partial "path of ID 8300"
	refute_output --partial "2 1 44"
}

@test "cyclic asks which ID alloc_cyclic returns before it shows the cursor" {
	run before_question cyclic 2
	assert_success
	assert_line "idr> remove 3"
	refute_line "idr> cursor"
	refute_line "4"
}

@test "generations never asks whether a tag it has just allocated is live" {
	mapfile -t answers <<<"${RIGHT[generations]}"
	for k in "${!answers[@]}"; do
		run before_question generations $((k + 1))
		assert_success
		if grep -q '^idr> alloc_tagged' <<<"$output"; then
			[ "${answers[$k]}" != live ]
		fi
	done
}

@test "packed asks whether the leaf is packed before a dump shows it" {
	run before_question packed 1
	assert_success
	assert_line "idr> remove 3"
	refute_output --partial "packed in"
}

@test "preload: the kernel IDR's worst case is 10 as here; 11 is the radix tree's formula, one spare" {
	run "$IDRSH" -c 'lesson preload' <<<"${RIGHT[preload]}"
	assert_success
	text=$(tr '\n' ' ' <<<"$output")
	# lib/radix-tree.c: idr_get_free() makes a leaf even for ID 0, and
	# radix_tree_shrink() never moves entry 0 into the root of an IDR.
	[[ $text == *"its worst case is 2 * (6 - 1) = 10 as well"* ]]
	[[ $text == *"one node more than an IDR can use"* ]]
	[[ $text != *"So IDR_PRELOAD_SIZE"* ]]
	# The 2004 cache (two a level, 12) against this library's pre_get (14).
	[[ $text == *"two a level, 12 with 6 bits"* ]]
	run "$IDRSH" -c 'lesson pre-get' <<<"${RIGHT[pre-get]}"
	[[ $(tr '\n' ' ' <<<"$output") == *"two a level and two more, 14"* ]]
}

@test "preload's third question is not the 'Right: 10.' just printed" {
	run before_question preload 3
	assert_line "Right: 10."
	mapfile -t answers <<<"${RIGHT[preload]}"
	[ "${answers[2]}" != 10 ]
}

@test "lookup: beyond the height the kernel reads the top's shift, no slot; cyclic: pid's start of 300" {
	run "$IDRSH" -c "lesson lookup" <<<"${RIGHT[lookup]}"
	text=$(tr '\n' ' ' <<<"$output")
	[[ $text == *"read a slot of any node"* ]]
	[[ $text == *"radix_tree_load_root()"* ]]
	[[ $text != *"before it reads a node: the kernel"* ]]
	run "$IDRSH" -c 'lesson cyclic' <<<"${RIGHT[cyclic]}"
	text=$(tr '\n' ' ' <<<"$output")
	# kernel/pid.c: pid_min = RESERVED_PIDS once idr_get_cursor() > 300.
	[[ $text == *"as soon as the cursor is above 300"* ]]
}

@test "rcu-readers shows an --rcu tree whose freed nodes reach the cache only after the grace period (20 runs)" {
	for _ in $(seq 20); do
		run "$IDRSH" -c 'lesson rcu-readers' <<<"${RIGHT[rcu-readers]}"
		assert_success
		assert_line "idr> new safe --rcu"
		assert_line "idr> rcu_barrier"
		assert_line "cached nodes: 2"
		assert_line "Score: 6 of 6."
	done
	refute_output --partial "This shell's trees are plain ones"
	# The packing why says what the library does: realloc, in place.
	assert_output --partial "shrunk in place by realloc"
	run "$IDRSH" -c 'new p' -c 'alloc_many 20' -c mem -c 'remove 3' -c mem
	assert_line --index 1 "allocs: 1"
	assert_line --index 8 "allocs: 1"
	assert_line "bytes: 536"
	assert_line "bytes: 184"
}

@test "ida runs 'path 5000' once; generations' third question is no trivial 'still live'; memory says why one node is 536 bytes" {
	run "$IDRSH" -c 'lesson ida' <<<"${RIGHT[ida]}"
	[ "$(grep -c '^idr> path 5000$' <<<"$output")" -eq 1 ]
	run "$IDRSH" -c 'lesson generations' <<<"${RIGHT[generations]}"
	refute_output --partial "still live"
	assert_line --regexp "^Question 4 of 4: ID 5 is in use again"
	run "$IDRSH" -c 'lesson memory' <<<"${RIGHT[memory]}"
	[[ $(tr '\n' ' ' <<<"$output") == *"shows one node and 536 bytes: ID 0's whole leaf, all that is left"* ]]
	assert_line "bytes: 536"
}

@test "packed says what the library does: growing makes packed levels; a full leaf of 2 gets room for 6" {
	run "$IDRSH" <<<"lesson packed
${RIGHT[packed]}"
	assert_success
	# The lesson's claims, as the library checks them: the lone ID that
	# grows the tree makes a packed root and leaf; the full packed leaf
	# of 2 that takes a third lone ID has room for twice 3, 6; two lone
	# IDs where no level-1 node is share one keyed block.
	[ "$(sed -n '/^idr> alloc top 4095 4096$/,/^Right: /p' <<<"$output" |
		tail -n 1)" = "Right: 2." ]
	assert_line "L1 0..4095  3/64, packed in 6"
	assert_line "  L0 1984..2047  3/64, packed in 6"
	assert_line --partial "1/64, keyed block of 2 IDs, room for 2"
	assert_line "Score: 7 of 7."
	# And the old claims are gone: packed from the start, whatever the
	# tree; room for twice what it holds; growing makes whole nodes.
	refute_output --partial "makes the nodes it adds packed from the start:"
	refute_output --partial "room for twice what it holds"
	refute_output --partial "grows the tree makes whole nodes"
}

@test "ida contrasts ida_alloc's inclusive MAX with idr_alloc's half-open range" {
	run "$IDRSH" <<<"lesson ida
${RIGHT[ida]}"
	assert_success
	[ "$(sed -n "/^Question .*a fourth 'ida_alloc 5 8'/,/^Right: /p" <<<"$output" |
		tail -n 1)" = "Right: 8." ]
	# Where the idr, asked the same range, has no fourth ID.
	run "$IDRSH" -c 'alloc_many 3 5' -c 'alloc x 5 8'
	assert_failure
	assert_output --partial "(ENOSPC)"
	grep -qF '[start, end)' examples/lessons/ida.lesson
	grep -qF '[min, max]' examples/lessons/ida.lesson
}

# An answer as a person types it: a number in words, an error without
# its E, y or n, in any case.
spoken() {
	awk 'function words(n,   u, t, s) {
		split("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen", u, " ")
		split("x twenty thirty forty fifty sixty seventy eighty ninety", t, " ")
		if (n >= 1000) { s = words(int(n / 1000)) " thousand"; n %= 1000; return n ? s " " words(n) : s }
		if (n >= 100) { s = u[int(n / 100)] " hundred"; n %= 100; return n ? s " and " words(n) : s }
		if (n >= 20) { s = t[int(n / 10)]; n %= 10; return n ? s "-" u[n] : s }
		return n ? u[n] : "zero"
	}
	/^[0-9]+$/ { print toupper(substr(words($0 + 0), 1, 1)) substr(words($0 + 0), 2); next }
	/^-?E[A-Z]+$/ { sub(/^-?E/, ""); print tolower($0); next }
	$0 == "yes" { print "Y"; next }
	$0 == "no" { print "n"; next }
	{ print }'
}

@test "every lesson, answered as a person types: numbers in words, errors without their E, y/n" {
	for l in "${!RIGHT[@]}"; do
		n=$(questions "$l")
		said=$(spoken <<<"${RIGHT[$l]}")
		[ "$l" != lowest-free ] || [ "$said" = $'Two\nSixty-five\nTen' ]
		[ "$l" != cyclic ] || [ "$said" = $'nospc\nFour\nThree' ]
		[ "$l" != generations ] || [ "$(head -n 1 <<<"$said")" = "Sixty-five thousand five hundred and forty-one" ]
		run "$IDRSH" -c "lesson $l" <<<"$said"
		assert_success
		assert_line "Score: $n of $n."
	done
}

@test "answers compared as a person means them; what is no number stays wrong" {
	# One line: -c runs a line.
	run "$IDRSH" -c "$(tr '\n' ' ' <<<"lua local L = require 'idrsh.lesson'
		local right = { {'64', 'sixty-four'}, {'64', 'Sixty Four'}, {'64', '0x40'},
			{'1024', 'one thousand and twenty-four'}, {'65536', '65,536'},
			{'65541', 'sixty-five thousand five hundred forty-one'},
			{'2000', 'two thousand'}, {'100', 'a hundred'}, {'0', 'zero'},
			{'-28', 'minus twenty-eight'}, {'ENOSPC', 'nospc'}, {'-ENOSPC', 'ENOSPC'},
			{'EAGAIN', '-eagain'}, {'ENOENT', 'NoEnt'}, {'yes', 'Y'}, {'no', 'n.'},
			{'stale', ' Stale '} }
		local wrong = { {'5', 'two three'}, {'50', 'twenty thirty'}, {'12345', '1,2345'},
			{'none', 'one'}, {'empty', 'mpty'}, {'11', 'eleven one'}, {'2', 'to'} }
		for _, c in ipairs(right) do assert(L.check(c[1], c[2]), c[2]) end
		for _, c in ipairs(wrong) do assert(not L.check(c[1], c[2]), c[2]) end
		return 'ok'")"
	assert_success
	assert_output "ok"
}

@test "answers as typed: none for a count of 0, a unit word, ESTALE for stale, no error for none" {
	run "$IDRSH" -c "$(tr '\n' ' ' <<<"lua local L = require 'idrsh.lesson'
		local right = { {'0', 'none'}, {'0', 'no'}, {'0', 'Nothing'}, {'0', 'no nodes'},
			{'2', 'slot 2'}, {'3', 'three levels'}, {'2', '2 nodes'}, {'1', 'one node'},
			{'3856', '3856 bytes'}, {'5', 'ID 5'}, {'19', '19 entries'},
			{'stale', 'ESTALE'}, {'stale', '-estale'}, {'none', 'no error'},
			{'none', 'nothing'}, {'none', 'None.'} }
		local wrong = { {'1', 'none'}, {'yes', 'none'}, {'2', 'slot slot 2'},
			{'2', 'bytes'}, {'no', 'nothing'}, {'live', 'ESTALE'}, {'none', 'no'} }
		for _, c in ipairs(right) do assert(L.check(c[1], c[2]), c[2]) end
		for _, c in ipairs(wrong) do assert(not L.check(c[1], c[2]), c[2]) end
		return 'ok'")"
	assert_success
	assert_output "ok"
	# The lessons' own cases.
	run "$IDRSH" -c 'lesson removal' <<<$'none\nthree\none\nthree\nENOENT'
	assert_line "Right: none."
	assert_line "Score: 5 of 5."
	run "$IDRSH" -c 'lesson grow-shrink' <<<$'2 nodes\nslot 2\ntwo levels\n2'
	assert_line "Score: 4 of 4."
	run "$IDRSH" -c 'lesson generations' <<<$'65541\nESTALE\n0x20005\nno'
	assert_line "Right: ESTALE."
	run "$IDRSH" -c 'lesson pre-get' <<<$'11\nEAGAIN\nno error'
	assert_line "Score: 3 of 3."
}

@test "q, quit or exit leave the lesson; an answer of the wrong kind is asked again, once" {
	for q in q quit EXIT; do
		run "$IDRSH" -c 'lesson lowest-free' -c count <<<"2
$q"
		assert_failure
		assert_line "No answer to question 2: you typed $q."
		assert_line "Score: 1 of 3 (1 answered)."
	done
	# '?' for a number: asked again, then '2' answers.
	run "$IDRSH" -c 'lesson grow-shrink' <<<$'?\n2\nlesson 1\nhint\n2\n2'
	[ "$(grep -c '^Answer with a number (12, twelve or 0xc); q leaves the lesson.$' <<<"$output")" -eq 2 ]
	assert_line "Right: 2."
	# Asked again once only: 'hint', the second, is graded.
	assert_line "Wrong: you said hint; the answer is 2."
	run "$IDRSH" -c 'lesson packed' <<<$'maybe\nyes'
	assert_line "Answer with yes or no; q leaves the lesson."
	run "$IDRSH" -c 'lesson pre-get' <<<$'11\nsoon\nEAGAIN'
	assert_line "Answer with an error's name (ENOSPC, nospc), or none; q leaves the lesson."
	assert_line "Right: EAGAIN."
	# A question that ends with its choices takes one of them.
	run "$IDRSH" -c 'quiz 5 --seed 1' <<<$'58\n2\n3\n-ESTALE\n26\n2'
	assert_line "Answer with one of live, stale or free; q leaves the lesson."
	assert_line "Right: -ESTALE."
	assert_line "Score: 5 of 5."
}

@test "a right answer is echoed as typed, with its why; a long wrong one is cut" {
	run "$IDRSH" -c 'lesson generations' <<<$'0x10005'
	assert_line "Right: 0x10005."
	assert_line --partial "Why: 65541 (0x10005)."
	long=$(printf '7%.0s' $(seq 5000))
	run "$IDRSH" -c 'lesson lowest-free' <<<"$long"
	assert_line "Wrong: you said ${long:0:60}... (5000 characters); the answer is 2."
}

@test "a wrong answer shows the evidence the grader read: the height, the nodes, the slot's line" {
	run "$IDRSH" -c 'lesson removal' <<<$'1\n1\n9\n9\nEAGAIN'
	assert_failure 1
	# Question 3 asks the height after 'remove 5000', which prints the value.
	assert_line "Wrong: you said 9; the answer is 1."
	assert_line "The grader read the tree's stats after it: height 1, 1 node."
	assert_line "The grader read the tree's stats: 7 nodes before, 4 after."
	assert_line "The grader read the error it printed, ENOENT."
	run "$IDRSH" -c 'lesson lookup' <<<$'1\n1\nno\nno'
	assert_line --regexp '^The grader read the line "L2 0\.\.262143: slot 17.*"\.$'
	# Evidence lines that read as sentences.
	run "$IDRSH" -c 'lesson lookup' <<<$'3\n17\nyes\nyes'
	assert_line 'The grader read its output, in which "L2" is nowhere.'
	run "$IDRSH" -c 'lesson pre-get' <<<$'11\nEAGAIN\nENOMEM'
	assert_line 'The grader read its output, in which no error is named.'
	# A whole-output answer: the output it compared with is shown above.
	run "$IDRSH" -c 'lesson lowest-free' <<<$'1\n65\n10'
	assert_line "idr> alloc a"
	[ "$(grep -B2 '^Wrong: you said 1;' <<<"$output" | head -n 2)" = $'idr> alloc a\n2' ]
	refute_line --partial "The grader read"
}

@test "lesson --check: every lesson of the course asks before it tells, and explains every answer" {
	run "$IDRSH" -c 'lesson --check'
	assert_success
	[ "${#lines[@]}" -eq 14 ]
	for l in "${!RIGHT[@]}"; do
		assert_line "$l: $(questions "$l") questions: ok"
	done
	# By name, and as a file.
	run "$IDRSH" -c 'lesson --check cyclic' -c 'lesson --check examples/lessons/ida.lesson'
	assert_success
	assert_output $'cyclic: 3 questions: ok\nexamples/lessons/ida.lesson: 3 questions: ok'
}

# Each way a lesson can tell before it asks, and a question with no why:
# lesson --check names the question, and fails (exit status 1).
@test "lesson --check fails a lesson that prints an answer before asking it, or gives no why" {
	f=$BATS_TEST_TMPDIR/bad.lesson
	# The cursor is the next ID (cyclic's old second question).
	printf 'title: t\n> alloc_cyclic a\n> alloc_cyclic b\n> remove 0\n> cursor\n? q\n= alloc_cyclic c\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 1: its answer, 2, was printed first, by \"cursor\""
	# The answer's own command, shown first (grow-shrink's old second).
	printf 'title: t\n> alloc a\n? q\n= alloc b\n! w\n> alloc c 8300\n> path 8300\n? q\n= path 8300 | slot top\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 2: its evidence was shown first: \"path 8300\", the same output as its answer command"
	# A field line, printed by another command.
	printf 'title: t\n> preload\n? q\n= stats | field preloaded nodes\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output --partial "question 1: its answer was printed first, as \"preloaded nodes: 10\" by \"preload\""
	# The text a 'has' looks for (packed's old first question).
	printf 'title: t\n> alloc_many 20\n> remove 3\n> dump\n? q\n= dump | has packed in\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_line "$f: question 1: its answer was printed first: \"dump\" printed \"packed in\""
	# The answer in the question (pre-get's old third question).
	printf "title: t\n? What does 'alloc a 70' print?\n= alloc a 70\n! w\n" >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 1: its answer, 70, is in its own text"
	printf "title: t\n> alloc_many 12\n? Twelve IDs are taken: which comes next?\n= alloc a\n! w\n" >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 1: its answer, 12, is in its own text"
	# An answer a student could not give: the question asks for a
	# number, its command prints a value.
	printf "title: t\n> alloc x\n? Which ID does 'find 0' give back?\n= find 0\n! w\n" >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 1: its answer, x, is not of the kind its text asks for (number)"
	# No why; in a script, the failure stops nothing but the exit status.
	printf 'title: t\n> alloc_many 3\n? q\n= alloc a\n' >"$f"
	run "$IDRSH" -c "lesson --check $f" -c 'count'
	assert_failure 1
	assert_output "$f: question 1: no why text (\"!\" lines)"$'\n'"0"
	# The same lesson with its why passes.
	printf '! w\n' >>"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_success
	assert_output "$f: 1 question: ok"
	# No answer at all.
	printf 'title: t\n? q\n= path 5 | slot 7\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output --partial "$f: question 1: no answer: the output of 'path 5' has no slot 7"
	run "$IDRSH" -c "lesson --check $f --html x.html"
	assert_failure 1
	assert_output --partial "--check asks no one"
}

@test "lesson --check fails a paragraph or a why that states the answer: a number, an errno, a digit with its command" {
	f=$BATS_TEST_TMPDIR/give.lesson
	# The student's review's lesson (round 2, give.lesson).
	printf 'title: giveaway\n\n> alloc_many 20\n\nRemoving 3 frees no node at all.\n\n? How many nodes will %s free?\n= remove 3 | freed\n! None.\n\nThe next alloc returns 3.\n\n? Which ID will %s return?\n= alloc a\n! 3.\n' "'remove 3'" "'alloc a'" >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 2: its answer, 3, is in the paragraph at line 11 (\"3\")"
	printf 'title: giveaway\n\n> alloc_many 20\n\nThe next alloc returns 20.\n\n? Which ID will %s return?\n= alloc a\n! w\n' "'alloc a'" >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_failure 1
	assert_output "$f: question 1: its answer, 20, is in the paragraph at line 5 (\"20\")"
	# In words, and one digit in a sentence that names the command.
	printf 'title: g\n\n> alloc_many 3\n\nNow alloc returns three.\n\n? Which ID next?\n= alloc a\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_output "$f: question 1: its answer, 3, is in the paragraph at line 5 (\"three\")"
	# An errno, in the previous question's why (shown after its answer).
	printf 'title: g\n\n? q\n= alloc a\n! It fails next with ENOSPC.\n\n? And then?\n= alloc b 0 1 | errno\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_output "$f: question 2: its answer, ENOSPC, is in the why at line 3 (\"ENOSPC\")"
	# A digit elsewhere is no giveaway: the paragraph is the lesson's.
	printf 'title: g\n\n> alloc_many 3\n\nRemoving ID 2 clears its bit.\n\n> remove 2\n\n? Which ID next?\n= alloc a\n! w\n' >"$f"
	run "$IDRSH" -c "lesson --check $f"
	assert_success
}

@test "every lesson --html: a replay page with each of its questions" {
	for l in "${!RIGHT[@]}"; do
		n=$(questions "$l")
		run "$IDRSH" -c "lesson $l --html $BATS_TEST_TMPDIR/$l.html"
		assert_success
		assert_output --regexp "^wrote [0-9]+ frames, $n questions, to "
	done
}

@test "an answer is checked by running the library: 0x41 and 65 are the same ID" {
	run "$IDRSH" <<<$'lesson lowest-free\n0x2\n 0x41 \n10.'
	assert_success
	assert_line "Score: 3 of 3."
}

@test "a missing answer at the end of input ends with the score so far" {
	run "$IDRSH" <<<$'lesson lowest-free\n2'
	assert_failure 1
	assert_line "No answer to question 2: the input ended."
	assert_line "Score: 1 of 3 (1 answered)."
	refute_line --partial "Question 3"
}

@test "-c: the answers come from standard input; the rest stays unread" {
	run "$IDRSH" -c 'lesson ida' <<<$'2\n1\n8\nalloc x'
	assert_success
	assert_line "Score: 3 of 3."
	refute_line --partial "unknown command"
}

@test "--answers FILE reads the answers from FILE" {
	printf '# my answers\n2\n\n65\n9\n' >"$BATS_TEST_TMPDIR/a.txt"
	run "$IDRSH" -c "lesson lowest-free --answers $BATS_TEST_TMPDIR/a.txt"
	assert_failure 1
	assert_line "Wrong: you said 9; the answer is 10."
	assert_line "Score: 2 of 3."
	run "$IDRSH" -c "lesson lowest-free --answers $BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_output --partial "No such file"
}

@test "a wrong answer is shown back with its control characters as \\ddd" {
	# No number: each is asked again once, then graded.
	printf '9\033]0;title\007\n9\033]0;title\007\n1\n\033[2J\n\033[2J\n' \
		>"$BATS_TEST_TMPDIR/a.txt"
	run "$IDRSH" -c "lesson lowest-free --answers $BATS_TEST_TMPDIR/a.txt"
	assert_failure 1
	assert_line 'Wrong: you said 9\027]0;title\007; the answer is 2.'
	assert_line 'Wrong: you said \027[2J; the answer is 10.'
	refute_output --partial $'\033'
}

@test "a lesson in a sourced file takes the file's next lines as answers" {
	printf 'lesson ida\n2\n1\n8\ncount\n' >"$BATS_TEST_TMPDIR/s.idrsh"
	run "$IDRSH" "$BATS_TEST_TMPDIR/s.idrsh"
	assert_success
	assert_line "Score: 3 of 3."
	# The lesson's trees are its own: the user's default tree is empty.
	assert_line --index -1 "0"
}

@test "a lesson's marks are its own: the user's mark of the same name stands" {
	f=$BATS_TEST_TMPDIR/mark.lesson
	printf 'title: t\n> mark\n> alloc_many 2\n? q\n= alloc a\n' >"$f"
	run "$IDRSH" -c 'alloc mine' -c mark -c 'alloc more' \
		-c "lesson $f" -c diff -c 'diff --all' <<<2
	assert_success
	assert_line "Score: 1 of 1."
	assert_line "  added   1 = more"
	refute_output --partial "not of the current tree"
}

@test "a question's answer is its command's output, not the trace a '>' line turned on" {
	f=$BATS_TEST_TMPDIR/trace.lesson
	printf 'title: t\n> trace on\n> explain on\n? q\n= alloc a\n> alloc b\n' >"$f"
	run "$IDRSH" -c "lesson $f" <<<0
	assert_success
	assert_line "Score: 1 of 1."
	assert_line "Right: 0."
	# The '>' lines still trace; the trace is back on after the answer.
	assert_line "trace: done alloc result=1"
	refute_output --partial "result=0"
	assert_line "idr> alloc a"
	assert_line "Right: 0."
}

@test "golden: the run of the lesson lowest-free, one answer wrong" {
	run "$IDRSH" <<<$'lesson lowest-free\n2\n64\n10'
	assert_failure 1
	diff -u tests/golden/lesson-lowest-free.txt - <<<"$output"
}

@test "quiz --seed: the same questions each time, and a known score" {
	run "$IDRSH" -c 'quiz 5 --seed 1' <<<$'58\n1\nstale\n26\n3'
	assert_failure 1
	assert_line "Quiz: 5 questions, seed 1"
	assert_line "Question 1 of 5: Which ID will 'alloc x' return now?"
	assert_line "Question 2 of 5: How many nodes will 'alloc x 97' create?"
	assert_line "Question 3 of 5: Is tagged ID 0 (0x0: generation 0, ID 0) live, stale or free?"
	# The tree is made with the tagged commands: what they print is
	# what the question names (alloc on a tagged tree prints bare IDs).
	assert_line "idr> remove_tagged 65536"
	assert_line "131072"
	assert_line "Question 4 of 5: Which ID will 'alloc_cyclic x' return now?"
	assert_line "Wrong: you said 1; the answer is 2."
	assert_line "Wrong: you said 3; the answer is 2."
	assert_line "Score: 3 of 5."
	first=$output
	run "$IDRSH" -c 'quiz 5 --seed 1' <<<$'58\n1\nstale\n26\n3'
	[ "$output" = "$first" ]
	run "$IDRSH" -c 'quiz 5 --seed 1' <<<$'58\n2\nstale\n26\n2'
	assert_success
	assert_line "Score: 5 of 5."
}

@test "quiz: every kind of question, on many seeds, has an answer" {
	for seed in 1 2 3 4 5 6 7 8; do
		run "$IDRSH" -c "quiz 10 --seed $seed" < <(yes x | head -20)
		assert_line "Score: 0 of 10."
		refute_line --partial "answer is missing"
		refute_line --partial "idrsh:"
	done
	run "$IDRSH" -c 'quiz 0'
	assert_failure 1
	assert_output --partial "bad N '0'"
}

@test "quiz: a tag asked about was handed out (no generation ahead of its slot called stale)" {
	for seed in $(seq 1 60); do
		"$IDRSH" -c "quiz 5 --seed $seed --html $BATS_TEST_TMPDIR/q$seed.html" >/dev/null
	done
	run bash -c 'cat "$1"/q*.html | grep -o "stale: id [0-9]* gen [0-9]*; the slot is at gen [0-9]*"' _ "$BATS_TEST_TMPDIR"
	assert_success
	while read -r _ _ _ _ gen _ _ _ _ _ at; do
		[ "${gen%;}" -lt "$at" ]
	done <<<"$output"
	run grep -c "so a tag of an older one is stale" "$BATS_TEST_TMPDIR/q5.html"
	refute_output 0
}

@test "quiz: the cyclic question asks before the cursor tells its answer" {
	run "$IDRSH" -c "quiz 12 --seed 3" < <(yes x | head -12)
	assert_line "Question 1 of 12: Which ID will 'alloc_cyclic x' return now?"
	refute_line "idr> cursor"
	for seed in 1 2 3 4 5 6 7 8; do
		run "$IDRSH" -c "quiz 10 --seed $seed" < <(yes x | head -20)
		refute_line "idr> cursor"
	done
}

@test "a lesson's preload, part used, is not refilled between its steps" {
	f=$BATS_TEST_TMPDIR/p.lesson
	printf '%s\n' 'title: preload kept' '> preload' \
		'> alloc_u32 c 2147483648 2147483648' \
		'? How many nodes are still preloaded?' \
		'= stats | field preloaded nodes' '! 10 less the 6 of the branch.' \
		'> stats' >"$f"
	run "$IDRSH" -c "lesson $f" <<<4
	assert_success
	assert_line "Score: 1 of 1."
	assert_line "preloaded nodes: 4"
	# 10 once: what 'preload' printed, never again.
	[ "$(grep -c '^preloaded nodes: 10$' <<<"$output")" -eq 1 ]
	# The user's preload, none, is the user's again after the lesson.
	run "$IDRSH" -c "lesson $f" -c stats <<<4
	assert_line --index -1 --partial "highest ID"
	[ "$(grep -c '^preloaded nodes: 0$' <<<"$output")" -eq 1 ]
}

@test "LESSON_BYTES_MAX is ten times the longest lesson shipped, at least" {
	max=$(sed -n 's/^local LESSON_BYTES_MAX = \([0-9]*\)$/\1/p' \
		lua/idrsh/lessons.lua)
	[ "$max" -gt 0 ]
	for f in examples/lessons/*.lesson; do
		[ $(($(wc -c <"$f") * 10)) -le "$max" ] ||
			{ echo "$f: $(wc -c <"$f") bytes"; return 1; }
	done
}

@test "a malformed lesson file: an error naming its line, nothing run" {
	f=$BATS_TEST_TMPDIR/bad.lesson
	printf 'title: bad\n> alloc a\n? A question\n> dump\n' >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_failure 1
	assert_output "idrsh: -c:1: lesson: $f:4: a question needs its answer: '= COMMAND' after '?'"
	printf 'no title here\n' >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_output --partial "$f:1: a lesson begins with 'title: TEXT'"
	printf 'title: x\n? q\n= alloc a | colour\n' >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_output --partial "$f:3: unknown measure 'colour'"
}

@test "a lesson file that tries lua, source, = or dot: refused, nothing run" {
	f=$BATS_TEST_TMPDIR/evil.lesson
	for line in '> lua os.execute("touch PWNED")' '> source /etc/passwd' \
		'> =os.execute("touch PWNED")' '> dot PWNED' \
		'> lesson lowest-free' '> fail 1' \
		'? q'$'\n''= lua os.execute("touch PWNED")'; do
		printf 'title: t\n> alloc before\n%s\n' "$line" >"$f"
		run "$IDRSH" -c "lesson $f" -c count
		assert_failure 1
		assert_line --regexp "(is not allowed in a lesson|'=' runs Lua)"
		refute_line --partial "alloc before"
		[ ! -e PWNED ] && [ ! -e "$BATS_TEST_TMPDIR/PWNED" ]
	done
	printf 'title: t\n> =1\n' >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_output --partial "$f:2: '=' runs Lua: a lesson runs only idrsh commands"
}

# Each way a lesson line could run Lua or touch a file through a command
# that runs another: as a '>' line and as a question's '=' answer.
EXPLAIN_ATTACKS=(
	'> explain lua io.open("PWNED", "w")'
	'> explain = io.open("PWNED", "w")'
	'> explain source PWNED.idrsh'
	'> explain explain lua io.open("PWNED", "w")'
	'> explain dot PWNED'
	'? q'$'\n''= explain lua io.open("PWNED", "w")'
	'? q'$'\n''= explain source PWNED.idrsh'
)

# Runs lesson file $1 as 'lesson FILE', with --answers and with --html,
# in the test's folder; each run fails and leaves no PWNED file.
refused_everywhere() {
	idrsh=$(realpath "$IDRSH")
	cd "$BATS_TEST_TMPDIR"
	printf 'lua io.open("PWNED", "w")\n' >PWNED.idrsh
	printf '1\n' >answers
	for how in "" "--answers answers" "--html page.html"; do
		run "$idrsh" -c "lesson $1 $how" -c count <<<1
		assert_failure 1
		assert_output --regexp "(is not allowed in a lesson|'=' runs Lua)"
		refute_line --partial "alloc before"
		[ ! -e PWNED ] && [ ! -e page.html ]
	done
	cd "$TOP"
}

@test "a lesson file that runs Lua or a file through explain COMMAND: refused, nothing run" {
	f=$BATS_TEST_TMPDIR/evil.lesson
	for line in "${EXPLAIN_ATTACKS[@]}"; do
		printf 'title: t\n> alloc before\n%s\n' "$line" >"$f"
		refused_everywhere "$f"
	done
	# explain of an allowed command still tells it.
	printf 'title: t\n> explain alloc a\n' >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_success
	assert_line --partial "Result: ID 0, allocated."
}

# The parser's check bypassed (idr.lesson_parse told to allow anything):
# the line is refused where it runs, by 'lesson', --answers and --html.
@test "a lesson's lines are checked where they run, not only where parsed" {
	idrsh=$(realpath "$IDRSH")
	cd "$BATS_TEST_TMPDIR"
	printf 'lua io.open("PWNED", "w")\n' >PWNED.idrsh
	printf '1\n' >answers
	unchecked='lua local p = idr.lesson_parse; idr.lesson_parse = function(t, n) return p(t, n) end'
	for line in "${EXPLAIN_ATTACKS[@]}" '> lua io.open("PWNED", "w")' \
		'> = io.open("PWNED", "w")' '> source PWNED.idrsh'; do
		printf 'title: t\n%s\n' "$line" >evil.lesson
		for how in "" "--answers answers" "--html page.html"; do
			rm -f page.html
			run "$idrsh" -c "$unchecked" -c "lesson evil.lesson $how" <<<1
			refute_output --partial "unknown command"
			# The parser let it through: the runner refused it.
			refute_output --partial "evil.lesson:2:"
			{ echo "$output"; cat page.html 2>/dev/null; } |
				grep -Eq "(is not allowed in a lesson|'=' runs Lua)"
			[ ! -e PWNED ]
		done
	done
}

@test "a lesson's preload is its own: the user's preload is as it was after" {
	f=$BATS_TEST_TMPDIR/preload.lesson
	printf 'title: t\n> preload\n? q\n= alloc a\n' >"$f"
	# The last 'preloaded nodes' line is the user's stats after the lesson.
	run "$IDRSH" -c "lesson $f" -c stats <<<0
	assert_success
	assert_line "Score: 1 of 1."
	[ "$(grep 'preloaded nodes' <<<"$output" | tail -n 1)" = "preloaded nodes: 0" ]
	run "$IDRSH" -c preload -c "lesson $f" -c stats <<<0
	assert_success
	[ "$(grep 'preloaded nodes' <<<"$output" | sed -n '1p;$p' | uniq | wc -l)" -eq 1 ]
}

@test "a lesson or answers file over 65536 bytes is refused, nothing run" {
	f=$BATS_TEST_TMPDIR/big.lesson
	{ printf 'title: t\n> alloc before\n'; head -c 65536 /dev/zero | tr '\0' '#'; } >"$f"
	run "$IDRSH" -c "lesson $f"
	assert_failure 1
	assert_output "idrsh: -c:1: lesson: $f: longer than 65536 bytes: too long for a lesson"
	run "$IDRSH" -c "lesson lowest-free --answers $f"
	assert_failure 1
	assert_output --partial "$f: longer than 65536 bytes"
	refute_output --partial "Question"
	# At the limit it is read.
	head -c 65536 "$f" >"$f.65536"
	run "$IDRSH" -c "lesson $f.65536"
	assert_success
	assert_line "idr> alloc before"
}

@test "the man page lists exactly the commands a lesson may run" {
	man=$(tr '\n' ' ' <man/idrsh.1 |
		sed -n 's/.*A lesson runs only these commands[^:]*: \([^.]*\)\..*/\1/p' |
		tr ' ' '\n' | grep . | sort)
	[ -n "$man" ]
	# The code's list: each command tried as the one line of a lesson.
	args=()
	for c in $("$IDRSH" -c help | awk 'NF > 1 && $1 !~ /^Type/ { print $1 }'); do
		printf 'title: t\n> %s\n' "$c" >"$BATS_TEST_TMPDIR/$c.lesson"
		args+=(-c "lesson $BATS_TEST_TMPDIR/$c.lesson")
	done
	code=$("$IDRSH" "${args[@]}" </dev/null 2>&1 |
		sed -n 's/^idr> \([^ ]*\).*/\1/p' | sort -u)
	refused=$("$IDRSH" "${args[@]}" </dev/null 2>&1 |
		grep -c "is not allowed in a lesson")
	[ "$refused" -gt 5 ]
	diff <(echo "$man") <(echo "$code")
}

@test "help lesson and help quiz; the man page has the format" {
	run "$IDRSH" -c 'help lesson' -c 'help quiz'
	assert_success
	assert_line "usage: lesson [NAME | N | next | FILE] [--answers FILE | --html OUT.html | --check]"
	assert_line "usage: quiz [N] [--seed S] [--answers FILE | --html OUT.html]"
	assert_line --partial "--html OUT.html asks nothing"
	run grep -c 'LESSON FILES' man/idrsh.1
	assert_success
}

@test "lesson lowest-free --html F: a replay page with its 3 questions, no one asked" {
	f=$BATS_TEST_TMPDIR/lf.html
	# A line after the command is not taken as an answer: it runs.
	run "$IDRSH" <<<"lesson lowest-free --html $f
count"
	assert_success
	assert_line "wrote 11 frames, 3 questions, to $f"
	assert_line "0"
	refute_output --partial "Question"
	[ "$(grep -o '"k":"Question [0-9] of 3:"' "$f" | wc -l)" -eq 3 ]
	# Each answer is the library's, and behind "Show the answer".
	grep -q '"a":"2","c":"alloc a"' "$f"
	grep -q '"a":"65","c":"alloc b"' "$f"
	grep -q '"a":"10","c":"alloc c"' "$f"
	grep -q '<details class="ans"><summary>Show the answer</summary>' "$f"
}

@test "lesson and quiz replay pages name their trees on every frame" {
	run "$IDRSH" -c "lesson rcu-readers --html $BATS_TEST_TMPDIR/r.html" -c "quiz 3 --seed 5 --html $BATS_TEST_TMPDIR/q.html"
	assert_success
	run grep -o '"nm":"[^"]*"' "$BATS_TEST_TMPDIR/r.html"
	assert_line '"nm":"default"'
	assert_line '"nm":"safe"'
	assert_line '"nm":"packing"'
	refute_line '"nm":""'
	run grep -o '"nm":"[^"]*"' "$BATS_TEST_TMPDIR/q.html"
	assert_line '"nm":"q1"'
	assert_line '"nm":"q3"'
	refute_line '"nm":""'
}

@test "quiz --html, and --html with --answers or to a bad file: errors" {
	run "$IDRSH" -c "quiz 4 --seed 1 --html $BATS_TEST_TMPDIR/q.html"
	assert_success
	assert_output --regexp "^wrote [0-9]+ frames, 4 questions, to "
	run "$IDRSH" -c "quiz 2 --html x.html --answers y"
	assert_failure
	assert_output --partial "--html asks no one: not with --answers"
	run "$IDRSH" -c "lesson ida --html /nonexistent/x.html"
	assert_failure
	assert_output --partial "lesson: /nonexistent/x.html"
}

@test "lesson FILE --html: a command of 20000 operations tells the first events, not all" {
	f=$BATS_TEST_TMPDIR/big.lesson
	printf 'title: t\n> alloc_many 20000\n? q\n= alloc_many 20000\n' >"$f"
	run "$IDRSH" -c "lesson $f --html $BATS_TEST_TMPDIR/big.html"
	assert_success
	grep -q 'more events, not told' "$BATS_TEST_TMPDIR/big.html"
	# The narration of every event made a page of 30 MB.
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/big.html")" -lt 1000000 ]
}

@test "lesson FILE --html: as safe as lesson FILE, nothing run, no page" {
	f=$BATS_TEST_TMPDIR/bad.lesson
	printf 'title: t\n> alloc a\n> source %s\n' "$f" >"$f"
	run "$IDRSH" -c "lesson $f --html $BATS_TEST_TMPDIR/bad.html"
	assert_failure
	assert_output --partial "$f:3: 'source' is not allowed in a lesson"
	[ ! -e "$BATS_TEST_TMPDIR/bad.html" ]
}

# At a terminal: feeds keys to idrsh on a pty (as idrsh_interactive.bats).
pty() {
	run timeout 60 bash -c '
		idrsh=$1; shift
		for keys in "$@"; do
			# Ctrl-C flushes what idrsh has not read yet: a slow start
			# (a busy machine) must not lose the keys before it.
			sleep 0.2; [ "$keys" = "\\003" ] && sleep 0.8
			printf "$keys"
		done |
			script -qec "exec $idrsh" /dev/null | tr -d "\r"
		exit "${PIPESTATUS[1]}"' pty "$IDRSH -q" "$@"
}

@test "pty: every lesson, right answers at the answer> prompt" {
	for l in "${!RIGHT[@]}"; do
		n=$(questions "$l")
		keys=("lesson $l\n")
		while IFS= read -r a; do keys+=("${a#-}\n"); done <<<"${RIGHT[$l]}"
		pty "${keys[@]}" 'count\n' '\004'
		assert_line "Score: $n of $n."
		assert_line --regexp "^answer> "
		assert_line "idr> count"
	done
}

@test "pty: wrong answers are explained; Ctrl-C leaves the lesson" {
	pty 'lesson lowest-free\n' '7\n' '\003' 'count\n' '\004'
	assert_line "answer> 7"
	assert_line "Wrong: you said 7; the answer is 2."
	assert_line "No answer to question 2: Ctrl-C."
	assert_line "Score: 0 of 3 (1 answered)."
	assert_line "idr> count"
}

@test "pty: a fresh \$XDG_STATE_HOME is made for the history; answers go to no history" {
	export XDG_STATE_HOME=$BATS_TEST_TMPDIR/fresh/state
	unset IDRSH_HISTORY
	pty 'lesson lowest-free\n' 'two\n' '\004' 'count\n' '\004'
	assert_line "Right: two."
	refute_output --partial "cannot write history"
	h=$XDG_STATE_HOME/idrsh_history
	[ "$(stat -c %a "$XDG_STATE_HOME")" = 700 ]
	grep -qx 'lesson lowest-free' "$h"
	grep -qx count "$h"
	! grep -qx two "$h"
}

@test "step on or trace on at the prompt: a lesson says they are off during it" {
	run "$IDRSH" -c 'step on' -c 'trace on' -c 'lesson lowest-free' <<<"${RIGHT[lowest-free]}"
	assert_success
	assert_line --index 1 "('trace on' and 'step on': off during a lesson, whose commands show what they do; on again after it.)"
	run "$IDRSH" -c 'lesson lowest-free' <<<"${RIGHT[lowest-free]}"
	refute_output --partial "off during a lesson"
}
