#!/usr/bin/env bats
# Hostile input to idrsh: a corpus of bad lines (tests/hostile/*.txt) and
# generated ones (binary garbage, 1 MB lines, NUL bytes).  Each bad line
# gets one clear error on its own line number, the session goes on, and
# the trees it holds are exactly as they were.  Then interrupts, and
# history files that are not what they should be.
#
# Sessions run under ulimit -v (1 GB) so that the string.rep and table
# bombs fail fast instead of eating the machine.

bats_require_minimum_version 1.5.0

HOSTILE=tests/hostile
LIMIT_KB=1048576

setup() {
	load test_helper
	idrsh_setup
}

# {==================== Sessions ====================

# A session starts with trees of each kind holding IDs, and ends by
# showing them all: its output must be that of the same start and end
# with nothing in between.
PROLOGUE=('alloc keep-a' 'alloc keep-b 70000' 'new tg --tagged 16'
	'alloc_tagged tag-a' 'new ids --ida' 'ida_alloc' 'ida_alloc 5000'
	'use default')
EPILOGUE=('use default' list count '=t:validate()' 'use tg' count
	'find_tagged 0' '=t:validate()' 'use ids' count 'ida_exists 5000'
	'=t:validate()' 'use default' trees 'path 70000' stats)

begin() {
	IN=$BATS_TEST_TMPDIR/in
	BAD=()
	N=0
	: >"$IN"
	good "${PROLOGUE[@]}"
}

# Lines that must work; lines that must each fail.
good() {
	local l
	for l; do
		printf '%s\n' "$l" >>"$IN"
		N=$((N + 1))
	done
}

bad() {
	local l
	for l; do
		printf '%s\n' "$l" >>"$IN"
		N=$((N + 1))
		BAD+=("$N")
	done
}

# The lines of a corpus file, comments and blank lines left out.
corpus() {
	grep -v -e '^#' -e '^$' "$HOSTILE/$1"
}

bad_corpus() {
	local l
	while IFS= read -r l; do
		bad "$l"
	done < <(corpus "$1")
}

# A bad line of $1, 1 MB of the character $2, then $3.
bad_big() {
	{
		printf '%s' "$1"
		head -c 1048576 /dev/zero | tr '\0' "$2"
		printf '%s\n' "$3"
	} >>"$IN"
	N=$((N + 1))
	BAD+=("$N")
}

# Runs the session on standard input, under the memory limit.
finish() {
	good "${EPILOGUE[@]}"
	run --separate-stderr bash -c 'ulimit -v "$1" && exec "$2" < "$3"' \
		sh "$LIMIT_KB" "$IDRSH" "$IN"
}

clean_output() {
	printf '%s\n' "${PROLOGUE[@]}" "${EPILOGUE[@]}" | "$IDRSH"
}

# Every bad line, and nothing else, got one error naming its line; every
# error matches the regex $1 if given; the trees are untouched.
assert_session() {
	assert_failure 1
	local others want got
	# A Lua error's stack traceback follows its message.
	others=$(printf '%s\n' "$stderr" | LC_ALL=C grep -av -e '^$' \
		-e '^idrsh: <stdin>:[0-9]*: ' -e '^stack traceback:$' \
		-e $'^\t' | head -c 300)
	[ -z "$others" ] || fail "not a diagnostic: $others"
	if [ -n "${1:-}" ]; then
		others=$(printf '%s\n' "$stderr" | LC_ALL=C grep -avE -e '^$' \
			-e "$1" | head -c 300)
		[ -z "$others" ] || fail "unexpected message: $others"
	fi
	want=$(printf '%s\n' "${BAD[@]}")
	got=$(printf "%s\n" "$stderr" | LC_ALL=C sed -n 's/^idrsh: <stdin>:\([0-9]*\):.*/\1/p')
	[ "$got" = "$want" ] || fail "errors on lines $(echo $got | cut -c1-300), wanted $(echo $want | cut -c1-300)"
	assert_equal "$output" "$(clean_output)"
	echo "# ${#BAD[@]} bad lines" >&3
}

# }==================================================

@test "hostile: a clean session shows every tree" {
	begin
	finish
	assert_success
	assert_equal "$stderr" ""
	assert_line "0 keep-a"
	assert_line "70000 keep-b"
	assert_line "tag-a"
	assert_line "yes"
	assert_line "* default      idr    2 ids"
}

@test "hostile: bad numbers in every notation, in every number slot" {
	local n t
	local ids=('find %s' 'remove %s' 'replace %s x' 'next %s' 'path %s')
	local idr=('alloc x %s' 'alloc_cyclic x %s' 'get_new_above x %s'
		'fail %s' 'new n --base %s' 'new n --tagged %s')
	# END <= 0 means no limit: an END from INT_MIN up is a number.
	local ends=('alloc x 0 %s' 'alloc_cyclic x 0 %s')
	local u32=('alloc_u32 x %s 10' 'alloc_u32 x 0 %s')
	local tagged=('find_tagged %s' 'remove_tagged %s' 'check %s' 'untag %s')
	local ida=('ida_alloc %s' 'ida_alloc 0 %s' 'ida_free %s'
		'ida_exists %s' 'path %s')
	begin
	while IFS= read -r n; do
		for t in "${ids[@]}" "${idr[@]}" "${u32[@]}"; do
			bad "${t//%s/$n}"
		done
		if ! [[ $n =~ ^-(1|2147483648|0x1)$ ]]; then
			for t in "${ends[@]}"; do bad "${t//%s/$n}"; done
		fi
		good 'use tg'
		for t in "${tagged[@]}"; do bad "${t//%s/$n}"; done
		good 'use ids'
		for t in "${ida[@]}"; do bad "${t//%s/$n}"; done
		good 'use default'
	done < <(corpus numbers.txt)
	# Above INT_MAX: bad but for alloc_u32's START and MAX and an idr's
	# IDs.
	while IFS= read -r n; do
		for t in "${idr[@]}" "${ends[@]}"; do bad "${t//%s/$n}"; done
		good 'use tg'
		for t in "${tagged[@]}"; do bad "${t//%s/$n}"; done
		good 'use ids'
		for t in "${ida[@]}"; do bad "${t//%s/$n}"; done
		good 'use default'
	done < <(corpus numbers-u32.txt)
	finish
	assert_session "^idrsh: <stdin>:[0-9]+: [a-z_0-9]+: bad (ID|START|END|MAX|MIN|N|BASE|BITS|TAGGED) '.*': (not a number|out of range -?[0-9]+ \.\. [0-9]+)$"
}

@test "hostile: numbers at the edges of each range are taken" {
	run -0 "$IDRSH" -c 'alloc a 2147483647' -c 'find 0x7fffffff' \
		-c 'find 0002147483647' -c 'alloc_u32 b 4294967295 0xFFFFFFFF' \
		-c 'alloc_u32 c 0x00000000000000000000000000001 1' \
		-c 'find 0X0000000000000000000000001' -c 'alloc d 017' -c 'find 17'
	assert_output "2147483647
a
a
4294967295
1
c
17
d"
}

@test "hostile: quotes and escapes that never close" {
	begin
	bad_corpus quotes.txt
	finish
	assert_session "^idrsh: <stdin>:[0-9]+: [a-z_0-9]+: unterminated (double|single) quote$"
}

@test "hostile: odd but closed quotes and escapes store what they say" {
	# \q keeps its backslash; \0 and \x41 are bytes (as list prints them).
	cat >"$BATS_TEST_TMPDIR/odd.idrsh" <<'EOF'
alloc \
alloc "'"'"'
alloc 'it''s'
alloc "\q\0\x41"
alloc "a\\b\"c"
alloc """"
alloc "a"'b'c
alloc "tab\there" "7"
alloc "nl\nx"
list
EOF
	run -0 "$IDRSH" "$BATS_TEST_TMPDIR/odd.idrsh"
	assert_output - <<'EOF'
0
1
2
3
4
5
6
7
8
0 "\\"
1 "'\""
2 its
3 "\\q\000A"
4 "a\\b\"c"
5 ""
6 abc
7 "tab\there"
8 "nl\nx"
EOF
}

@test "hostile: unknown commands, wrong arity, bad names and options" {
	begin
	bad_corpus commands.txt
	finish
	assert_session
}

@test "hostile: idr commands on an IDA say what to use" {
	begin
	good 'use ids'
	bad_corpus wrong-tree.txt
	finish
	assert_session "^idrsh: <stdin>:[0-9]+: [a-z_0-9]+: (tree 'ids' is (an IDA|not tagged)|not available on this tree)"
}

@test "hostile: control characters and invalid UTF-8 never reach the terminal raw" {
	local l
	begin
	while IFS= read -r l; do
		bad "$(printf '%b' "$l")"
	done < <(corpus bytes.txt)
	finish
	assert_session
	# No escape, bell or backspace in what idrsh wrote to stderr.
	run bash -c 'LC_ALL=C grep -c "[$(printf "\\001-\\010\\013-\\037\\177")]" <<<"$1"' sh "$stderr"
	assert_output "0"
}

@test "hostile: Lua that recurses, overflows, bombs or raises odd errors" {
	begin
	bad_corpus lua.txt
	finish
	assert_session
	# The string.rep and table bombs failed for want of memory.
	assert_regex "$stderr" "resulting string too large"
	assert_regex "$stderr" "lua: not enough memory"
	assert_regex "$stderr" "stack overflow"
}

@test "hostile: 1 MB lines of every kind" {
	begin
	bad_big 'alloc "' x ''
	bad_big 'alloc "' '\\' ''
	bad_big "alloc '" '"' ''
	bad_big 'find ' 9 ''
	bad_big 'find 0x' f ''
	bad_big 'find ' - ''
	bad_big '' ' ' 'frob'
	bad_big '=' '(' ''
	bad_big 'lua ' '(' ''
	bad_big 'use ' a ''
	bad_big 'help ' a ''
	bad_big 'new ' / ''
	bad_big 'source /nonexistent/' a ''
	bad_big 'alloc x 1 ' 1 ''
	# Blank and comment lines of 1 MB are no commands, and no errors.
	{ head -c 1048576 /dev/zero | tr '\0' ' '; echo; } >>"$IN"
	{ printf '#'; head -c 1048576 /dev/zero | tr '\0' c; echo; } >>"$IN"
	N=$((N + 2))
	finish
	assert_session
}

@test "hostile: binary garbage, NUL bytes included" {
	begin
	lua5.4 "$HOSTILE/garbage.lua" 1 1500 $((N + 1)) >>"$IN" 2>"$BATS_TEST_TMPDIR/bad"
	mapfile -t -O "${#BAD[@]}" BAD <"$BATS_TEST_TMPDIR/bad"
	N=$((N + 1500))
	[ "${#BAD[@]}" -gt 1000 ]
	finish
	assert_session
}

@test "hostile: NUL bytes anywhere in a line" {
	begin
	for l in '\0' '\0alloc a' 'alloc a\0' 'alloc "a\0b"' '=1\0' 'lua x = 1\0' \
		'# a comment\0' '   \0   ' 'find 0\0' 'source \0/etc/passwd'; do
		printf "$l\\n" >>"$IN"
		N=$((N + 1))
		BAD+=("$N")
	done
	finish
	assert_session "^idrsh: <stdin>:[0-9]+: the line holds a NUL byte$"
}

@test "hostile: a sourced file of bad lines: errors name the file; the session goes on" {
	local f=$BATS_TEST_TMPDIR/bad.idrsh want got n
	{ corpus quotes.txt; corpus commands.txt; } >"$f"
	n=$(grep -ac '' "$f")
	# Every corpus line is bad; garbage.lua names its bad lines.
	want=$({ seq 1 "$n"; lua5.4 "$HOSTILE/garbage.lua" 2 200 $((n + 1)) \
		2>&1 >>"$f"; })
	begin
	good "source $f"
	finish
	assert_failure 1
	assert_equal "$output" "$(clean_output)"
	run bash -c 'grep -avc "^idrsh: $1:[0-9]*: " <<<"$2"' sh "$f" "$stderr"
	assert_output "0"
	got=$(printf '%s\n' "$stderr" | LC_ALL=C sed -n "s|^idrsh: $f:\([0-9]*\):.*|\1|p")
	[ "$got" = "$want" ] || fail "errors on lines $(echo $got | cut -c1-200), wanted $(echo $want | cut -c1-200)"
	echo "# $(grep -ac '' <<<"$want") bad lines" >&3
}

@test "hostile: source of an endless file runs out of memory, and the session goes on" {
	begin
	bad 'source /dev/zero'
	finish
	assert_session "^idrsh: <stdin>:[0-9]+: source: not enough memory$"
}

@test "hostile: every corpus, garbage, NULs and 1 MB lines under ASan+UBSan" {
	local asan=${IDRSH_ASAN:-./build/idrsh-asan} l
	[ -x "$asan" ] || skip "no $asan (make build/idrsh-asan)"
	begin
	bad_corpus commands.txt
	bad_corpus quotes.txt
	bad_corpus lua.txt
	while IFS= read -r l; do
		bad "find $l" "alloc x $l" "alloc_u32 x 0 $l"
	done < <(corpus numbers.txt)
	while IFS= read -r l; do
		bad "$(printf '%b' "$l")"
	done < <(corpus bytes.txt)
	printf 'alloc a\0b\n' >>"$IN"
	N=$((N + 1))
	BAD+=("$N")
	bad 'source /dev/zero'
	bad_big 'alloc "' x ''
	bad_big '=' '(' ''
	lua5.4 "$HOSTILE/garbage.lua" 4 500 $((N + 1)) >>"$IN" 2>"$BATS_TEST_TMPDIR/bad"
	mapfile -t -O "${#BAD[@]}" BAD <"$BATS_TEST_TMPDIR/bad"
	N=$((N + 500))
	good "${EPILOGUE[@]}"
	# Memory runs out at 256 MB a block: NULL from malloc, not a report.
	run --separate-stderr env \
		ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=256 \
		"$asan" <"$IN"
	stderr=$(printf '%s\n' "$stderr" | grep -av '^==[0-9]*==WARNING: AddressSanitizer failed to allocate')
	refute_regex "$stderr" 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error'
	assert_session
}

# {==================== Interrupts ====================

# Runs idrsh on the lines given; once it has reported the error of a
# "find 99" line put before the endless one, sends SIGINT $1 times, a
# second apart.  idrsh must still be running at each signal (exit 99 if
# not), and a watchdog kills it after 30 s (exit 137), so that a lost
# signal fails the test instead of hanging it.
interrupt() {
	local times=$1
	shift
	printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/in"
	run --separate-stderr bash -c '
		: > "$3"
		"$1" < "$2" 2> "$3" & pid=$!
		(sleep 30; kill -KILL $pid) >/dev/null 2>&1 </dev/null 3>&- & dog=$!
		for i in $(seq 100); do grep -qs "no id 99" "$3" && break; sleep 0.1; done
		for i in $(seq "$4"); do
			sleep 1
			kill -0 $pid 2>/dev/null || { cat "$3" >&2; kill $dog; exit 99; }
			kill -INT $pid
		done
		wait $pid; status=$?; kill $dog 2>/dev/null
		cat "$3" >&2; exit $status' \
		sh "$IDRSH" "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/err" "$times"
}

@test "hostile: SIGINT stops an endless =EXPR; the next line runs" {
	interrupt 1 'alloc a' 'find 99' '=(function() while true do end end)()' count
	assert_failure 1
	assert_output "0
1"
	assert_equal "$stderr" "idrsh: <stdin>:2: find: no id 99 (ENOENT)
idrsh: <stdin>:3: interrupted!"
}

@test "hostile: SIGINT stops an endless loop in a sourced Lua file" {
	printf 'for i = 1, math.huge do t:find(0) end\n' >"$BATS_TEST_TMPDIR/loop.lua"
	interrupt 1 'alloc a' 'find 99' "source $BATS_TEST_TMPDIR/loop.lua" count
	assert_failure 1
	assert_output "0
1"
	assert_equal "$stderr" "idrsh: <stdin>:2: find: no id 99 (ENOENT)
idrsh: <stdin>:3: interrupted!"
}

@test "hostile: SIGINT stops a loop inside a sourced command file" {
	printf 'alloc b\nlua repeat until false\nalloc c\n' >"$BATS_TEST_TMPDIR/loop.idrsh"
	interrupt 1 'alloc a' 'find 99' "source $BATS_TEST_TMPDIR/loop.idrsh" count
	assert_failure 1
	assert_output "0
1
2"
	assert_regex "$stderr" "interrupted!"
}

@test "hostile: a second SIGINT ends idrsh when Lua is stuck in a C function" {
	# An exponential pattern match: the hook the first SIGINT sets cannot
	# run until string.find returns.
	interrupt 2 'alloc a' 'find 99' \
		'=("a"):rep(40):find(("a?"):rep(40) .. ("a"):rep(40))' count
	assert_failure 130
}

@test "hostile: a second SIGINT ends idrsh when Lua loops in a coroutine" {
	# Lua's hooks are per coroutine: the one the first SIGINT sets on the
	# main one never runs, as with lua5.4.
	interrupt 2 'alloc a' 'find 99' \
		'lua coroutine.wrap(function() while true do end end)()' count
	assert_failure 130
}

@test "hostile: output lost to a full disk is an error, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run --separate-stderr bash -c '"$1" -c "alloc a" -c list > /dev/full' sh "$IDRSH"
	assert_failure 1
	assert_equal "$stderr" "idrsh: write error: No space left on device"
	run --separate-stderr bash -c '"$1" -c "lua for i = 1, 1e5 do print(i) end" > /dev/full' sh "$IDRSH"
	assert_failure 1
	assert_regex "$stderr" "^idrsh: write error"
	run --separate-stderr "$IDRSH" -c 'alloc a' -c 'dot /dev/full' -c count
	assert_failure 1
	assert_output "0
1"
	assert_equal "$stderr" "idrsh: -c:2: dot: /dev/full: No space left on device"
}

# }==================================================

# {==================== History files ====================

# An interactive session (--interactive: readline, and history, without
# a terminal) with history in $1, typing "count".
history_run() {
	run --separate-stderr env IDRSH_HISTORY="$1" timeout 20 "$IDRSH" \
		--interactive -q <<<"count"
}

@test "history: created 0600 even under umask 000, and an old file made 0600" {
	local h=$BATS_TEST_TMPDIR/h
	(umask 000 && env IDRSH_HISTORY="$h" "$IDRSH" --interactive -q <<<"count" >/dev/null)
	run stat -c %a "$h"
	assert_output "600"
	printf 'alloc old\n' >"$h"
	chmod 644 "$h"
	history_run "$h"
	assert_success
	run stat -c %a "$h"
	assert_output "600"
	run cat "$h"
	assert_output "alloc old
count"
}

@test "history: a directory is no history; the shell works" {
	history_run "$BATS_TEST_TMPDIR"
	assert_success
	assert_line "0"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR is not a regular file; no history"
}

@test "history: a FIFO or a device is no history, does not hang, keeps its mode" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	chmod 644 "$BATS_TEST_TMPDIR/fifo"
	history_run "$BATS_TEST_TMPDIR/fifo"
	assert_success
	assert_line "0"
	assert_equal "$stderr" "idrsh: $BATS_TEST_TMPDIR/fifo is not a regular file; no history"
	run stat -c %a "$BATS_TEST_TMPDIR/fifo"
	assert_output "644"
	# A null device of our own (root, where mknod is allowed): as
	# IDRSH_HISTORY=/dev/null, it must not become mode 0600.
	if mknod "$BATS_TEST_TMPDIR/null" c 1 3 2>/dev/null; then
		chmod 666 "$BATS_TEST_TMPDIR/null"
		history_run "$BATS_TEST_TMPDIR/null"
		assert_success
		assert_line "0"
		run stat -c %a "$BATS_TEST_TMPDIR/null"
		assert_output "666"
	fi
}

@test "history: a dangling symlink into a missing directory is reported at exit" {
	ln -s "$BATS_TEST_TMPDIR/missing/dir/h" "$BATS_TEST_TMPDIR/link"
	history_run "$BATS_TEST_TMPDIR/link"
	assert_success
	assert_line "0"
	assert_equal "$stderr" "idrsh: cannot write history to $BATS_TEST_TMPDIR/link: No such file or directory"
}

@test "history: a symlink to a regular file is followed" {
	printf 'alloc old\n' >"$BATS_TEST_TMPDIR/real"
	ln -s "$BATS_TEST_TMPDIR/real" "$BATS_TEST_TMPDIR/link"
	history_run "$BATS_TEST_TMPDIR/link"
	assert_success
	[ -L "$BATS_TEST_TMPDIR/link" ]
	run cat "$BATS_TEST_TMPDIR/real"
	assert_output "alloc old
count"
}

@test "history: a file the user cannot read or write is reported, not fatal" {
	local dir run_as=()
	dir=$(mktemp -d /tmp/idrsh-hostile.XXXXXX)
	chmod 755 "$dir"
	cp "$IDRSH" "$dir/idrsh"
	printf 'alloc secret\n' >"$dir/h"
	chmod 000 "$dir/h"
	# Root reads anything: run as nobody then, a copy of idrsh that
	# nobody can reach.
	if [ "$(id -u)" = 0 ]; then
		run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
	run --separate-stderr "${run_as[@]}" env HOME="$dir" \
		IDRSH_HISTORY="$dir/h" timeout 20 "$dir/idrsh" --interactive -q <<<"count"
	rm -rf "$dir"
	assert_success
	assert_line "0"
	assert_equal "$stderr" "idrsh: cannot write history to $dir/h: Permission denied"
}

@test "history: a file of binary garbage and huge lines is read, then trimmed" {
	local h=$BATS_TEST_TMPDIR/h
	lua5.4 "$HOSTILE/garbage.lua" 3 3000 1 >"$h" 2>/dev/null
	{ head -c 1048576 /dev/zero | tr '\0' y; echo; } >>"$h"
	history_run "$h"
	assert_success
	assert_line "0"
	assert_equal "$stderr" ""
	# At most 1000 entries are kept, the newest last.
	[ "$(wc -l <"$h")" -le 1000 ]
	[ "$(tail -n 1 "$h")" = count ]
}

# }==================================================
