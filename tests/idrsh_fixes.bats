#!/usr/bin/env bats
# The shell's slips an outside tester found, one test or more each: the
# command word unquoted, the nodes quiz's why, the kind of a "Which ID"
# question, and 'help ='.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
}

# ----------------------------------------------------- the command word

@test "the command word is unquoted as an argument is" {
	run --separate-stderr "$IDRSH" -q -c '"alloc" x' -c "al'lo'c y" -c 'count'
	assert_success
	assert_equal "$output" $'0\n1\n2'
	assert_equal "$stderr" ""
}

@test "an unterminated quote in the command word is that error, not an unknown command" {
	run --separate-stderr "$IDRSH" -q -c '"unterminated'
	assert_failure 1
	assert_equal "$stderr" "idrsh: -c:1: unterminated double quote"
	run --separate-stderr "$IDRSH" -q -c "'alloc x"
	assert_failure 1
	assert_equal "$stderr" "idrsh: -c:1: unterminated single quote"
}

@test "a quoted word that names no command is unknown under its unquoted name" {
	run --separate-stderr "$IDRSH" -q -c '"allco" x'
	assert_failure 1
	assert_equal "$stderr" "idrsh: -c:1: unknown command 'allco'; did you mean 'alloc'?"
}

@test "a quoted raw command still gets its rest as typed" {
	run --separate-stderr "$IDRSH" -q -c $'"lua" print("a  b", [[it\'s]])'
	assert_success
	assert_equal "$output" $'a  b\tit\'s'
	run --separate-stderr "$IDRSH" -q -c '"explain" "alloc" x 64'
	assert_success
	assert_line --partial "Result: ID 64, allocated."
}

# -------------------------------------------------- the nodes quiz's why

# The graded steps of quiz $1 --seed $2 that ask how many nodes an
# alloc creates, as JSON lines {answer, why}.
nodes_graded() {
	yes 0 | head -n $((2 * $1)) |
		"$IDRSH" -q --json -c "quiz $1 --seed $2" 2>/dev/null |
		jq -c 'select(.graded and (.graded.command | test("^alloc x ")))
			| .graded | {answer, why: (.why | gsub("\\s+"; " "))}'
}

@test "quiz: the nodes question's why for a lone ID tells of its keyed block and counts as the grader" {
	run bash -c 'yes 0 | head -30 | "$1" -q -c "quiz 12 --seed 42" |
		tr -s " \n" " "' _ "$IDRSH"
	assert_output --partial "Question 6 of 12: How many nodes will 'alloc x 263927' create?"
	refute_output --partial "A new ID needs a leaf for its 64-ID block"
	assert_output --partial "the answer is 5."
	assert_output --partial "keyed block"
	assert_output --partial "5 nodes in all."
}

@test "quiz: the nodes question's why counts what the grader counts, on many seeds" {
	n=0
	for seed in $(seq 1 40); do
		while IFS=$'\t' read -r answer said; do
			n=$((n + 1))
			[ "$answer" = "$said" ] ||
				{ echo "seed $seed: answer $answer, why says $said"; return 1; }
		done < <(nodes_graded 10 "$seed" | jq -r '[.answer,
			(.why | if test("no new node") then "0" else
			capture("(?<n>[0-9]+) nodes? in all").n end)] | @tsv')
	done
	# Enough of them to hold every shape: grown tops, a keyed block, a
	# leaf, none; and never a why that counts nothing.
	[ "$n" -ge 40 ]
	all=$(for seed in $(seq 1 40); do nodes_graded 10 "$seed"; done)
	grep -q 'keyed block' <<<"$all"
	grep -q 'grew' <<<"$all"
	grep -q 'a new leaf holds it' <<<"$all"
	grep -q 'no new node' <<<"$all"
	[[ $all != *'Count the nodes'* ]]
}

# ------------------------------------------------- the kind of an answer

@test "lesson 1: a word for 'Which ID' is asked again, once, as a number" {
	run "$IDRSH" -q <<<$'lesson 1\n2\nfoo\n?\n'
	assert_line "Answer with a number (12, twelve or 0xc); q leaves the lesson."
	refute_line --partial "Wrong: you said foo"
	assert_line "Wrong: you said ?; the answer is 65."
}

@test "every lesson: a question whose answer is a number asks for a number, and gets one" {
	for f in examples/lessons/*.lesson; do
		l=$(basename "$f" .lesson)
		yes 0 | head -40 | "$IDRSH" -q --json -c "lesson $l" 2>/dev/null |
			jq -r --arg l "$l" 'select(.question or .graded) |
				if .question then "\(.question.number)\t\(.question.kind)\t\(.question.text)"
				else "\(.graded.number)\t\(.graded.answer)" end'
	done >"$BATS_TEST_TMPDIR/kinds"
	run awk -F'\t' '
		NF >= 3 { kind[$1] = $2; text[$1] = $3; next }
		{
			number = $2 ~ /^-?[0-9]+$/
			either = text[$1] ~ /\(an ID, or an error\)/
			if (number && !either && kind[$1] != "number")
				print "kind " kind[$1] ", answer " $2 ": " text[$1]
			if (kind[$1] == "number" && !number)
				print "kind number, answer " $2 ": " text[$1]
		}' "$BATS_TEST_TMPDIR/kinds"
	assert_success
	assert_output ""
	# The cases the words of the question once missed.
	grep -q $'\tnumber\tThe cache held 14 nodes. How many are left in it now?' \
		"$BATS_TEST_TMPDIR/kinds"
	grep -q $'\tnumber\tWhich tagged ID will .alloc_tagged t. return?' \
		"$BATS_TEST_TMPDIR/kinds"
}

@test "a question that takes an ID or an error does not ask again for an error" {
	# cyclic's first question: '5' is an answer of its kind, graded.
	run "$IDRSH" -q -c 'lesson cyclic' <<<$'5\n4\n3'
	refute_line --partial "Answer with an error's name"
	assert_line "Wrong: you said 5; the answer is ENOSPC."
}

@test "lesson --check: every lesson still passes" {
	run "$IDRSH" -q -c 'lesson --check'
	assert_success
	refute_output --partial "question "
}

# ----------------------------------------------------------------- help =

@test "help = explains =EXPR, as the footer of help promises" {
	run --separate-stderr "$IDRSH" -q -c 'help ='
	assert_success
	assert_line --index 0 "usage: =EXPR"
	assert_output --partial "Lua expression"
	assert_equal "$stderr" ""
	run --separate-stderr "$IDRSH" -q -c 'help =EXPR'
	assert_success
	assert_line --index 0 "usage: =EXPR"
	# Its example runs as it stands, as every command's does.
	run bash -c '"$1" -q -c "help =" | sed -n "/^example:/,\$ s/^  //p" | "$1" -q' _ "$IDRSH"
	assert_success
	assert_output $'0\na\t1'
}
