#!/usr/bin/env bats
# save, load, import and --load: a session of several trees comes back
# and answers every command alike; bad files (truncated, newer, edited,
# huge) load nothing; import takes all its IDs or none; lessons may not
# touch files.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	cd "$BATS_TEST_TMPDIR"
	IDRSH=$TOP/${IDRSH#./}
}

# A session: a plain tree with a base and odd values, a tagged one with
# stale tags, a retiring one with a retired slot, an IDA, a cyclic one.
session() {
	cat <<'EOF'
new plain --base 3
alloc "two words"
alloc ""
alloc_u32 "q\"uote\\ and tab\t" 10 20
lua t:alloc(nil); t:alloc("caf\u{e9} \0\xff")
new tg --tagged 8
alloc_tagged a
alloc_tagged b
remove_tagged 0
alloc_tagged c
remove 1
new rt --tagged 28 --retire
alloc_tagged x 5 6
lua for i = 1, 8 do t:remove(5); if i < 8 then t:alloc("x", 5, 6) end end
new bits --ida
ida_alloc
ida_alloc 100
new cyc
alloc_cyclic p
alloc_cyclic q
remove 0
use tg
EOF
}

# Commands whose output shows every tree as it is.
QUESTIONS='trees
use plain
list
find 4
dump
use tg
list
check 0
check 256
check 1
check 257
untag 256
dump
alloc_tagged d
use rt
check 5
alloc 5 6
stats
use bits
ida_exists 100
count
use cyc
cursor
alloc_cyclic r
use default
count'

@test "a saved session loads in a new idrsh and answers every command alike" {
	run -0 "$IDRSH" < <(session; echo "save s.idr"; echo "lua print '--'"
		echo "$QUESTIONS")
	assert_line "saved 6 trees to s.idr"
	local before=${output#*$'\n'--$'\n'}
	run -0 "$IDRSH" --load s.idr < <(echo "lua print '--'"; echo "$QUESTIONS")
	assert_line "loaded 6 trees from s.idr; current: tg"
	assert_equal "${output#*$'\n'--$'\n'}" "$before"
	# Each question had its answer (no command failed, none was empty).
	[ "$(wc -l <<<"$before")" -gt 40 ]
	# The current tree comes back too: the first command runs on tg.
	run -0 "$IDRSH" --load s.idr -c "alloc_tagged e"
	assert_line 257
}

@test "save NAME writes one tree; the file is readable text" {
	run -0 "$IDRSH" -c "alloc 'a b'" -c "lua t:alloc(nil)" -c "new g --tagged 16" \
		-c "save one.idr default"
	assert_line "saved 1 tree to one.idr"
	run cat one.idr
	assert_line --index 0 "idr-save 1"
	assert_line "tree default idr base=0 cursor=0"
	assert_line 'id 0 "a b"'
	assert_line "id 1"
	assert_line "current default"
	assert_line --index 6 "end"
}

@test "save: an error names the file asked for; a symlink or a FIFO is written into, not replaced" {
	# The text goes through FILE.new renamed over FILE: the error named
	# FILE.new, and a device or FIFO was replaced by a regular file.
	run "$IDRSH" -c 'save nodir/x'
	assert_failure 1
	assert_output "idrsh: -c:1: save: nodir/x: cannot write nodir/x.new, to rename over it: No such file or directory (ENOENT)"
	mkdir dir
	run "$IDRSH" -c 'save dir'
	assert_output "idrsh: -c:1: save: dir: Is a directory (EISDIR)"
	# The errno, for --json as for every failure.
	run "$IDRSH" --json -c 'save dir'
	assert_output --partial '"errno":"EISDIR"'
	# A symlink stays one: its target is written (a rename would have
	# put a file in the link's place, /dev/stdout's too).
	ln -s target link
	run -0 "$IDRSH" -c 'alloc a' -c 'save link'
	[ -L link ]
	run -0 cat target
	assert_line 'id 0 "a"' 
	mkfifo pipe
	timeout 20 cat pipe > got &  # a replaced pipe has no writer
	run -0 "$IDRSH" -c 'alloc a' -c 'save pipe'
	wait
	[ -p pipe ]
	run cat got
	assert_line --index 0 "idr-save 1"
	assert_line 'id 0 "a"'
	[ ! -e pipe.new ]
}

@test "load refuses a name in use unless --replace, and changes nothing" {
	run -0 "$IDRSH" -c "new a" -c "alloc x" -c "save a.idr"
	run "$IDRSH" -c "new a" -c "alloc y" -c "load a.idr" -c "list" -c trees
	assert_failure 1
	assert_output --partial "a tree named 'a' exists; 'load --replace a.idr' replaces it (nothing was loaded)"
	assert_line "0 y"
	run -0 "$IDRSH" -c "new a" -c "alloc y" -c "new b" -c "load --replace a.idr" -c list
	assert_line "0 x"
	assert_line "loaded 2 trees from a.idr; current: a"
}

@test "source of a saved file loads it, as load does" {
	run -0 "$IDRSH" -c "new k" -c "alloc v" -c "save k.idr"
	run -0 "$IDRSH" -c "new other" -c "drop default" -c "source k.idr" -c list
	assert_line "loaded 2 trees from k.idr; current: k"
	assert_line "0 v"
	run "$IDRSH" -c "source k.idr" -c trees
	assert_failure 1
	assert_output --partial "source: a tree named 'default' exists"
	refute_output --partial " k "
}

# Each bad file fails naming its line, and the trees stay as they were.
bad_file() {
	run "$IDRSH" -c "alloc keep" -c "load --replace $1" -c trees -c list
	assert_failure 1
	assert_output --partial "$2"
	assert_line "* default      idr    1 id"
	assert_line "0 keep"
	refute_output --partial "loaded"
}

@test "bad files load nothing: truncated, newer, edited, huge, missing" {
	run -0 "$IDRSH" < <(session; echo "save s.idr")
	head -c 300 s.idr >cut.idr
	bad_file cut.idr "load: cut.idr:"
	head -n 20 s.idr >lines.idr
	bad_file lines.idr "lines.idr:20: the file ends before its 'end' line (truncated?)"
	# Cut inside a record: its line says it is the last, with no newline.
	printf 'idr-save 1\ntree default idr base=0 curs' >mid.idr
	bad_file mid.idr "mid.idr:2: KEY=VALUE expected, not 'curs'; the file ends in this line, with no newline (truncated?)"
	sed 's/^idr-save 1$/idr-save 7/' s.idr >new.idr
	bad_file new.idr "new.idr:1: written by a newer idr (format 7); this one reads format 1 and older"
	sed 's/^id 5$/id 5 oops/' s.idr >edit.idr
	bad_file edit.idr "edit.idr:$(grep -n '^id 5$' s.idr | cut -d: -f1): a bad value oops"
	sed 's/^gen 0 1$/gen 0 -1/' s.idr >gen.idr
	bad_file gen.idr "a counter is a number"
	printf 'not a save\n' >text.idr
	bad_file text.idr "text.idr:1: not an idr save file"
	truncate -s 300M huge.idr
	bad_file huge.idr "huge.idr: 314572800 bytes: a save file holds at most 268435456"
	bad_file missing.idr "missing.idr: No such file or directory"
	mkdir dir.idr
	bad_file dir.idr "load: dir.idr: Is a directory"
}

@test "--load of a bad file runs no command and fails" {
	printf 'idr-save 1\ntree a idr\n' >cut.idr
	run --separate-stderr "$IDRSH" --load cut.idr -c "alloc x"
	assert_failure 1
	assert_equal "$stderr" "idrsh: --load: cut.idr:2: the file ends before its 'end' line (truncated?)"
	assert_output ""
}

@test "import FILE takes every ID or none, naming the bad line" {
	printf '5 five\n# a comment\n\n7\n9 nine words\n' >ids
	run -0 "$IDRSH" -c "import ids" -c list
	assert_line "imported 3 ids"
	assert_line "5 five"
	assert_line "7 (reserved)"
	assert_line '9 "nine words"'
	printf '1\n2\nthree\n' >bad
	run "$IDRSH" -c "alloc keep" -c "import bad" -c count
	assert_failure 1
	assert_output --partial "import: bad:3: bad id 'three': not a number (nothing was imported)"
	assert_line 1
	printf '1\n2\n1\n' >twice
	run "$IDRSH" -c "import twice" -c count
	assert_output --partial "twice:3: id 1 comes twice (at twice:1 too)"
	printf '1 a\n0 b\n' >taken
	run "$IDRSH" -c "alloc keep" -c "import taken" -c count
	assert_output --partial "taken:2: id 0 is allocated already (nothing was imported)"
	assert_line 1
	printf '3\n300\n' >big
	run "$IDRSH" -c "new g --tagged 8" -c "import big" -c count
	assert_output --partial "big:2: id 300 is outside [0, 255]"
	assert_line 0
	run "$IDRSH" -c "new i --ida" -c "import ids"
	assert_output --partial "ids:1: an IDA's ids hold no value"
}

@test "import reads IDs as the shell does: hex, a sign, a word apart from the value" {
	printf '0x10 sixteen\n+5 x\n7\ttab\n' >ids
	run -0 "$IDRSH" -c "import ids" -c list
	assert_output "imported 3 ids
5 x
7 tab
16 sixteen"
	printf '0x10 sixteen\n12abc\n' >glued
	run "$IDRSH" -c "import glued" -c count
	assert_failure 1
	assert_output --partial "import: glued:2: bad id '12abc': not a number (nothing was imported)"
	assert_line 0
	printf '1\n-3 minus\n' >minus
	run "$IDRSH" -c "import minus" -c count
	assert_output --partial "minus:2: bad id '-3': out of range 0 .. 4294967295"
	assert_line 0
}

@test "import pids: this system's processes, and the kernel's cursor" {
	[ -r /proc/self/comm ] || skip "no /proc"
	run -0 "$IDRSH" -c "new p" -c "import pids" -c "find $$"
	assert_line --regexp "^imported [0-9]+ ids; cursor [0-9]+$"
	assert_line "$(cat /proc/$$/comm)"
	run -0 "$IDRSH" -c "new i --ida" -c "import pids" -c "ida_exists 1"
	assert_line --regexp "^imported [0-9]+ ids$"
}

@test "a lesson may not save, load or import" {
	for line in '> save x.idr' '> load x.idr' '> import pids'; do
		printf 'title: t\n%s\n' "$line" >evil.lesson
		run "$IDRSH" -c "lesson evil.lesson"
		assert_failure 1
		assert_output --partial "is not allowed in a lesson"
	done
	[ ! -e x.idr ]
}

@test "completion, help and --help know the commands" {
	run -0 "$IDRSH" -c "help load"
	assert_output --partial "load [--replace] FILE"
	run -0 "$IDRSH" --help
	assert_output --partial "--load=FILE"
	run -0 "$IDRSH" -c 'lua local sh = require "idrsh"; print(sh.complete("--r", "load --r", 5)[1], sh.complete("p", "import p", 7)[1], sh.complete("x", "save x", 5))'
	assert_output $'--replace\tpids\tfiles'
}

@test "bash completion: --load takes a file name" {
	touch saved.idr
	run -0 bash -c 'source "$TOP/completion/idrsh.bash"
		COMP_WORDS=(idrsh --load=sav); COMP_CWORD=1
		_idrsh; printf "%s\n" "${COMPREPLY[@]}"
		COMP_WORDS=(idrsh --load sav); COMP_CWORD=2
		_idrsh; printf "%s\n" "${COMPREPLY[@]}"'
	assert_output $'--load=saved.idr\nsaved.idr'
}
