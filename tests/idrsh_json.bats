#!/usr/bin/env bats
# JSON output: idr.json (lua/view/json.lua, on dkjson) checked by a
# parser that is not itself (tests/json-lines: Python's json module),
# and idrsh --json / format json: every line of stdout one JSON value,
# every error on stderr one JSON object.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

# Runs Lua code $1 in stock lua5.4 with build/idr.so.
lua_idr() {
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 -e "json = require('idr').json" -e "$1"
}

# The output's lines as Python reads them (repr), or the checker's error.
parsed() {
	printf '%s\n' "$output" | python3 tests/json-lines
}

@test "idr.json: integers exact, NaN null, empty tables, keys sorted" {
	lua_idr 'print(json.encode { b = math.maxinteger, a = 0/0, c = {},
		d = json.object {}, e = 0.5, f = json.null, g = { 1, -2, 3 },
		h = true, i = math.mininteger })'
	assert_success
	run parsed
	assert_success
	assert_output "{'a': None, 'b': 9223372036854775807, 'c': [], 'd': {}, 'e': 0.5, 'f': None, 'g': [1, -2, 3], 'h': True, 'i': -9223372036854775808}"
}

@test "idr.json: an object's integer keys are text, sorted with the rest; a clash or another key is an error" {
	lua_idr 'print(json.encode { 1, x = 2 })
		print(json.encode { [10] = "z", a = { b = 1, [2] = 3 } })
		print(pcall(json.encode, { ["1"] = 1, [1] = 2 }))
		print(pcall(json.encode, { [true] = 1 }))
		print(pcall(json.encode, { [1.5] = 1 }))
		print(json.encode { 1, n = 1.5 }, json.encode(table.pack(1, nil)))'
	assert_success
	assert_output '{"1":1,"x":2}
{"10":"z","a":{"2":3,"b":1}}
false	the JSON key "1" twice
false	a JSON object'"'"'s keys are strings or integers, not boolean
false	a JSON object'"'"'s keys are strings or integers, not float
{"1":1,"n":1.5}	[1,null]'
}

@test "idr.json: floats read back as the same double; whole ones keep .0" {
	lua_idr 'print(json.encode { 2^63, 0.1, 1/3, 2.0, -0.0, 1e300, 2^-1074 })'
	assert_success
	assert_output "[9.223372036854776e+18,0.1,0.3333333333333333,2.0,-0.0,1e+300,4.94065645841247e-324]"
	run python3 -c '
import json, sys
v = json.loads(sys.stdin.read())
assert v == [2.0**63, 0.1, 1/3, 2.0, -0.0, 1e300, 5e-324], v
print("same")' <<<"$output"
	assert_output same
}

@test "idr.json: any bytes: controls escaped, invalid UTF-8 as surrogate escapes" {
	lua_idr 'print(json.encode { "a\0b\n\t\"\\/\127", "é ✓", "\255x\192\128",
		"\237\160\128", "\244\144\128\128" })'
	assert_success
	run parsed
	assert_success
	assert_output "['a\\x00b\\n\\t\"\\\\/\\x7f', 'é ✓', '\\udcffx\\udcc0\\udc80', '\\udced\\udca0\\udc80', '\\udcf4\\udc90\\udc80\\udc80']"
}

@test "idr.json: Python's surrogateescape gives the bytes back" {
	lua_idr 'print(json.encode { v = "\255 \0 \128\129\195\169" })'
	assert_success
	run python3 -c '
import json, sys
v = json.loads(sys.stdin.read())["v"]
print(v.encode("utf-8", "surrogateescape").hex())' <<<"$output"
	assert_success
	assert_output "ff2000208081c3a9"
}

@test "idr.json.script: no <, > or & in the text, same value" {
	lua_idr 'print(json.script { v = "</script><!-- & -->" })'
	assert_success
	[[ "$output" != *[\<\>\&]* ]]
	run parsed
	assert_output "{'v': '</script><!-- & -->'}"
}

@test "idr.json: a cycle or a function is an error, not bad text" {
	lua_idr 'local t = {}; t[1] = t; print(pcall(json.encode, t))'
	assert_output --partial "false"
	lua_idr 'print(pcall(json.encode, { print }))'
	assert_output --partial "false"
}

# {------------------------ idrsh --json ---------------------------

# Each stderr line of the last run (bats' $stderr) as Python reads it:
# every one must be a JSON object with a message and an errno.
errors_parsed() {
	printf '%s\n' "$stderr" | sed '/^$/d' | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    assert isinstance(e, dict) and isinstance(e["message"], str), line
    assert e["errno"] is None or e["errno"].startswith("E"), line
    print(e["errno"], e["message"].splitlines()[0])'
}

# Trees to run a command on: an idr with 100 IDs, a tagged tree, an IDA.
SETUP=(-c 'alloc_many 100' -c 'lua t:alloc(nil, 500)' -c 'mark before'
	-c 'new tg --tagged 16' -c 'alloc_tagged a' -c 'mark before'
	-c 'new i --ida' -c 'ida_alloc' -c 'mark before' -c 'use default')

@test "--json: every command's example, on each kind of tree, prints only JSON lines" {
	local names n example kind
	names=$("$IDRSH" -c help | sed '$d' | awk '{ print $1 }')
	cd "$BATS_TEST_TMPDIR"
	for n in $names; do
		# The command, the example's last line, on trees SETUP made.
		example=$("$TOP/$IDRSH" -c "help $n" | sed -n '/^example:/,$s/^  //p' |
			tail -n 1)
		[ -n "$example" ] || { echo "$n: no example"; return 1; }
		for kind in default tg i; do
			run --separate-stderr "$TOP/$IDRSH" --json "${SETUP[@]}" \
				-c "use $kind" -c 'trace on' -c "$example" -c 'alloc z' \
				-c count </dev/null
			printf '%s\n' "$output" | python3 "$TOP/tests/json-lines" >/dev/null ||
				{ echo "$n on $kind: $example"; echo "$output"; return 1; }
			errors_parsed >/dev/null ||
				{ echo "$n on $kind, stderr: $example"; echo "$stderr"; return 1; }
		done
	done
}

@test "--json: IDs are numbers, values strings, a reserved ID's null" {
	run --separate-stderr "$IDRSH" --json -c 'alloc eth0' -c 'alloc "a b" 70' \
		-c 'lua t:alloc(nil, 5)' -c 'find 0' -c 'find 5' -c 'replace 70 c' \
		-c 'next 1' -c 'remove 0' -c count -c empty -c cursor
	# next skips the reserved ID 5, as idr_get_next() does.
	assert_success
	run parsed
	assert_output "0
70
5
'eth0'
None
'a b'
{'id': 70, 'value': 'c'}
'eth0'
2
False
0"
}

@test "--json: list, with a range and a count; an IDA's list is its IDs" {
	run --separate-stderr "$IDRSH" --json -c 'alloc_many 10' -c list \
		-c 'list 3 5' -c 'list 2 9 --count 2' -c 'list 20 30' \
		-c 'new i --ida' -c 'ida_alloc' -c 'ida_alloc' -c list
	assert_success
	run parsed
	assert_line --index 1 "[{'id': 0, 'value': 'v'}, {'id': 1, 'value': 'v'}, {'id': 2, 'value': 'v'}, {'id': 3, 'value': 'v'}, {'id': 4, 'value': 'v'}, {'id': 5, 'value': 'v'}, {'id': 6, 'value': 'v'}, {'id': 7, 'value': 'v'}, {'id': 8, 'value': 'v'}, {'id': 9, 'value': 'v'}]"
	assert_line --index 2 "[{'id': 3, 'value': 'v'}, {'id': 4, 'value': 'v'}, {'id': 5, 'value': 'v'}]"
	assert_line --index 3 "[{'id': 2, 'value': 'v'}, {'id': 3, 'value': 'v'}]"
	assert_line --index 4 "[]"
	assert_line --index 7 "[0, 1]"
}

@test "--json: stats, path, mem and trees are objects of their fields" {
	run --separate-stderr "$IDRSH" --json -c 'alloc a' -c 'alloc b 70' \
		-c stats -c 'path 70' -c mem -c trees
	assert_success
	run python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
stats, path, mem, trees = lines[2:]
print(stats["ids"], stats["height"], stats["level_nodes"])
print(path["id"], path["end"], path["digits"], path["value"], [s["slot"] for s in path["steps"]])
print(sorted(mem), mem["fail_pending"])
print(trees)' <<<"$output"
	assert_success
	assert_output "2 2 [2, 1]
70 found [1, 6] b [1, 6]
['allocs', 'bytes', 'fail_pending', 'failed', 'frees', 'thread_allocs'] 0
[{'current': True, 'destroyed': False, 'ids': 2, 'kind': 'idr', 'name': 'default', 'rcu': False}]"
}

@test "--json: an RCU tree's mem has its blocks waiting for readers" {
	run --separate-stderr "$IDRSH" --json -c 'new r --rcu' -c 'alloc a' \
		-c 'lua idrsh_keep = true' -c mem
	assert_success
	run python3 -c '
import json, sys
mem = json.loads(sys.stdin.read().splitlines()[-1])
print(sorted(mem["rcu"]))' <<<"$output"
	assert_output "['bytes', 'pending']"
}

@test "--json: check and untag of tagged IDs, live, stale and free" {
	run --separate-stderr "$IDRSH" --json -c 'new g --tagged 8' \
		-c 'alloc_tagged x' -c 'check 0' -c 'remove_tagged 0' -c 'check 0' \
		-c 'check 1' -c 'untag 256'
	assert_success
	run parsed
	assert_line --index 1 "{'gen': 0, 'id': 0, 'slot_free': False, 'slot_gen': 0, 'state': 'live'}"
	assert_line --index 3 "{'gen': 0, 'id': 0, 'slot_free': True, 'slot_gen': 1, 'state': 'stale'}"
	assert_line --index 4 "{'gen': 0, 'id': 1, 'slot_free': True, 'slot_gen': 0, 'state': 'free'}"
	assert_line --index 5 "{'gen': 1, 'id': 0}"
}

@test "--json: diff is the list of changes, bitmaps in hex; trace events one a line" {
	run --separate-stderr "$IDRSH" --json -c 'alloc a' -c mark -c diff \
		-c 'alloc b' -c 'replace 0 z' -c diff -c 'trace on' -c 'alloc c'
	assert_success
	run parsed
	assert_line --index 2 "[]"
	assert_line --index 5 "[{'change': 'bits', 'first': 0, 'full_cleared': [], 'full_set': [1], 'last': 63, 'level': 0, 'present_cleared': [], 'present_set': [1]}, {'change': 'replaced', 'from': 'a', 'id': 0, 'to': 'z'}, {'change': 'added', 'id': 1, 'value': 'b'}]"
	assert_line --index 6 "{'trace': {'end': 0, 'event': 'op', 'height': 1, 'op': 'alloc', 'start': 0}}"
	assert_line --index 8 "{'trace': {'event': 'slot-set', 'first': 0, 'full': '0000000000000003', 'height': 1, 'last': 63, 'level': 0, 'slot': 2}}"
	assert_line --index 11 "2"
}

@test "--json: = gives doubles exactly; NaN and infinities as tostring() gives them" {
	run --separate-stderr "$IDRSH" --json -c '=2^63, 1/0, -1/0, 0.1'
	assert_success
	assert_output '[9.223372036854776e+18,"inf","-inf",0.1]'
}

@test "--json: alloc_many is its IDs, pre_get and preload their node counts" {
	run --separate-stderr "$IDRSH" --json -c 'alloc_many 3' -c 'alloc_many 2 10' \
		-c 'alloc_many 0' -c pre_get -c preload -c preload_end
	assert_success
	assert_output "[0,1,2]
[10,11]
[]
14
10"
}

@test "--json: an op event has start and end for an allocation, id for one ID, as idrsh(1) says" {
	run --separate-stderr "$IDRSH" --json -c 'trace on' -c 'alloc a 3 9' \
		-c 'find 3' -c pre_get
	assert_success
	run python3 -c '
import json, sys
for line in sys.stdin:
    v = json.loads(line)
    if isinstance(v, dict) and v["trace"]["event"] == "op":
        t = v["trace"]
        print(t["op"], sorted(k for k in ("start", "end", "id") if k in t))' <<<"$output"
	assert_output "alloc ['end', 'start']
find ['id']
pre_get []"
}

@test "--json: a command with no shape of its own gives its text; format says which" {
	run --separate-stderr "$IDRSH" --json -c 'alloc a' -c dump -c format \
		-c 'format text' -c count -c format
	assert_success
	assert_line --index 1 '{"text":"idr: 1 ID, height 1, 1 node\nL0 0..63  1/64\n  #...............................................................\n  0:a\n"}'
	assert_line --index 2 '"json"'
	assert_line --index 3 '1'
	assert_line --index 4 'text'
}

@test "--json: help is the commands' records, mark its snapshot, record save the file" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$TOP/$IDRSH" --json -c 'help count' -c 'help alloc' \
		-c help -c 'alloc a' -c 'mark m' -c 'record on' -c 'alloc b' \
		-c 'record save r.html'
	assert_success
	run python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
print(lines[0])
print(sorted(lines[1]), lines[1]["args"], lines[1]["example"])
print(lines[2][0], lines[2][-1]["name"])
print(lines[4])
print(lines[6])' <<<"$output"
	assert_output "{'args': '', 'example': 'count', 'help': 'print how many IDs are allocated', 'name': 'count', 'text': None}
['args', 'example', 'help', 'name', 'text'] VALUE [START [END]] alloc eth0 5 30
{'args': 'NAME [--base N] [--tagged BITS [--retire]] [--rcu] [--ida]', 'help': 'make a tree (or an IDA) and switch to it', 'name': 'new'} .quit
{'height': 1, 'ids': 1, 'mark': 'm', 'nodes': 1, 'tree': 'default'}
{'wrote': {'file': 'r.html', 'frames': 1}}"
}

@test "--json: save, load and import: the trees, their IDs, the file" {
	cd "$BATS_TEST_TMPDIR"
	printf '3 a\n5\n# skipped\n9 b c\n' >ids
	run --separate-stderr "$TOP/$IDRSH" --json -c 'new t' -c 'alloc x' \
		-c 'new i --ida' -c 'ida_alloc' -c 'ida_alloc' -c 'save s.idr' \
		-c 'save t.idr t' -c 'load --replace s.idr' -c 'use t' -c 'import ids'
	assert_success
	cd "$TOP"
	run parsed
	assert_output "0
0
1
{'current': 'i', 'file': 's.idr', 'saved': 3, 'trees': ['default', 'i', 't']}
{'current': 't', 'file': 't.idr', 'saved': 1, 'trees': ['t']}
{'current': 'i', 'file': 's.idr', 'loaded': 3, 'trees': [{'ids': 0, 'name': 'default'}, {'ids': 2, 'name': 'i'}, {'ids': 1, 'name': 't'}]}
{'cursor': None, 'ids': [3, 5, 9], 'imported': 3}"
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$TOP/$IDRSH" --json --load t.idr -c count
	assert_output '{"current":"t","file":"t.idr","loaded":1,"trees":[{"ids":1,"name":"t"}]}
1'
}

@test "import: a list longer than 64 MiB is refused, read no further" {
	truncate -s $((64 * 1024 * 1024 + 1)) "$BATS_TEST_TMPDIR/big"
	run --separate-stderr "$IDRSH" --json -c "import $BATS_TEST_TMPDIR/big" -c count
	assert_failure 1
	assert_output 0
	run errors_parsed
	assert_output "None import: $BATS_TEST_TMPDIR/big: longer than 67108864 bytes"
}

@test "--json: 'lesson' is the course: each lesson's number, name, title, done; and the next" {
	mkdir -p "$HOME/.local/state/idrsh"
	printf 'lookup\n' >"$HOME/.local/state/idrsh/lessons-done"
	run --separate-stderr "$IDRSH" --json -c lesson
	assert_success
	run python3 -c '
import json, sys
c = json.loads(sys.stdin.read())
print(sorted(c), c["next"], len(c["lessons"]))
print(c["lessons"][0])
print(c["lessons"][1]["done"], [l["n"] for l in c["lessons"]][:3])' <<<"$output"
	assert_output "['lessons', 'next'] lowest-free 14
{'done': False, 'n': 1, 'name': 'lowest-free', 'title': 'The lowest free ID, found through full bitmaps'}
True [1, 2, 3]"
}

# The key of each line of a lesson's JSON (the last run's), and the
# graded answers.
lesson_steps() {
	printf '%s\n' "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    v = json.loads(line)
    assert isinstance(v, dict) and len(v) == 1, line
    (k, x), = v.items()
    if k == "graded":
        print(k, x["number"], x["given"], x["right"], x["answer"], x["output"].strip())
    elif k in ("question", "score", "course", "lesson", "unanswered", "ask_again"):
        print(k, json.dumps(x, sort_keys=True))
    else:
        print(k)'
}

@test "--json: a lesson is one object a step, its commands run as text, its answers graded as in text" {
	printf 'trace on\nlesson 1\n2\n?\n65\n9\n' >"$BATS_TEST_TMPDIR/in"
	run --separate-stderr "$IDRSH" --json <"$BATS_TEST_TMPDIR/in"
	assert_failure 1
	run lesson_steps
	assert_success
	assert_output 'lesson {"name": "lowest-free", "questions": 3, "title": "The lowest free ID, found through full bitmaps"}
readers_off
paragraph
paragraph
run
run
paragraph
run
run
question {"kind": "number", "number": 1, "of": 3, "text": "Which ID will '"'alloc a'"' return now?"}
graded 1 2 True 2 2
paragraph
paragraph
run
run
question {"kind": "number", "number": 2, "of": 3, "text": "Which ID will '"'alloc b'"' return now?"}
ask_again {"kind": "number", "number": 2}
graded 2 65 True 65 65
paragraph
run
question {"kind": "number", "number": 3, "of": 3, "text": "Which ID will '"'alloc c'"' return now?"}
graded 3 9 False 10 10
paragraph
score {"answered": 3, "right": 2, "total": 3}
course {"done": false, "lesson": "lowest-free", "next": "lowest-free"}'
	printf '0\n' >"$BATS_TEST_TMPDIR/ans"
	run --separate-stderr "$IDRSH" --json -c "lesson 1 --answers $BATS_TEST_TMPDIR/ans" -c count
	assert_failure 1
	assert_line --index 0 --partial '{"lesson":'
	assert_line --index 1 --partial '{"paragraph":"An idr hands out'
	assert_line --index 3 '{"run":{"command":"alloc_many 5","ok":true,"output":"5 IDs: 0..4\n","times":1}}'
	assert_line --index -4 '{"unanswered":{"number":2,"why":"the answers in '"$BATS_TEST_TMPDIR"'/ans ended"}}'
	assert_line --index -3 '{"score":{"answered":1,"right":0,"total":3}}'
	assert_line --index -2 '{"course":{"done":false,"lesson":"lowest-free","next":"lowest-free"}}'
	assert_line --index -1 0
}

@test "--json: a quiz's steps as a lesson's; an answer of the wrong kind; --check and --html" {
	printf 'quiz 1 --seed 3\n24\n' >"$BATS_TEST_TMPDIR/in"
	run --separate-stderr "$IDRSH" --json <"$BATS_TEST_TMPDIR/in"
	assert_success
	run lesson_steps
	assert_line --index 0 'lesson {"name": "quiz", "questions": 1, "title": "Quiz: 1 question, seed 3"}'
	assert_line --index 1 run
	assert_line --index -2 'graded 1 24 True 24 24'
	assert_line --index -1 'score {"answered": 1, "right": 1, "total": 1}'
	cd "$BATS_TEST_TMPDIR"
	printf 'title: T\n> alloc a\n? Is ID 0 in use (yes or no)?\n= find 0 | has a\n! It is.\n' >yn.lesson
	printf 'lesson yn.lesson\nmaybe\nq\n' >in
	run --separate-stderr "$TOP/$IDRSH" --json <in
	assert_failure 1
	run lesson_steps
	assert_output 'lesson {"name": "yn.lesson", "questions": 1, "title": "T"}
run
question {"kind": "yes or no", "number": 1, "of": 1, "text": "Is ID 0 in use (yes or no)?"}
ask_again {"kind": "yes or no", "number": 1}
unanswered {"number": 1, "why": "you typed q"}
score {"answered": 0, "right": 0, "total": 1}'
	run --separate-stderr "$TOP/$IDRSH" --json -c 'lesson 2 --check' \
		-c 'lesson 2 --html l.html'
	assert_success
	assert_output '{"check":{"lesson":"lookup","problems":[],"questions":4}}
{"wrote":{"file":"l.html","frames":12,"questions":4}}'
}

@test "--json: errors on stderr are objects with the errno and the message" {
	run --separate-stderr "$IDRSH" --json -c 'find 9' -c 'alloc x 5 6' \
		-c 'alloc y 5 6' -c 'list 9 1' -c 'bogus' -c 'lua error("boom")'
	assert_failure 1
	assert_output 5
	run errors_parsed
	assert_success
	assert_output "ENOENT find: no id 9 (ENOENT)
ENOSPC alloc: no free id in [5, 6) (ENOSPC)
None list: bad range 9 1: A must not be above B
None unknown command 'bogus'; try 'help'
None lua: lua:1: boom"
}

@test "--json: a value of any bytes: stdout stays UTF-8 JSON, the bytes come back" {
	run --separate-stderr "$IDRSH" --json -c 'lua t:alloc("\255\0\n\"<é")' -c list
	assert_success
	run python3 -c '
import json, sys
for line in sys.stdin.buffer:
    v = json.loads(line.decode("utf-8"))
print(v[0]["value"].encode("utf-8", "surrogateescape").hex())' <<<"$output"
	assert_success
	assert_output "ff000a223cc3a9"
}

@test "--json: text output is unchanged without it" {
	run "$IDRSH" -c 'alloc a' -c 'lua t:alloc(nil)' -c list -c 'find 1' -c count
	assert_output "0
1
0 a
1 (reserved)
(reserved)
2"
}

@test "text: a byte that is no valid UTF-8 is \\ddd in list, find and dump alike, as NUL is" {
	run "$IDRSH" -c 'lua t:alloc("a\255\0b")' -c 'lua t:alloc("é✓")' \
		-c 'lua t:alloc("x\195")' -c list -c 'find 0' -c dump
	assert_success
	assert_line --index 3 '0 "a\255\000b"'
	assert_line --index 4 '1 é✓'
	assert_line --index 5 '2 "x\195"'
	assert_line --index 6 '"a\255\000b"'
	assert_line --index 10 '  0:"a\255\000b" 1:é✓ 2:"x\195"'
}

@test "text: list and dump escape the same bytes: a stray continuation byte after a valid character is that byte alone" {
	run "$IDRSH" -c 'lua t:alloc("\240\159\152\128\128x")' \
		-c 'lua t:alloc("\226\156\147\128 ")' -c 'lua t:alloc("\244\144\128\128")' \
		-c list -c dump
	assert_success
	assert_line --index 3 $'0 "\xf0\x9f\x98\x80\\128x"'
	assert_line --index 4 $'1 "\xe2\x9c\x93\\128 "'
	assert_line --index 5 '2 "\244\144\128\128"'
	assert_line --index 9 $'  0:"\xf0\x9f\x98\x80\\128x" 1:"\xe2\x9c\x93\\128 " 2:'"\"\\244\\144\\128\\128\""
}

# }----------------------------------------------------------------

# {---------------------- The shell from Lua ------------------------

@test "idrsh.run: a command's output as a string, and true" {
	run "$IDRSH" -c 'alloc a' -c 'alloc b 70' \
		-c 'lua local s, ok = idrsh.run("list 0 70"); io.write(#s, " ", tostring(ok), "\n", s)'
	assert_success
	assert_output "0
70
9 true
0 a
70 b"
}

@test "idrsh.run: a failure is false and the message, printed nowhere" {
	run --separate-stderr "$IDRSH" -c 'lua print(select("#", idrsh.run("find 9")), idrsh.run("find 9"))'
	assert_success
	assert_output $'3\t\tfalse\tfind: no id 9 (ENOENT)'
	[ -z "$stderr" ]
}

@test "idrsh.run: in JSON format, JSON; a chunk's print is its text" {
	run "$IDRSH" -c 'lua idrsh.run("format json"); local s = idrsh.run("lua print(1) return 2"); idrsh.run("format text"); io.write("[", s, "]\n")'
	assert_success
	assert_output '[{"text":"1\n"}
2
]'
}

@test "idrsh.run: keeps what a chunk or a sourced .lua file prints" {
	printf 'print("p", 1)\nio.write("w")\nio.stdout:write(2.5, "\\n")\n' >"$BATS_TEST_TMPDIR/p.lua"
	run "$IDRSH" -c 'lua s, ok = idrsh.run("lua print(42)")' -c '=#s, s, ok' \
		-c "lua s = idrsh.run('source $BATS_TEST_TMPDIR/p.lua')" -c '="[" .. s .. "]"'
	assert_success
	assert_output $'3\t42\n\ttrue\n[p\t1\nw2.5\n]'
}

@test "--json: what Lua prints is {\"text\": ...} lines, io.write's too" {
	run --separate-stderr "$IDRSH" --json -c 'lua local _ = io.write("x")' \
		-c count -c 'lua print("a", 1); io.stdout:write("b")' -c '=1' \
		-e 'print(2)'
	assert_success
	run parsed
	assert_success
	assert_output "{'text': 'x'}
0
{'text': 'a\\t1\\nb'}
1
{'text': '2\\n'}"
}

@test "idrsh.run: changes what it runs, nests, takes a number as a string, refuses a table" {
	run "$IDRSH" -c 'lua local _ = idrsh.run("alloc_many 5")' -c count \
		-c 'lua print((idrsh.run([[lua return (idrsh.run("count"))]])))' \
		-c 'lua print(idrsh.run(5))' -c 'lua idrsh.run({})'
	assert_failure 1
	assert_line --index 0 5
	assert_line --index 1 5
	assert_line --index 2 $'\tfalse\tunknown command \'5\'; try \'help\''
	assert_line --index 3 "idrsh: -c:5: lua: bad argument #1 to 'run' (string expected, got table)"
}

@test "idrsh.run: lines separated by newlines run in order, a chunk over several" {
	run "$IDRSH" -c 'lua print(idrsh.run("alloc a\nfind 9\nlua for i = 1, 2 do\nprint(i)\nend\nalloc b"))' \
		-c list
	assert_success
	assert_output $'0\n1\n2\n1\n\tfalse\tfind: no id 9 (ENOENT)\n0 a\n1 b'
}

@test "idrsh.run: quit, and a lesson or quiz waiting for answers, are refused" {
	run "$IDRSH" -c 'lua local _ = idrsh.run("quit")' \
		-c 'lua local _ = idrsh.run("quiz 3")' \
		-c 'lua local _ = idrsh.run("time lesson 1")' -c trees -c 'alloc a'
	assert_failure 1
	assert_output "idrsh: -c:1: lua: lua:1: bad argument #1 to 'run' ('quit' would end the shell; return from the chunk, or call os.exit)
stack traceback:
	lua:1: in main chunk
idrsh: -c:2: lua: lua:1: bad argument #1 to 'run' ('quiz 3' waits for answers at the prompt; run it there, or give it --answers FILE)
stack traceback:
	lua:1: in main chunk
idrsh: -c:3: lua: lua:1: bad argument #1 to 'run' ('time lesson 1' waits for answers at the prompt; run it there, or give it --answers FILE)
stack traceback:
	lua:1: in main chunk
* default      idr    0 ids
0"
}

@test "idrsh.run: a lesson with its answers: each echo 'idr> CMD' before the command's output" {
	printf '0\n' >"$BATS_TEST_TMPDIR/ans"
	run "$IDRSH" -c "lesson 1 --answers $BATS_TEST_TMPDIR/ans"
	local direct=$output
	run "$IDRSH" -c "lua local _ = io.write((idrsh.run('lesson 1 --answers $BATS_TEST_TMPDIR/ans')))"
	assert_output "$direct"
	assert_output --partial $'idr> alloc_many 5\n5 IDs: 0..4\n'
}

@test "idrsh.run: stock lua5.4's module has no shell" {
	lua_idr 'print(idrsh)'
	assert_output nil
}

# }----------------------------------------------------------------

@test "lesson --check: a yes or no question stated as a fact first, in a paragraph or its own text" {
	cd "$BATS_TEST_TMPDIR"
	printf 'title: T\n> alloc a\nThe tree has ID 0 in use now.\n\n? Is ID 0 in use (yes or no)?\n= find 0 | has a\n! It is.\n\n? ID 1 is free. Is ID 1 free (yes or no)?\n= find 1 | has ENOENT\n! Free.\n\n? Is ID 2 free (yes or no)?\n= path 2 | has L0\n! Free.\n' >yn.lesson
	run --separate-stderr "$TOP/$IDRSH" --json -c 'lesson yn.lesson --check'
	assert_failure 1
	assert_output '{"check":{"lesson":"yn.lesson","problems":[{"number":1,"text":"its question is stated as a fact in the paragraph at line 3 (\"The tree has ID 0 in use now.\")"},{"number":2,"text":"its question is stated as a fact in its own text: \"ID 1 is free.\""}],"questions":3}}'
}
