# The examples in examples/: each runs and prints exactly examples/NAME.out.

setup() {
	load test_helper
}

# Run "$@" and compare its output (stdout and stderr) byte for byte with
# the file $want; the exit status must be 0.
check_output() {
	local want=$1
	shift
	"$@" > "$BATS_TEST_TMPDIR/got" 2>&1 ||
		{ echo "exit status $?"; cat "$BATS_TEST_TMPDIR/got"; return 1; }
	cmp "$want" "$BATS_TEST_TMPDIR/got" ||
		{ diff "$want" "$BATS_TEST_TMPDIR/got"; return 1; }
}

lua_run() {
	LUA_CPATH_5_4='build/?.so;;' lua5.4 "$@"
}

# Run "$@" as bats's run does; it must exit 0.
run_ok() {
	run "$@"
	[ "$status" -eq 0 ] ||
		{ echo "exit status $status"; echo "$output"; return 1; }
}

# The number of the first line of the last run's output that matches
# the extended regular expression $1; nothing if none does.
line_of() {
	printf '%s\n' "$output" | grep -n -m 1 -E "$1" | cut -d: -f1
}

# Whether line $1 comes before line $2, both found; else say what was.
before() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" -lt "$2" ] ||
		{ echo "lines '$1', '$2' in:"; echo "$output"; return 1; }
}

# Run here, so that an example added without a case of its own is run too.
@test "every example prints its expected output, and every output has an example" {
	for f in examples/*.idrsh; do
		check_output "${f%.*}.out" ./build/idrsh "$f" ||
			{ echo "in $f"; return 1; }
	done
	for f in examples/*.lua; do
		check_output "${f%.*}.out" lua_run "$f" ||
			{ echo "in $f"; return 1; }
	done
	[ -f examples/minor-numbers.out ]	# run by its own case below
	[ -f examples/rcu-readers.out ]	# and this one
	for f in examples/*.out; do
		ls "${f%.out}".* | grep -qv '\.out$' ||
			{ echo "$f: no example"; return 1; }
	done
}

@test "quickstart.idrsh prints quickstart.out" {
	check_output examples/quickstart.out ./build/idrsh examples/quickstart.idrsh
}

@test "quickstart.idrsh runs the same from standard input" {
	check_output examples/quickstart.out \
		sh -c './build/idrsh < examples/quickstart.idrsh'
}

@test "grow-shrink.idrsh prints grow-shrink.out" {
	check_output examples/grow-shrink.out ./build/idrsh examples/grow-shrink.idrsh
}

@test "grow-shrink.idrsh: the tree grows to height 2, then shrinks to 1" {
	run_ok ./build/idrsh examples/grow-shrink.idrsh
	before "$(line_of '^trace: grow .*height=2$')" \
		"$(line_of '^trace: shrink .*height=1$')"
}

@test "inside.idrsh: explained, the tree grows, then shrinks; diff says so" {
	run_ok ./build/idrsh examples/inside.idrsh
	before "$(line_of '^  The tree grows a level: .* Height 2\.$')" \
		"$(line_of '^since the mark: height 1 -> 2; 2 nodes made; 1 ID added$')"
	before "$(line_of '^step [0-9]+, visit: .* L1 0..4095 and takes its slot 1 ')" \
		"$(line_of '^step [0-9]+, done: alloc is over: it returns 64$')"
	before "$(line_of '^  The top, node L1 .* is the new top\. Height 1\.$')" \
		"$(line_of '^since the mark: height 2 -> 1; ')"
}

@test "eagain-race.lua prints eagain-race.out" {
	check_output examples/eagain-race.out lua_run examples/eagain-race.lua
}

@test "eagain-race.lua: A's first get_new fails with EAGAIN, its retry works" {
	run_ok lua_run examples/eagain-race.lua
	fail=$(line_of '^CPU A: get_new -> nil, ".*", EAGAIN$')
	[ "$(line_of '^CPU A: get_new ')" = "$fail" ] ||
		{ echo "A's first get_new is not the EAGAIN one"; return 1; }
	before "$fail" "$(line_of '^CPU A: get_new -> 64, on try 2;')"
}

@test "eagain-race.lua prints the same through idrsh (the module built in)" {
	check_output examples/eagain-race.out ./build/idrsh examples/eagain-race.lua
}

@test "posix-timers.lua prints posix-timers.out" {
	check_output examples/posix-timers.out lua_run examples/posix-timers.lua
}

@test "posix-timers.lua: the stale tagged ID is refused with ESTALE" {
	run_ok lua_run examples/posix-timers.lua
	[ -n "$(line_of '^check\(0\) -> nil, "stale tagged id 0", ESTALE$')" ]
	[ -n "$(line_of '^check\(65536\) -> true$')" ]
}

@test "posix-timers.lua prints the same through idrsh" {
	check_output examples/posix-timers.out ./build/idrsh examples/posix-timers.lua
}

@test "pid-allocator.lua prints pid-allocator.out" {
	check_output examples/pid-allocator.out lua_run examples/pid-allocator.lua
}

@test "pid-allocator.lua prints the same through idrsh" {
	check_output examples/pid-allocator.out ./build/idrsh examples/pid-allocator.lua
}

@test "minor-numbers.c builds against the staged install and prints its .out" {
	stage=$BATS_TEST_TMPDIR/stage
	run make -s install DESTDIR="$stage" PREFIX=/usr
	[ "$status" -eq 0 ]
	export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig"
	export PKG_CONFIG_SYSROOT_DIR="$stage"
	run sh -c "cc -std=c11 -Wall -Wextra -Werror -Wwrite-strings \
		-o '$BATS_TEST_TMPDIR/minor-numbers' examples/minor-numbers.c \
		\$(pkg-config --cflags --libs idr)"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	check_output examples/minor-numbers.out \
		env LD_LIBRARY_PATH="$stage/usr/lib" "$BATS_TEST_TMPDIR/minor-numbers"
}

@test "rcu-readers.c builds against the staged install (idr-rcu.pc) and prints its .out" {
	stage=$BATS_TEST_TMPDIR/stage
	run make -s install DESTDIR="$stage" PREFIX=/usr
	[ "$status" -eq 0 ]
	export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig"
	export PKG_CONFIG_SYSROOT_DIR="$stage"
	run sh -c "cc -std=c11 -pthread -Wall -Wextra -Werror -Wwrite-strings \
		-o '$BATS_TEST_TMPDIR/rcu-readers' examples/rcu-readers.c \
		\$(pkg-config --cflags --libs idr-rcu)"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	check_output examples/rcu-readers.out \
		env LD_LIBRARY_PATH="$stage/usr/lib" "$BATS_TEST_TMPDIR/rcu-readers"
}

@test "make examples-svg draws the quickstart's tree, and grow-shrink as a sequence" {
	rm -f build/tree.svg build/examples/grow-shrink-*.svg
	run make -s examples-svg
	[ "$status" -eq 0 ]
	grep -q '<svg' build/tree.svg
	grep -q '960..1023' build/tree.svg
	# One picture after each alloc or remove: one leaf, grown, shrunk.
	[ "$(ls build/examples/grow-shrink-*.svg | wc -l)" -eq 3 ]
	grep -q '>L1<' build/examples/grow-shrink-2.svg
	grep -q 'the way down to ID 64' build/examples/grow-shrink-2.svg
	! grep -q '>L1<' build/examples/grow-shrink-3.svg
	grep -q 'their nodes were freed' build/examples/grow-shrink-3.svg
}
