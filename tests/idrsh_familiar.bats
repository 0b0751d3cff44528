#!/usr/bin/env bats
# idrsh as the shells its users know (lua5.4, sqlite3, python3,
# redis-cli) behave: issue 14.  Batch mode here; the terminal's side is
# in idrsh_interactive.bats.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

idrsh_lines() {
	run --separate-stderr "$IDRSH" < <(printf '%s\n' "$@")
}

# ---------------------------------------------------------- kinds of tree

# ... and its generations, as idr_destroy(): ID 3's next tag is of
# generation 1 (1 << 4 | 3), so the tag 3 handed out before stays stale.
@test "destroy keeps the kind and base of a tree made in Lua" {
	idrsh_lines "lua trees.g = idr.new{tagged={id_bits=4}, base=3}" \
		"use g" "alloc_tagged a" destroy trees "alloc_tagged b" \
		"lua print(t:info().base, t:info().tagged.id_bits)"
	assert_success
	assert_output "3
  default      idr    0 ids
* g            tagged 0 ids
19
3	4"
}

@test "a tree's kind is what the binding says, also for a destroyed one" {
	idrsh_lines "lua trees.a = idr.ida(); trees.u = idr.new{tagged={id_bits=8}}" \
		"lua trees.u:destroy()" trees
	assert_success
	assert_line "  a            ida    0 ids"
	assert_line "  u            tagged destroyed"
}

# ------------------------------------------------- every ID is usable

@test "IDs above 2^31: find, remove, replace, path, next, list" {
	idrsh_lines "alloc_u32 x 4294967295 4294967295" "alloc_u32 y 3000000000 4294967295" \
		"find 4294967295" "replace 0xffffffff z" "next 2147483648" list \
		"path 4294967295" "remove 4294967295" "remove 3000000000" count
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 4294967295
	assert_line --index 1 3000000000
	assert_line --index 2 x
	assert_line --index 3 x
	assert_line --index 4 "3000000000 y"
	assert_line --index 5 "3000000000 y"
	assert_line --index 6 "4294967295 z"
	assert_line "found: the ID is allocated"
	assert_line --index -3 z
	assert_line --index -2 y
	assert_line --index -1 0
}

@test "list on an IDA lists its IDs" {
	idrsh_lines "new i --ida" ida_alloc "ida_alloc 7" "ida_alloc 7" list
	assert_success
	assert_output "0
7
8
0
7
8"
}

# ------------------------------------------ messages that agree

@test "a sign is allowed: +1 is 1, -0 is 0; END -1 means no limit" {
	idrsh_lines "alloc a" "alloc b" "find +1" "find -0" "alloc c 5 -1" \
		"alloc d 0x10 -0x1" "find +0x10"
	assert_success
	assert_output "0
1
b
a
5
16
d"
}

@test "an empty range says so, keeping ENOSPC" {
	idrsh_lines "alloc a 10 5"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: alloc: no free id in [10, 5): the range is empty (ENOSPC)"
}

@test "new: --tagged's range is 1 .. 30 in both messages; an all-digit name" {
	idrsh_lines "new a --tagged 31" "new a --tagged 0" "new 123"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: new: bad BITS '31': out of range 1 .. 30
idrsh: <stdin>:2: new: bad BITS '0': out of range 1 .. 30
idrsh: <stdin>:3: new: bad NAME '123': a letter or _, then letters, digits, _ . - (64 at most)"
}

@test "stats on an empty tree says none, not -1 and 0.000; trees says 1 id" {
	idrsh_lines stats "alloc a" trees
	assert_success
	assert_line "lowest ID: none"
	assert_line "highest ID: none"
	assert_line "bytes per ID: none"
	refute_output --partial -- "-1"
	assert_line "* default      idr    1 id"
}

@test "help dump says two lines a node" {
	run -0 "$IDRSH" -c "help dump"
	assert_line --partial "two lines a node"
	refute_output --partial "one line per node"
}

# ------------------------------------------------ Lua as lua5.4 does it

@test "lua prints what a chunk returns; a bare expression is returned" {
	idrsh_lines "lua return 5" "lua 1+1" 'lua t:alloc("x")' "lua x = 3" \
		"lua print(x)" "lua return" "lua return 1, nil, 'a b'"
	assert_success
	assert_output "5
2
0
3
1	nil	a b"
}

@test "tables are shown readably: sorted, bounded, cycle-safe" {
	idrsh_lines '={1,2,3}' '={b=1, a={"x\ny"}, [10]=true, ["end"]=0}' \
		'lua c = {} c.self = c return c' '=t:path(0)' \
		'lua s = {} for i = 1, 100 do s[i] = i end return s' \
		'={{{{{1}}}}}' '=trees'
	assert_success
	assert_line --index 0 "{1, 2, 3}"
	assert_line --index 1 '{[10] = true, a = {"x\ny"}, b = 1, ["end"] = 0}'
	assert_line --index 2 "{self = {<cycle>}}"
	assert_line --index 3 '{digits = {0}, ["end"] = "empty", height = 0, id = 0, index = 0, steps = {}}'
	assert_line --index 4 --regexp '^\{1, 2, 3, .*, 30, \.\.\.\}$'
	assert_line --index 5 "{{{{{...}}}}}"
	assert_line --index 6 --regexp '^\{default = idr'
	refute_output --partial "table: 0x"
}

@test "a wide table shows a field a line" {
	idrsh_lines 'alloc a' '=t:stats()'
	assert_success
	assert_line --index 1 "{"
	assert_line "  ids = 1,"
	assert_line "  level_nodes = {1},"
	assert_line --index -1 "}"
}

@test "t follows the current tree until a chunk assigns it; trees.current" {
	idrsh_lines 'lua t = idr.new(); t:alloc("x")' '=#t, #trees.current' \
		"new b" "alloc y" "alloc z" '=#t, #trees.current' \
		"lua t = nil" "use b" '=t, #trees.current' "new current"
	assert_failure 1
	assert_output "1	0
0
1
1	2
nil	2"
	assert_equal "$stderr" "idrsh: <stdin>:10: new: 'current' is reserved: trees.current is the current tree"
}

@test "t still follows use and new while it is not assigned" {
	idrsh_lines "alloc a" "new b" '=#t' "use default" '=#t'
	assert_success
	assert_output "0
0
1"
}

@test "an error in a chunk prints a stack traceback, as lua5.4 does" {
	printf 'local function inner()\n\terror("deep")\nend\ninner()\n' > "$BATS_TEST_TMPDIR/tb.lua"
	idrsh_lines 'lua function f() error("boom") end' 'lua f(); return 1' \
		"source $BATS_TEST_TMPDIR/tb.lua"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:2: lua: lua:1: boom
stack traceback:
	[C]: in function 'error'
	lua:1: in function 'f'
	lua:1: in main chunk
idrsh: <stdin>:3: source: $BATS_TEST_TMPDIR/tb.lua:2: deep
stack traceback:
	[C]: in function 'error'
	$BATS_TEST_TMPDIR/tb.lua:2: in local 'inner'
	$BATS_TEST_TMPDIR/tb.lua:4: in main chunk"
}

@test "an error in __tostring while printing is an error, not an internal one" {
	idrsh_lines '=setmetatable({}, {__tostring = function() error("ts") end})' \
		'lua return setmetatable({}, {__tostring = function() error("ts") end})' count
	assert_failure 1
	assert_output "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: cannot show the result: expr:1: ts
idrsh: <stdin>:2: lua: cannot show the result: lua:1: ts"
}

# ------------------------------------------------------ here-documents

@test "a here-document is one chunk; its errors name file and line" {
	printf '%s\n' 'alloc a' 'lua <<EOF' 'local n = 0' 'for id in t:pairs() do' \
		'  n = n + 1' 'end' 'return n' 'EOF' 'lua <<END' 'local x = 1' \
		'error("inside")' 'END' count > "$BATS_TEST_TMPDIR/h.idrsh"
	run --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR/h.idrsh"
	assert_failure 1
	assert_output "0
1
1"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/h.idrsh:9: lua: $BATS_TEST_TMPDIR/h.idrsh:11: inside
stack traceback:
	[C]: in function 'error'
	$BATS_TEST_TMPDIR/h.idrsh:11: in main chunk"
}

@test "a here-document on standard input and in -c; a missing end word" {
	idrsh_lines "lua <<X" "function sq(n)" "  return n * n" "end" "X" "=sq(7)" \
		"lua <<Y" "return 1"
	assert_failure 1
	assert_output "49"
	assert_equal "$stderr" "idrsh: <stdin>:7: lua: no line 'Y' ends the here-document"
	run -0 "$IDRSH" -c $'lua <<E\nreturn 2 + 2\nE'
	assert_output "4"
}

@test "outside the terminal an unfinished chunk fails on its own line" {
	idrsh_lines "lua function f(n)" "count"
	assert_failure 1
	assert_output "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: lua: lua:1: 'end' expected near <eof>"
}

# --------------------------------------------------- manners of a shell

@test "exit, .quit leave; .help and ? are help" {
	run -0 "$IDRSH" -c exit -c count
	assert_output ""
	run -0 "$IDRSH" -c .quit -c count
	assert_output ""
	run -0 "$IDRSH" -c '.help find'
	assert_line --index 0 "usage: find ID"
	run -0 "$IDRSH" -c '? find'
	assert_line --index 0 "usage: find ID"
	run -0 "$IDRSH" -c '.help'
	assert_line --regexp '^exit +the same as quit$'
}

@test "an unknown command or help topic gets 'did you mean'" {
	idrsh_lines "fnd 0" "help alocc" "xyzzy" "quti"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: unknown command 'fnd'; did you mean 'find'?
idrsh: <stdin>:2: help: no command 'alocc'; did you mean 'alloc'?
idrsh: <stdin>:3: unknown command 'xyzzy'; try 'help'
idrsh: <stdin>:4: unknown command 'quti'; did you mean 'quit'?"
}

@test "a command's or help topic's first letters get 'did you mean' too" {
	idrsh_lines "help alloc_cyc" "alloc_cyc a" "help ida_al" "help les" "help a"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: help: no command 'alloc_cyc'; did you mean 'alloc_cyclic'?
idrsh: <stdin>:2: unknown command 'alloc_cyc'; did you mean 'alloc_cyclic'?
idrsh: <stdin>:3: help: no command 'ida_al'; did you mean 'ida_alloc'?
idrsh: <stdin>:4: help: no command 'les'; did you mean 'lesson'?
idrsh: <stdin>:5: help: no command 'a'"
}

@test "# starts a comment after a command, not in quotes or a word" {
	idrsh_lines "alloc a # the first" 'alloc "b # c"' "alloc d#e" "count # 3" list \
		'lua return #"abc" # not a comment in Lua'
	assert_failure 1
	assert_output "0
1
2
3
0 a
1 \"b # c\"
2 d#e"
	assert_equal "$stderr" "idrsh: <stdin>:6: lua: lua:1: <eof> expected near '#'"
}

@test "cursor shows and sets alloc_cyclic's cursor" {
	idrsh_lines cursor "alloc_cyclic a" cursor "cursor 4000000000" cursor \
		"cursor 10" "alloc_cyclic b" "cursor 4294967296"
	assert_failure 1
	assert_output "0
0
1
4000000000
10"
	assert_equal "$stderr" "idrsh: <stdin>:8: cursor: bad N '4294967296': out of range 0 .. 4294967295"
}

@test "preload and preload_end exist, with what stats reports" {
	idrsh_lines preload stats preload_end stats
	assert_success
	assert_line --index 0 --regexp '^preloaded nodes: [1-9][0-9]*$'
	n=${lines[0]#preloaded nodes: }
	assert_line "preloaded nodes: $n"
	assert_line --index -1 "highest ID: none"
	run -0 "$IDRSH" -c preload -c preload_end -c stats
	assert_line "preloaded nodes: 0"
}

@test "pre_get says how many nodes the cache holds" {
	idrsh_lines pre_get
	assert_success
	assert_output --regexp '^cached nodes: [1-9][0-9]*$'
}

@test "fail with no argument, and mem, show the allocations set to fail" {
	idrsh_lines fail "fail 3" fail "alloc a" fail mem "fail 0" fail
	assert_failure 1
	assert_line --index 0 "allocations set to fail: 0"
	assert_line --index 1 "allocations set to fail: 3"
	assert_line --index 2 "allocations set to fail: 2"
	assert_line "fail_pending: 2"
	assert_line "failed: 1"
	assert_line --index -1 "allocations set to fail: 0"
}
