#!/usr/bin/env bats
# Bounded and timed views: list A B, list --count N; time COMMAND and
# timer on|off, whose lines have sqlite3's .timer form (never checked
# for their figures).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

RUN_TIME='^Run Time: real [0-9]+\.[0-9]{3} user [0-9]+\.[0-9]{6} sys [0-9]+\.[0-9]{6}$'

@test "list A B: the IDs from A to B, both included, reserved ones too" {
	run "$IDRSH" -c 'alloc_many 10' -c 'lua t:alloc(nil, 20)' \
		-c 'list 8 20' -c 'list 0 0' -c 'list 11 19' -c 'list 21 4294967295'
	assert_success
	assert_output "10 IDs: 0..9
20
8 v
9 v
20 (reserved)
0 v"
}

@test "list --count N: the first N, of a range too; an IDA's IDs" {
	run "$IDRSH" -c 'alloc_many 10' -c 'list --count 2' \
		-c 'list 5 9 --count 3' -c 'list --count 0' -c 'new i --ida' \
		-c 'ida_alloc' -c 'ida_alloc' -c 'ida_alloc' -c 'list 1 2' \
		-c 'list --count 1'
	assert_success
	assert_output "10 IDs: 0..9
0 v
1 v
5 v
6 v
7 v
0
1
2
1
2
0"
}

@test "list on a tagged tree: the tagged IDs, as alloc_tagged gave them; A B bound them" {
	run "$IDRSH" -c 'new c --tagged 8' -c 'alloc_tagged a' -c 'remove_tagged 0' \
		-c 'alloc_tagged b' -c 'alloc_tagged c' -c list -c 'list 256 257' \
		-c 'list 0 1' -c 'list 0 255 --count 1' -c 'find_tagged 256'
	assert_success
	assert_output "0
a
256
1
256 b
1 c
256 b
1 c
1 c
b"
}

@test "list: bad ranges and counts are refused, and list alone lists all" {
	run "$IDRSH" -c 'list 5 1' -c 'list 5' -c 'list --count' \
		-c 'list --count x' -c 'list 1 2 3' -c 'list -1 2' \
		-c 'list 0 4294967296' -c 'alloc a' -c list
	assert_failure 1
	assert_output "idrsh: -c:1: list: bad range 5 1: A must not be above B
idrsh: -c:2: usage: list [A B] [--count N]
idrsh: -c:3: usage: list [A B] [--count N]
idrsh: -c:4: list: bad --count N 'x': not a number
idrsh: -c:5: usage: list [A B] [--count N]
idrsh: -c:6: list: bad A '-1': out of range 0 .. 4294967295
idrsh: -c:7: list: bad B '4294967296': out of range 0 .. 4294967295
0
0 a"
}

@test "time COMMAND: its output, then one Run Time line" {
	run "$IDRSH" -c 'time alloc_many 3' -c 'time count'
	assert_success
	assert_line --index 0 "3 IDs: 0..2"
	assert_line --index 1 --regexp "$RUN_TIME"
	assert_line --index 2 "3"
	assert_line --index 3 --regexp "$RUN_TIME"
	[ "${#lines[@]}" -eq 4 ]
}

@test "time COMMAND fails when COMMAND fails, after its Run Time line" {
	run "$IDRSH" -c 'time find 9' -c 'time' -c 'time bogus'
	assert_failure 1
	assert_line --index 0 --regexp "$RUN_TIME"
	assert_line --index 1 "idrsh: -c:1: time: find: no id 9 (ENOENT)"
	assert_line --index 2 "idrsh: -c:2: usage: time COMMAND..."
	# An unknown command ran nothing: its error only.
	assert_line --index 3 "idrsh: -c:3: time: unknown command 'bogus'; try 'help'"
	[ "${#lines[@]}" -eq 4 ]
}

@test "timer on: a Run Time line after each command; off stops" {
	run "$IDRSH" -c 'timer on' -c 'alloc a' -c 'time count' -c 'timer off' \
		-c 'count'
	assert_success
	assert_line --index 0 "0"
	assert_line --index 1 --regexp "$RUN_TIME"
	assert_line --index 2 "1"
	assert_line --index 3 --regexp "$RUN_TIME"
	# 'timer off' prints no Run Time line of its own, as sqlite3's.
	assert_line --index 4 "1"
	[ "${#lines[@]}" -eq 5 ]
	run "$IDRSH" -c 'timer' -c 'timer maybe'
	assert_failure 1
	assert_output "idrsh: -c:1: usage: timer on|off
idrsh: -c:2: timer: say 'timer on' or 'timer off'"
}

@test "time and timer in JSON: a run_time object of seconds" {
	run --separate-stderr "$IDRSH" --json -c 'time count' -c 'timer on' -c count
	assert_success
	run python3 -c '
import json, sys
for line in sys.stdin:
    v = json.loads(line)
    if isinstance(v, dict):
        t = v["run_time"]
        assert sorted(t) == ["real", "sys", "user"], t
        assert all(isinstance(x, (int, float)) and x >= 0 for x in t.values()), t
        print("run_time")
    else:
        print(v)' <<<"$output"
	assert_success
	assert_output "0
run_time
0
run_time"
}

@test "time times a Lua chunk, and time time prints two lines" {
	run "$IDRSH" -c 'time lua return 1' -c 'time time count'
	assert_success
	assert_line --index 0 "1"
	assert_line --index 2 "0"
	[ "${#lines[@]}" -eq 5 ]
}

@test "time lesson, time quiz, timer on: Run Time after the score, answers graded as without" {
	run -0 bash -c 'printf "2\n65\n10\n" | "$1" -c "time lesson lowest-free"' sh "$IDRSH"
	assert_regex "${lines[-1]}" "$RUN_TIME"
	assert_regex "${lines[-3]}" "^Score: 3 of 3"
	[ "$(printf '%s\n' "$output" | grep -c '^Run Time')" = 1 ]
	run bash -c 'printf "1\n2\n" | "$1" -c "time quiz 2 --seed 1"' sh "$IDRSH"
	assert_regex "${lines[-1]}" "$RUN_TIME"
	assert_regex "${lines[-2]}" "^Score: "
	# timer on: the lesson's own commands are not timed, so their
	# output, the answers, stay as they are.
	run -0 bash -c 'printf "2\n65\n10\n" | "$1" -c "timer on" -c "lesson lowest-free" -c count' sh "$IDRSH"
	assert_line --partial "Score: 3 of 3"
	[ "$(printf '%s\n' "$output" | grep -c '^Run Time')" = 2 ]
	assert_regex "${lines[-1]}" "$RUN_TIME"
}
