#!/usr/bin/env bats
# idrsh in batch mode: commands, options, errors, exit codes.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

# Runs idrsh on the lines given, as standard input.
idrsh_lines() {
	run --separate-stderr "$IDRSH" < <(printf '%s\n' "$@")
}

# ---------------------------------------------------------------- options

@test "--version prints the version on stdout and exits 0" {
	run --separate-stderr "$IDRSH" --version
	assert_success
	assert_line --index 0 "idrsh (idr) 0.2.0"
	assert_equal "$stderr" ""
}

@test "-V is --version" {
	run -0 "$IDRSH" -V
	assert_line --index 0 "idrsh (idr) 0.2.0"
}

@test "--help prints usage on stdout and exits 0" {
	run --separate-stderr "$IDRSH" --help
	assert_success
	assert_line --index 0 "Usage: idrsh [OPTION]... [SCRIPT [ARG]...]"
	assert_line --partial "--bail"
	assert_line --partial "--color=WHEN"
	assert_equal "$stderr" ""
}

@test "an unknown option is a usage error: exit 2 and a hint" {
	run --separate-stderr "$IDRSH" --bogus
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "idrsh: unrecognized option '--bogus'
Try 'idrsh --help'."
}

@test "-c without its argument is a usage error" {
	run -2 "$IDRSH" -c
	assert_line "Try 'idrsh --help'."
}

@test "--color with a bad value is a usage error" {
	run -2 --separate-stderr "$IDRSH" --color=sometimes
	assert_equal "$stderr" "idrsh: invalid --color: sometimes
Try 'idrsh --help'."
}

@test "--html with an empty file name is a usage error before any command runs" {
	run -2 --separate-stderr "$IDRSH" --html= -c 'alloc a'
	assert_equal "$output" ""
	assert_equal "$stderr" "idrsh: --html needs a file name
Try 'idrsh --help'."
}

@test "--load with an empty file name, and --batch with --interactive, are usage errors" {
	run -2 --separate-stderr "$IDRSH" --load= -c 'alloc a'
	assert_equal "$output" ""
	assert_equal "$stderr" "idrsh: --load needs a file name
Try 'idrsh --help'."
	run -2 --separate-stderr "$IDRSH" --interactive --batch <<<"alloc a"
	assert_equal "$output" ""
	assert_equal "$stderr" "idrsh: give --batch or --interactive, not both
Try 'idrsh --help'."
	# The same one twice says the same thing: no conflict.
	run -0 "$IDRSH" -q --batch --batch <<<"alloc a"
	assert_output "0"
}

@test "-c runs commands in order and does not read stdin" {
	run --separate-stderr "$IDRSH" -c 'alloc a' -c 'alloc b' -c list <<<"alloc c"
	assert_success
	assert_equal "$output" "0
1
0 a
1 b"
}

@test "-e runs Lua with t and trees in scope, in order with -c" {
	run -0 "$IDRSH" -c 'alloc a' -e 'print(#t, t:find(0), trees.default == t)' -c count
	assert_output "0
1	a	true
1"
}

@test "-e with a Lua error reports it and exits 1" {
	run -1 --separate-stderr "$IDRSH" -e 'error("boom")'
	assert_equal "$stderr" "idrsh: -e:1: boom
stack traceback:
	[C]: in function 'error'
	-e:1: in main chunk"
}

@test "-e with a syntax error reports it and exits 1" {
	run -1 --separate-stderr "$IDRSH" -e 'x ='
	assert_equal "$stderr" "idrsh: -e:1: unexpected symbol near <eof>"
}

@test "-c errors are named -c:LINE" {
	run -1 --separate-stderr "$IDRSH" -c 'find 3'
	assert_equal "$stderr" "idrsh: -c:1: find: no id 3 (ENOENT)"
}

@test "a tagged idr's missing ID names the ID read and the value given" {
	run -1 --separate-stderr "$IDRSH" -q -c 'new tg --tagged 4' \
		-c 'alloc x' -c 'find 63' -c 'remove 5'
	assert_equal "$stderr" "idrsh: -c:3: find: no id 15 (tagged 63) (ENOENT)
idrsh: -c:4: remove: no id 5 (ENOENT)"
}

@test "-i reads stdin after -c" {
	run -0 "$IDRSH" -c 'alloc a' -i <<<"count"
	assert_output "0
1"
}

@test "-q and --batch: no banner, no prompt" {
	run -0 "$IDRSH" -q --batch <<<"count"
	assert_output "0"
}

@test "a command file runs, with errors named FILE:LINE" {
	printf 'alloc a\n# a comment\n\nfind 9\nalloc b\n' > "$BATS_TEST_TMPDIR/s.idrsh"
	run --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR/s.idrsh"
	assert_failure 1
	assert_equal "$output" "0
1"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/s.idrsh:4: find: no id 9 (ENOENT)"
}

@test "a .lua script runs with its arguments in arg and ..." {
	printf 'local a, b = ...\nprint(arg[0], arg[1], a, b)\nprint(t:alloc(a))\n' > "$BATS_TEST_TMPDIR/s.lua"
	run -0 "$IDRSH" "$BATS_TEST_TMPDIR/s.lua" x y
	assert_output "$BATS_TEST_TMPDIR/s.lua	x	x	y
0"
}

@test "a .lua script's error names the file and line, exit 1" {
	printf 'local x = 1\nerror("bad")\n' > "$BATS_TEST_TMPDIR/e.lua"
	run -1 --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR/e.lua"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/e.lua:2: bad
stack traceback:
	[C]: in function 'error'
	$BATS_TEST_TMPDIR/e.lua:2: in main chunk"
}

@test "a missing script is an error, exit 1" {
	run -1 --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR/none"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/none: No such file or directory"
}

@test "- reads the script from stdin" {
	run -0 "$IDRSH" - <<<"alloc a"
	assert_output "0"
}

@test "-- ends the options" {
	printf 'count\n' > "$BATS_TEST_TMPDIR/-q"
	run -0 "$IDRSH" -- "$BATS_TEST_TMPDIR/-q"
	assert_output "0"
}

# ------------------------------------------------------ batch exit codes

@test "batch: no prompt, no echo; exit 0 when all succeed" {
	idrsh_lines "alloc a" "alloc b" "find 1"
	assert_success
	assert_equal "$output" "0
1
b"
	assert_equal "$stderr" ""
}

@test "batch: a failure goes on, exits 1, names <stdin>:LINE" {
	idrsh_lines "alloc a" "remove 7" "alloc b"
	assert_failure 1
	assert_equal "$output" "0
1"
	assert_equal "$stderr" "idrsh: <stdin>:2: remove: no id 7 (ENOENT)"
}

@test "--bail stops at the first failure" {
	run -1 --separate-stderr "$IDRSH" --bail < <(printf 'alloc a\nremove 7\nalloc b\n')
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:2: remove: no id 7 (ENOENT)"
}

@test "--bail stops -c at the first failure" {
	run -1 "$IDRSH" --bail -c 'find 1' -c 'alloc a'
	assert_output "idrsh: -c:1: find: no id 1 (ENOENT)"
}

@test "quit stops reading; exit reflects earlier failures" {
	idrsh_lines "alloc a" "quit" "alloc b"
	assert_success
	assert_output "0"
	idrsh_lines "find 9" "quit" "alloc b"
	assert_failure 1
	assert_output ""
}

# -------------------------------------------------------- the commands

@test "alloc: lowest free ID, with START and END" {
	idrsh_lines "alloc a" "alloc b 5" "alloc c 5 30" "alloc d 0x10" "alloc e 0 0"
	assert_success
	assert_equal "$output" "0
5
6
16
1"
}

@test "alloc: a full range fails with ENOSPC and the range" {
	idrsh_lines "alloc a 5 6" "alloc b 5 6"
	assert_failure 1
	assert_equal "$output" "5"
	assert_equal "$stderr" "idrsh: <stdin>:2: alloc: no free id in [5, 6) (ENOSPC)"
}

@test "values may be quoted, and are shown quoted when needed" {
	idrsh_lines 'alloc "two words"' "alloc 'single q'" 'alloc "a\"b"' 'alloc ""' list
	assert_success
	assert_equal "$output" '0
1
2
3
0 "two words"
1 "single q"
2 "a\"b"
3 ""'
}

@test "alloc_cyclic does not reuse a freed ID at once" {
	idrsh_lines "alloc_cyclic a" "alloc_cyclic b" "remove 0" "alloc_cyclic c" "alloc d"
	assert_success
	assert_equal "$output" "0
1
a
2
0"
}

@test "alloc_u32 takes an inclusive MAX up to 2^32-1" {
	idrsh_lines "alloc_u32 a 10 11" "alloc_u32 b 10 11" "alloc_u32 c 10 11" \
		"alloc_u32 d 0 4294967295" "alloc_u32 e 0 4294967296"
	assert_failure 1
	assert_equal "$output" "10
11
0"
	assert_equal "$stderr" "idrsh: <stdin>:3: alloc_u32: no free id in [10, 11] (ENOSPC)
idrsh: <stdin>:5: alloc_u32: bad MAX '4294967296': out of range 0 .. 4294967295"
}

@test "find, replace, remove, next, list, count, empty" {
	idrsh_lines empty "alloc a" "alloc b" "alloc c" "find 1" "replace 1 B" \
		"find 1" "remove 0" "next 0" "next 2" list count empty
	assert_success
	assert_equal "$output" "yes
0
1
2
b
b
B
a
1 B
2 c
1 B
2 c
2
no"
}

@test "a reserved ID (nil) is allocated: find, list, dump, remove say (reserved)" {
	idrsh_lines "lua t:alloc(nil)" 'alloc "(reserved)"' "find 0" "find 1" \
		list count dump "remove 0" "find 0" count "lua t:alloc(nil, 5)" \
		"replace 5 x" "find 5"
	assert_equal "$stderr" "idrsh: <stdin>:9: find: no id 0 (ENOENT)"
	assert_failure 1
	assert_equal "$output" '0
1
(reserved)
"(reserved)"
0 (reserved)
1 "(reserved)"
2
idr: 2 IDs, height 1, 1 node
L0 0..63  2/64
  ##..............................................................
  0:(reserved) 1:"(reserved)"
(reserved)
1
5
(reserved)
x'
	# The removal worked: --bail goes on past it.
	run --separate-stderr "$IDRSH" --bail -c "lua t:alloc(nil)" \
		-c "remove 0" -c "alloc a"
	assert_success
	assert_equal "$output" "0
(reserved)
0"
}

@test "next past the last entry fails with ENOENT" {
	idrsh_lines "alloc a" "next 1"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:2: next: no entry at or above 1 (ENOENT)"
}

@test "replace of a free ID fails and stores nothing" {
	idrsh_lines "replace 3 x" count
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: replace: no id 3 (ENOENT)"
}

@test "destroy empties the tree, which stays usable" {
	idrsh_lines "alloc a" "alloc b" destroy count "alloc c"
	assert_success
	assert_equal "$output" "0
1
0
0"
}

# ------------------------------------------------------------ trees

@test "new, use, trees, drop; the prompt's tree is current" {
	idrsh_lines "alloc a" "new two --base 100" "alloc b" trees "use default" \
		"alloc c" trees "drop two" trees
	assert_success
	assert_equal "$output" "0
100
  default      idr    1 id
* two          idr    1 id
1
* default      idr    2 ids
  two          idr    1 id
* default      idr    2 ids"
}

@test "new rejects a taken name, a bad name, bad options" {
	idrsh_lines "new default" "new 9x" "new a --base" "new a --base -1" \
		"new a --frob" "new a --ida --base 3" "new a --retire" "new a --tagged 31" \
		"new a --base 16 --tagged 4" trees
	assert_failure 1
	assert_equal "$output" "* default      idr    0 ids"
	assert_equal "$stderr" "idrsh: <stdin>:1: new: a tree named 'default' exists
idrsh: <stdin>:2: new: bad NAME '9x': a letter or _, then letters, digits, _ . - (64 at most)
idrsh: <stdin>:3: new: --base needs a number
idrsh: <stdin>:4: new: bad BASE '-1': out of range 0 .. 2147483647
idrsh: <stdin>:5: new: unknown option '--frob'
idrsh: <stdin>:6: new: an IDA takes no --base, --tagged or --rcu
idrsh: <stdin>:7: new: --retire needs --tagged BITS
idrsh: <stdin>:8: new: bad BITS '31': out of range 1 .. 30
idrsh: <stdin>:9: new: --base 16 is past the 16 IDs that --tagged 4 gives"
}

@test "use and drop of an unknown tree fail; the current one cannot be dropped" {
	idrsh_lines "use nope" "drop nope" "drop default"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: use: no tree named 'nope' (see 'trees')
idrsh: <stdin>:2: drop: no tree named 'nope' (see 'trees')
idrsh: <stdin>:3: drop: 'default' is the current tree; 'use' another first"
}

@test "IDA: ida_alloc, ida_exists, ida_free, count" {
	idrsh_lines "new ids --ida" ida_alloc ida_alloc "ida_alloc 10" "ida_alloc 3 4" \
		"ida_exists 1" "ida_free 1" "ida_exists 1" count empty
	assert_success
	assert_equal "$output" "0
1
10
3
yes
no
3
no"
}

@test "IDA: freeing a free ID fails; a full range fails" {
	idrsh_lines "new ids --ida" "ida_free 5" "ida_alloc 2 2" "ida_alloc 2 2"
	assert_failure 1
	assert_equal "$output" "2"
	assert_equal "$stderr" "idrsh: <stdin>:2: ida_free: no id 5 (ENOENT)
idrsh: <stdin>:4: ida_alloc: no free id in [2, 2] (ENOSPC)"
}

@test "commands of the wrong kind of tree say which to use" {
	idrsh_lines "ida_alloc" "alloc_tagged x" "new ids --ida" "alloc x" "find 0"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: ida_alloc: tree 'default' is not an IDA (new NAME --ida)
idrsh: <stdin>:2: alloc_tagged: tree 'default' is not tagged (new NAME --tagged BITS)
idrsh: <stdin>:4: alloc: tree 'ids' is an IDA; use ida_alloc, ida_free, ida_exists
idrsh: <stdin>:5: find: tree 'ids' is an IDA; use ida_alloc, ida_free, ida_exists"
}

# ----------------------------------------------------- Lua and source

@test "lua runs a chunk; =EXPR prints values" {
	idrsh_lines "lua for i = 1, 3 do t:alloc('v' .. i) end" "=#t, t:find(2)" "=nil" "lua x = 5" "=x * 2"
	assert_success
	assert_equal "$output" "3	v3
nil
10"
}

@test "a tree made in Lua becomes a tree of the shell" {
	idrsh_lines "lua trees.mine = idr.new{ base = 7 }" "use mine" "alloc a" trees
	assert_success
	assert_equal "$output" "7
  default      idr    0 ids
* mine         idr    1 id"
}

@test "a Lua error inside lua is reported and changes no tree" {
	idrsh_lines "alloc a" "lua error('boom')" "lua (" "=nosuch.field" count
	assert_failure 1
	assert_equal "$output" "0
1"
	assert_equal "$stderr" "idrsh: <stdin>:2: lua: lua:1: boom
stack traceback:
	[C]: in function 'error'
	lua:1: in main chunk
idrsh: <stdin>:3: lua: lua:1: unexpected symbol near <eof>
idrsh: <stdin>:4: expr:1: attempt to index a nil value (global 'nosuch')
stack traceback:
	expr:1: in main chunk"
}

@test "lua with no chunk is a usage error" {
	idrsh_lines "lua"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: usage: lua CHUNK"
}

@test "source runs a command file; its errors name its lines" {
	printf 'alloc a\nfind 5\nalloc b\n' > "$BATS_TEST_TMPDIR/f.idrsh"
	idrsh_lines "source $BATS_TEST_TMPDIR/f.idrsh" count
	assert_failure 1
	assert_equal "$output" "0
1
2"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/f.idrsh:2: find: no id 5 (ENOENT)"
}

@test "source runs a .lua file" {
	printf 't:alloc("fromlua")\n' > "$BATS_TEST_TMPDIR/f.lua"
	idrsh_lines "source $BATS_TEST_TMPDIR/f.lua" "find 0"
	assert_success
	assert_output "fromlua"
}

@test "source of a missing file fails; a file sourcing itself stops" {
	printf 'source %s\n' "$BATS_TEST_TMPDIR/loop.idrsh" > "$BATS_TEST_TMPDIR/loop.idrsh"
	idrsh_lines "source $BATS_TEST_TMPDIR/none" "source $BATS_TEST_TMPDIR/loop.idrsh"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: source: $BATS_TEST_TMPDIR/none: No such file or directory
idrsh: $BATS_TEST_TMPDIR/loop.idrsh:1: source: sources nested too deeply"
}

# ---------------------------------------------------------------- help

@test "help lists every command, one line each" {
	run -0 "$IDRSH" -c help
	assert_line --index 0 --regexp '^new +make a tree \(or an IDA\) and switch to it$'
	assert_line --regexp '^alloc +store VALUE at the lowest free ID in \[START, END\); print the ID$'
	for c in use trees drop alloc_cyclic alloc_u32 find remove replace next list \
		count empty destroy pre_get get_new get_new_above alloc_tagged \
		find_tagged remove_tagged check untag ida_alloc ida_free ida_exists \
		dump dot path stats trace fail mem lua source help quit; do
		assert_line --regexp "^$c "
	done
}

@test "help CMD shows synopsis, description and example" {
	run -0 "$IDRSH" -c 'help alloc'
	assert_output "usage: alloc VALUE [START [END]]

store VALUE at the lowest free ID in [START, END); print the ID

idr_alloc(): START defaults to 0; below the tree's base the
search starts at the base.  END <= 0 or absent means no limit.
Fails with ENOSPC when the range is full.
A lone ID makes packed nodes: a range of one (alloc v 7000 7001),
or a START that is free with START-1 not taken: see 'lesson packed'.

example:
  alloc eth0 5 30"
}

@test "-c:N counts the lines of every -c so far; a final newline adds none" {
	run -1 --separate-stderr "$IDRSH" -c $'alloc a\n' -c 'find 9' \
		-c $'alloc b\n\nfind 8'
	assert_equal "$stderr" "idrsh: -c:2: find: no id 9 (ENOENT)
idrsh: -c:5: find: no id 8 (ENOENT)"
}

@test "help of an unknown command fails" {
	run -1 "$IDRSH" -c 'help frob'
	assert_output "idrsh: -c:1: help: no command 'frob'"
}

# --------------------------------------------------------- bad input

@test "bad IDs are refused with a clear error" {
	idrsh_lines "alloc a" "find -1" "find 4294967296" "find 0x" "find 12abc" \
		"find 99999999999999999999999" "find 0x1g" "find +-1" "find 0x0"
	assert_failure 1
	assert_equal "$output" "0
a"
	assert_equal "$stderr" "idrsh: <stdin>:2: find: bad ID '-1': out of range 0 .. 4294967295
idrsh: <stdin>:3: find: bad ID '4294967296': out of range 0 .. 4294967295
idrsh: <stdin>:4: find: bad ID '0x': not a number
idrsh: <stdin>:5: find: bad ID '12abc': not a number
idrsh: <stdin>:6: find: bad ID '99999999999999999999999': out of range 0 .. 4294967295
idrsh: <stdin>:7: find: bad ID '0x1g': not a number
idrsh: <stdin>:8: find: bad ID '+-1': not a number"
}

@test "bad START and END leave the tree unchanged" {
	idrsh_lines "alloc a -1" "alloc a 1 2147483648" "alloc a 0x" count
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: alloc: bad START '-1': out of range 0 .. 2147483647
idrsh: <stdin>:2: alloc: bad END '2147483648': out of range -2147483648 .. 2147483647
idrsh: <stdin>:3: alloc: bad START '0x': not a number"
}

@test "unknown commands, missing and extra arguments" {
	idrsh_lines frob find "find 1 2" "count 3" count
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: unknown command 'frob'; try 'help'
idrsh: <stdin>:2: usage: find ID
idrsh: <stdin>:3: usage: find ID
idrsh: <stdin>:4: usage: count"
}

@test "each command's help example runs as it stands in a new shell" {
	# The lines before the command make what it needs (a tree of some
	# kind, IDs, a file, a mark): a new user who types them in gets no
	# error.  A lesson and a quiz wait for answers, which ends them with
	# status 1 here: their examples must only fit their usage.
	idrsh=$(realpath "$IDRSH")
	names=$("$idrsh" -c help | sed '$d' | awk '{ print $1 }')
	[ "$(printf '%s\n' "$names" | wc -l)" -ge 30 ]
	for n in $names; do
		dir=$BATS_TEST_TMPDIR/$n
		mkdir -p "$dir/state"
		"$idrsh" -c "help $n" | sed -n '/^example:$/,$s/^  //p' > "$dir/example"
		last=$(tail -n 1 "$dir/example")
		[ "${last%% *}" = "$n" ] ||
			{ echo "help $n: example ends '$last'"; return 1; }
		run --separate-stderr env -C "$dir" XDG_STATE_HOME="$dir/state" \
			"$idrsh" --bail "$dir/example"
		case $n in
		lesson | quiz) [[ "$stderr" != *"usage:"* ]] ;;
		*) [ "$status" -eq 0 ] ;;
		esac || { echo "help $n: $(cat "$dir/example"): $stderr"; return 1; }
	done
}

@test "what list prints a value as can be typed back: \\ddd and \\xHH escapes" {
	# list writes a byte that is no printable UTF-8 as \ddd, a save file
	# as \xHH: both read back; an unknown escape keeps its backslash.
	run -0 "$IDRSH" -c 'alloc "\255\254"' -c 'alloc "a\x41b\r"' \
		-c 'alloc "c\qd"' -c 'alloc "\300"' -c list
	assert_line '0 "\255\254"'
	assert_line '1 "aAb\013"'
	assert_line '2 "c\\qd"'
	assert_line '3 "\\300"'
	listed=$(printf '%s\n' "$output" | sed -n 's/^0 //p')
	run -0 "$IDRSH" -c "alloc $listed" -c 'lua return t:find(0) == "\255\254"'
	assert_line true
}

@test "unterminated quotes are refused" {
	idrsh_lines 'alloc "abc' "alloc 'abc" count
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: alloc: unterminated double quote
idrsh: <stdin>:2: alloc: unterminated single quote"
}

@test "a line with a NUL byte is refused" {
	run --separate-stderr bash -c "printf 'alloc a\\0b\\ncount\\n' | $IDRSH"
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:1: the line holds a NUL byte"
}

@test "a 1 MB line is handled: as a value, and as an unknown command" {
	run --separate-stderr bash -c "{ printf 'alloc '; head -c 1048576 /dev/zero | tr '\\0' x; printf '\\nlua print(#t:find(0))\\n'; head -c 1048576 /dev/zero | tr '\\0' y; printf '\\ncount\\n'; } | $IDRSH"
	assert_failure 1
	assert_equal "$output" "0
1048576
1"
	assert_equal "$stderr" "idrsh: <stdin>:3: unknown command '$(printf '%040d' 0 | tr 0 y)...'; try 'help'"
}

@test "a bad token is cut to 40 characters in the message that names it" {
	local big
	big=$(head -c 1048576 /dev/zero | tr '\0' 9)
	idrsh_lines "find $big" "use x$big" "new n --bogus$big" "help nosuch$big"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: find: bad ID '$(printf '%040d' 0 | tr 0 9)...': out of range 0 .. 4294967295
idrsh: <stdin>:2: use: no tree named 'x$(printf '%039d' 0 | tr 0 9)...' (see 'trees')
idrsh: <stdin>:3: new: unknown option '--bogus$(printf '%033d' 0 | tr 0 9)...'
idrsh: <stdin>:4: help: no command 'nosuch$(printf '%034d' 0 | tr 0 9)...'"
}

@test "alloc_many says how many IDs, with no blank at the end of the line" {
	idrsh_lines "alloc_many 0" "alloc_many 1" "alloc_many 2 10"
	assert_success
	assert_equal "$output" "0 IDs
1 ID: 0
2 IDs: 10..11"
}

@test "alloc_many that gives back one ID says 'it', not 'the 1 are'" {
	idrsh_lines "alloc_many 2 2147483647" count
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: alloc_many: no free id at or above 2147483647 after 1 of 2; it is given back (ENOSPC)"
	assert_equal "$output" "0"
}

@test "alloc_many is all or none: after ENOSPC or ENOMEM the tree is as it was" {
	idrsh_lines "alloc a 2147483640" "alloc_many 5 2147483645" count list \
		"new m" "alloc a" "fail 1" "alloc_many 100" count "new g --tagged 3" \
		"alloc_tagged x" "alloc_tagged w" "remove_tagged 0" "alloc_many 9" \
		dump "alloc_tagged y" "new i --ida" "alloc_many 3 2147483646" count
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:2: alloc_many: no free id at or above 2147483645 after 3 of 5; the 3 are given back (ENOSPC)
idrsh: <stdin>:8: alloc_many: out of memory after 63 of 100; the 63 are given back (ENOMEM)
idrsh: <stdin>:14: alloc_many: no free id at or above 0 after 7 of 9; the 7 are given back (ENOSPC)
idrsh: <stdin>:18: alloc_many: no free id at or above 2147483646 after 2 of 3; the 2 are given back (ENOSPC)"
	# Slot 0's generation did not advance: y's tag is the one it would be.
	assert_equal "$output" "2147483640
1
2147483640 a
0
1
0
1
x
idr: 1 ID, height 1, 1 node, tagged: 3 ID bits
L0 0..63  1/64
  .#..............................................................
  1:w@g0
8
0"
}

@test "fail N: the next allocation fails with ENOMEM, the tree unchanged" {
	# Two: 64, asked for by itself, takes packed blocks, and whole
	# nodes when it cannot have those.
	idrsh_lines "alloc a" "fail 2" "alloc b 64" "alloc c 64" count "fail -1"
	assert_failure 1
	assert_equal "$output" "0
64
2"
	assert_equal "$stderr" "idrsh: <stdin>:3: alloc: out of memory (ENOMEM)
idrsh: <stdin>:6: fail: bad N '-1': out of range 0 .. 2147483647"
}

@test "fail N is spent on tree operations: the views do not use it up" {
	idrsh_lines "alloc a" "fail 2" dump dot stats "path 0" list fail \
		"alloc b 64" fail "lua assert(t:validate())" list
	assert_failure 1
	assert_line --index 0 "0"
	assert_line "allocations set to fail: 2"
	assert_line "allocations set to fail: 0"
	assert_line "0 a"
	refute_line --partial "64 b"
	assert_equal "$stderr" \
		"idrsh: <stdin>:9: alloc: out of memory (ENOMEM)"
}

# ------------------------------------------------------------ colour

@test "no colour when not on a terminal; --color=always forces it" {
	run -1 --separate-stderr "$IDRSH" -c 'find 1'
	assert_equal "$stderr" "idrsh: -c:1: find: no id 1 (ENOENT)"
	run -1 --separate-stderr "$IDRSH" --color=always -c 'find 1'
	assert_equal "$stderr" $'\e[31midrsh: -c:1: find: no id 1 (ENOENT)\e[0m'
	run -1 --separate-stderr "$IDRSH" --color=never -c 'find 1'
	assert_equal "$stderr" "idrsh: -c:1: find: no id 1 (ENOENT)"
}

# ----------------------------------------------------------- history

@test "batch mode writes no history" {
	idrsh_lines "alloc a"
	assert_success
	[ ! -e "$HOME/.idrsh_history" ]
}

# ------------------------------------------------------ the 2004 API

@test "get_new needs pre_get first (EAGAIN), then allocates" {
	idrsh_lines "get_new a" pre_get "get_new a" "get_new_above b 100" count
	assert_failure 1
	assert_line --index 0 --regexp '^cached nodes: [1-9][0-9]*$'
	assert_equal "${lines[*]:1}" "0 100 2"
	assert_equal "$stderr" "idrsh: <stdin>:1: get_new: the node cache is short; run pre_get and retry (EAGAIN)"
}

@test "get_new_above rejects a bad START" {
	idrsh_lines pre_get "get_new_above b -1" "get_new_above b" count
	assert_failure 1
	assert_equal "${lines[*]:1}" "0"
	assert_equal "$stderr" "idrsh: <stdin>:2: get_new_above: bad START '-1': out of range 0 .. 2147483647
idrsh: <stdin>:3: usage: get_new_above VALUE START"
}

# ------------------------------------------------------- tagged IDs

@test "tagged: alloc_tagged, remove_tagged, a reused slot's new tag" {
	idrsh_lines "new tg --tagged 16" "alloc_tagged a" "remove_tagged 0" \
		"alloc_tagged b" "find_tagged 65536" "untag 65536" "find 0"
	assert_success
	assert_equal "$output" "0
a
65536
b
id 0 gen 1
b"
}

@test "tagged: check says live or stale, and why" {
	idrsh_lines "new tg --tagged 16" "alloc_tagged a" "remove_tagged 0" \
		"alloc_tagged b" "check 0" "check 65536" "check 5" "check 65541"
	assert_success
	assert_equal "$output" "0
a
65536
stale: id 0 gen 0; the slot is at gen 1 (ESTALE)
live: id 0 gen 1; the slot is at gen 1
free: id 5 gen 0; the slot is free, at gen 0 (ENOENT)
stale: id 5 gen 1; the slot is free, at gen 0 (ESTALE)"
}

@test "tagged: a stale tag finds and removes nothing" {
	idrsh_lines "new tg --tagged 16" "alloc_tagged a" "remove_tagged 0" \
		"alloc_tagged b" "find_tagged 0" "remove_tagged 0" count
	assert_failure 1
	assert_equal "$output" "0
a
65536
1"
	assert_equal "$stderr" "idrsh: <stdin>:5: find_tagged: stale tagged id 0 (ESTALE)
idrsh: <stdin>:6: remove_tagged: stale tagged id 0 (ESTALE)"
}

@test "tagged: IDs stay below 2^BITS" {
	idrsh_lines "new tg --tagged 2" "alloc_tagged a" "alloc_tagged b" \
		"alloc_tagged c" "alloc_tagged d" "alloc_tagged e"
	assert_failure 1
	assert_equal "$output" "0
1
2
3"
	assert_equal "$stderr" "idrsh: <stdin>:6: alloc_tagged: no free id at or above 0 (ENOSPC)"
}

# ---------------------------------------------------- seeing inside

@test "dump prints the tree" {
	idrsh_lines "alloc zero" dump
	assert_success
	assert_equal "$output" "0
$(cat tests/golden/one.txt | sed -n 1,4p)"
}

@test "path explains the way down to an ID" {
	idrsh_lines "alloc zero" "path 0" "path 64"
	assert_success
	assert_equal "$output" "0
path of ID 0, in a tree of height 1
index 0 in base 64: 0 (one digit a level, top first)
L0 0..63: slot 0 is in use
found: the ID is allocated
path of ID 64, in a tree of height 1
index 64 in base 64: 1 0 (one digit a level, top first)
stop: the ID is beyond what the top node covers, so it is free"
}

@test "stats counts IDs, height, nodes, bytes" {
	idrsh_lines "alloc a" "alloc b 64" stats
	assert_success
	assert_line "ids: 2"
	assert_line "height: 2"
	assert_line "nodes: 3"
	assert_line "lowest ID: 0"
	assert_line "highest ID: 64"
}

@test "dump, stats, path and dot work on an IDA" {
	idrsh_lines "new ids --ida" ida_alloc dump stats "path 0" dot
	assert_success
	assert_line "ida: 1 ID, height 1, 1 node"
	assert_line "bitmaps: 1"
	assert_line "path of IDA ID 0, in a tree of height 1"
	assert_line "digraph ida {"
}

@test "trace on prints each step; trace off stops" {
	idrsh_lines "alloc a" "trace on" "alloc b 64" "remove 64" "trace off" "alloc c"
	assert_success
	assert_equal "$output" "0
trace: op alloc start=64 end=0
trace: malloc nodes=2
trace: node-new level=1 first=0 last=4095 slot=0
trace: attach level=1 first=0 last=4095 slot=0
trace: grow level=1 first=0 last=4095 slot=0 height=2
trace: node-new level=0 first=64 last=127 slot=0
trace: attach level=1 first=0 last=4095 slot=1
trace: slot-set level=0 first=64 last=127 slot=0
trace: full level=0 first=64 last=127 slot=0
trace: done alloc result=64
64
trace: op remove id=64
trace: visit level=1 first=0 last=4095 slot=1
trace: visit level=0 first=64 last=127 slot=0
trace: slot-clear level=0 first=64 last=127 slot=0
trace: open level=0 first=64 last=127 slot=0
trace: detach level=1 first=0 last=4095 slot=1
trace: node-free level=0 first=64 last=127 slot=0
trace: free level=0 first=64 last=127 slot=0
trace: detach level=1 first=0 last=4095 slot=0
trace: node-free level=1 first=0 last=4095 slot=0
trace: free level=1 first=0 last=4095 slot=0
trace: shrink level=0 first=0 last=63 slot=0 height=1
trace: done remove result=64
b
1"
}

@test "trace on follows every named tree and keeps the user's trace function" {
	idrsh_lines "new g" "trace on" "lua trees.default:alloc(1)" \
		"lua t:trace(function(e) print('user', e.event) end)" "alloc x" \
		"trace off" "alloc y"
	assert_success
	assert_line "trace: slot-set level=0 first=0 last=63 slot=0"
	# 6 events on each tree while trace is on (op, 4 steps, done); the
	# user's function sees its tree's 6, then 5 more after 'trace off'
	local all=$output
	run grep -c '^trace: ' <<<"$all"
	assert_output 12
	run grep -c '^user' <<<"$all"
	assert_output 11
}

@test "trace takes on or off only" {
	idrsh_lines "trace maybe"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: trace: say 'trace on' or 'trace off'"
}

@test "dot writes DOT to stdout or a FILE" {
	idrsh_lines "alloc a" dot "dot $BATS_TEST_TMPDIR/t.dot"
	assert_success
	assert_line --index 1 "digraph idr {"
	assert_line --index -1 "}"
	run head -1 "$BATS_TEST_TMPDIR/t.dot"
	assert_output "digraph idr {"
}

@test "dot --svg and --png render through Graphviz" {
	command -v dot || skip "Graphviz is not installed"
	idrsh_lines "alloc a" "dot --svg $BATS_TEST_TMPDIR/t.svg" "dot --png $BATS_TEST_TMPDIR/t.png"
	assert_success
	grep -q '<svg' "$BATS_TEST_TMPDIR/t.svg"
	[ "$(head -c 4 "$BATS_TEST_TMPDIR/t.png" | tail -c 3)" = PNG ]
}

@test "dot FILE takes the format from FILE's extension" {
	command -v dot || skip "Graphviz is not installed"
	local d=$BATS_TEST_TMPDIR
	idrsh_lines "alloc a" "dot $d/t.png" "dot $d/t.SVG" "dot $d/t.gv" "dot $d/t.jpg"
	assert_failure 1
	[ "$(head -c 4 "$d/t.png" | tail -c 3)" = PNG ]
	grep -q '<svg' "$d/t.SVG"
	[ "$(head -1 "$d/t.gv")" = "digraph idr {" ]
	[ ! -e "$d/t.jpg" ]
	assert_equal "$stderr" "idrsh: <stdin>:5: dot: no format is named '.jpg': name FILE .dot or .gv (DOT text), .svg or .png"
}

@test "dot --svg without Graphviz says so clearly" {
	run -1 --separate-stderr env PATH=/nonexistent "$IDRSH" -c "dot --svg $BATS_TEST_TMPDIR/t.svg"
	assert_equal "$stderr" "idrsh: -c:1: dot: Graphviz 'dot' is not installed; write the DOT text with 'dot FILE' and render it elsewhere"
	[ ! -e "$BATS_TEST_TMPDIR/t.svg" ]
}

@test "dot with bad arguments, or an unwritable FILE, fails" {
	idrsh_lines "dot --svg" "dot a b" "dot --frob" "dot /nonexistent/dir/t.dot"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:1: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]
idrsh: <stdin>:2: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]
idrsh: <stdin>:3: usage: dot [--at ID] [FILE | --svg FILE | --png FILE]
idrsh: <stdin>:4: dot: /nonexistent/dir/t.dot: No such file or directory"
}

@test "mem prints the allocator's counters" {
	idrsh_lines "alloc a" mem
	assert_success
	assert_line --regexp '^allocs: [0-9]+$'
	assert_line --regexp '^bytes: [0-9]+$'
	assert_line --regexp '^failed: 0$'
}

@test "--color=always makes help's command names bold" {
	run -0 "$IDRSH" --color=always -c help
	assert_line --index 0 --partial $'\e[1mnew\e[0m'
}

@test "a Lua value in trees that is not a tree is refused by use" {
	idrsh_lines "lua trees.x = 5" "use x" trees
	assert_failure 1
	assert_equal "$output" "* default      idr    0 ids"
	assert_equal "$stderr" "idrsh: <stdin>:2: use: trees.x is a number, not an idr or an IDA"
}

@test "a tree destroyed from Lua gives an error, not a crash" {
	idrsh_lines "lua t:destroy()" "alloc a" "new b" "alloc b"
	assert_failure 1
	assert_equal "$output" "0"
	assert_equal "$stderr" "idrsh: <stdin>:2: alloc: attempt to use a destroyed idr"
}

@test "SIGINT interrupts a running Lua loop in batch; the next line runs" {
	# The signal goes once line 2's error is out (idrsh is up and its
	# handler set) and line 3's loop has had a second to begin; a
	# watchdog ends a run that the signal missed.
	printf 'alloc a\nfind 99\nlua while true do end\ncount\n' > "$BATS_TEST_TMPDIR/in"
	run --separate-stderr bash -c '
		: > "$3"
		"$1" < "$2" 2> "$3" & pid=$!
		(sleep 30; kill -KILL $pid) >/dev/null 2>&1 </dev/null 3>&- & dog=$!
		for i in $(seq 100); do grep -qs "no id 99" "$3" && break; sleep 0.1; done
		sleep 1
		kill -INT $pid
		wait $pid; status=$?; kill $dog 2>/dev/null
		cat "$3" >&2; exit $status' \
		sh "$IDRSH" "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/err"
	assert_failure 1
	assert_equal "$output" "0
1"
	assert_equal "$stderr" "idrsh: <stdin>:2: find: no id 99 (ENOENT)
idrsh: <stdin>:3: interrupted!"
}

@test "history is not written in batch mode, even with IDRSH_HISTORY" {
	export IDRSH_HISTORY="$BATS_TEST_TMPDIR/h"
	idrsh_lines "alloc a"
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/h" ]
}

@test "a Lua chunk that clobbers the standard globals does not break the shell" {
	idrsh_lines "lua tostring, string, io, pairs, pcall = nil" 'alloc "a b"' list trees
	assert_success
	assert_equal "$output" '0
0 "a b"
* default      idr    1 id'
}

@test "=EXPR prints Lua values as Lua does" {
	idrsh_lines '="x y", 1 + 1, nil'
	assert_success
	assert_output "x y	2	nil"
}

@test "a directory as SCRIPT or for source is an error, not a crash" {
	run -1 --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR: Is a directory"
	run -1 --separate-stderr "$IDRSH" -c "source $BATS_TEST_TMPDIR"
	assert_equal "$stderr" "idrsh: -c:1: source: $BATS_TEST_TMPDIR: Is a directory"
}

@test "--bail stops a sourced file at its first failure" {
	printf 'find 1\nalloc a\n' > "$BATS_TEST_TMPDIR/f.idrsh"
	run -1 --separate-stderr "$IDRSH" --bail "$BATS_TEST_TMPDIR/f.idrsh"
	assert_equal "$output" ""
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/f.idrsh:1: find: no id 1 (ENOENT)"
}

@test "explain CMD tells one command; explain on tells each operation until off" {
	idrsh_lines "alloc a" "explain alloc b 64" "find 64" "explain on" \
		"remove 64" "explain off" "alloc c"
	assert_success
	assert_line --index 0 "0"
	assert_line --index 1 "idr_alloc(start 64, end 0): the lowest free ID at or above 64."
	assert_line "  The tree grows a level: a new top, node L1 0..4095, holds the old top in its slot 0. Height 2."
	assert_line "  Result: ID 64, allocated."
	assert_line "  Kernel: idr_alloc() -> idr_alloc_u32() -> idr_get_free()."
	assert_line "idr_remove(id 64)."
	assert_line "  Result: ID 64, removed."
	# find ran before 'explain on', alloc c after 'explain off'
	refute_line "idr_find(id 64)."
	refute_line --partial "at or above 0."
	run grep -c '^idr_' <<<"$output"
	assert_output 2
}

@test "explain CMD says so when CMD runs no operation it can tell; destroy is one" {
	run -0 --separate-stderr "$IDRSH" -q -c 'alloc_many 3' \
		-c 'explain trees' -c 'explain destroy' -c count
	assert_equal "$output" "3 IDs: 0..2
* default      idr    3 ids
(trees ran no traced operation: nothing to tell)
idr_destroy(): give back every ID and free every node, all at once (none of it is traced one by one).
  Result: the tree is empty.
  Kernel: idr_destroy() -> radix_tree_free_nodes().
0"
}

@test "explain CMD fails when CMD fails: reported at its line, exit 1, --bail stops" {
	run -1 --separate-stderr "$IDRSH" -c 'explain find 9' -c 'alloc a'
	assert_line "  Result: -ENOENT (no such ID)."
	assert_line "0"
	assert_equal "$stderr" "idrsh: -c:1: explain: find: no id 9 (ENOENT)"
	run -1 --separate-stderr "$IDRSH" --bail -c 'explain bogus' -c 'alloc a'
	assert_output ""
	assert_equal "$stderr" "idrsh: -c:1: explain: unknown command 'bogus'; try 'help'"
	printf 'alloc a\nexplain alloc b 0 1\n' >"$BATS_TEST_TMPDIR/s.idrsh"
	run -1 --separate-stderr "$IDRSH" "$BATS_TEST_TMPDIR/s.idrsh"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/s.idrsh:2: explain: alloc: no free id in [0, 1) (ENOSPC)"
}

@test "explain says a packed node with no room moves, not that the path had no node" {
	# A lone ID's leaf has room for two: the second fills it.  (Under
	# the level-1 node of 262143, made whole by the preload: where there
	# is none, lone IDs share a keyed block instead, next test.)
	idrsh_lines preload "alloc a 262143 262144" preload_end \
		"alloc b 260000 260001" \
		"alloc b 260002 260003" "explain alloc c 260001 260002"
	assert_success
	assert_line "  Leaf L0 259968..260031 was packed with no room left: a copy with more room (a bigger block, or a whole node) takes its place in slot 30 of the node L1 258048..262143, and the old block goes back to malloc."
	refute_line --partial "the path had no node there"
}

@test "explain says a keyed block takes a lone ID by a copy with its key" {
	idrsh_lines "alloc a 262143 262144" "alloc b 100000 100001" \
		"alloc b 100002 100003" "explain alloc c 100001 100002"
	assert_success
	assert_line "  Keyed block L1 98304..102399 never changes in place (a reader may be in it): a copy with the new key among its sorted keys takes its place in slot 24 of the node L2 0..262143, and the old block goes back to malloc."
	assert_line "  Key 1697 (ID 100001) joins the keyed block's sorted keys (its run L0 99968..100031, slot 33)."
	refute_line --partial "the path had no node there"
}

@test "explain narrates an IDA's bitmaps" {
	idrsh_lines "new a --ida" "explain ida_alloc" "explain ida_free 0"
	assert_success
	assert_line "  A new bitmap for IDs 0..4095 hangs at slot 0 of its leaf (4096 bits, all free)."
	assert_line "  Bit 0 of the bitmap of 0..4095 is set: ID 0 is taken; words full: none."
	# The IDA is empty then: it owns no memory, its cache none either.
	assert_line "  The bitmap for IDs 0..4095, now empty, goes back to malloc."
}

@test "doc/teaching.md's explain and trace session is what idrsh prints" {
	awk '/^\$ idrsh -c .alloc a. -c .explain/ { s = 1; next }
		s && /^```$/ { exit } s' doc/teaching.md > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -ge 20 ]
	run ./build/idrsh -c 'alloc a' -c 'explain alloc b 64' -c 'trace on' \
		-c 'remove 64'
	assert_success
	diff <(printf '%s\n' "$output") "$BATS_TEST_TMPDIR/want"
}
