#!/usr/bin/env bats
# idrsh and the Lua module when memory runs out for real, under ulimit -v:
# a clear error, exit status 1, no crash, and sound trees afterwards.
#
# The limit is measured, not guessed: the address space a process has once
# started, plus HEADROOM_KB.  Every test then asks for more than that, so
# it fails part way on any machine.

bats_require_minimum_version 1.5.0

HEADROOM_KB=${LIMITS_HEADROOM_KB:-3072}

# The VmPeak, in kB, of a started idrsh (or lua5.4 with the module).
vm_peak() {
	"$@" 'for l in io.lines("/proc/self/status") do
		local kb = l:match("^VmPeak:%s*(%d+)")
		if kb then print(kb) end
	end' 2>/dev/null
}

setup_file() {
	load test_helper
	IDRSH=${IDRSH:-./build/idrsh}
	IDRSH_KB=$(vm_peak "$IDRSH" -e)
	LUA_KB=$(LUA_CPATH_5_4='build/?.so;;' vm_peak lua5.4 -l idr -e)
	export IDRSH_KB LUA_KB
}

setup() {
	load test_helper
	idrsh_setup
	export LUA_CPATH_5_4='build/?.so;;'
	[ -n "$IDRSH_KB" ] || skip "cannot read VmPeak from /proc/self/status"
	# A sanitizer's shadow memory does not fit under any sensible ulimit.
	if ! (ulimit -v $((IDRSH_KB + HEADROOM_KB)) && "$IDRSH" -c count) >/dev/null 2>&1; then
		skip "$IDRSH does not start under ulimit -v (a sanitizer build?)"
	fi
}

# Runs "$@" with the address space limited to $1 kB more than it starts in.
limited() {
	local kb=$1
	shift
	run --separate-stderr bash -c 'ulimit -v "$1" && shift && exec "$@"' \
		limited "$kb" "$@"
}

# Every stderr line is an out-of-memory error from the shell.
assert_only_oom_errors() {
	local line n=0
	while IFS= read -r line; do
		n=$((n + 1))
		[[ $line =~ ^idrsh:\ [^:]+:[0-9]+:\ ([a-z_]+:\ )?(not\ enough\ memory|out\ of\ memory)( \(ENOMEM\))?$ ]] ||
			fail "not an out-of-memory error: $line"
	done <<<"$stderr"
	[ "$n" -gt 0 ] || fail "no error reported"
}

# The tree of two IDs the scripts keep, dumped without any limit.
kept_dump() {
	"$IDRSH" -c 'alloc keep-a' -c 'alloc keep-b 70000' -c dump | tail -n +3
}

# The Lua script of the tests below: fill one tree until memory runs out,
# inside pcall; then check both trees, free the full one and show the
# other.  It ends with the memory error, so the run exits 1.
exhaust_lua() {
	cat <<'EOF'
local idr = require "idr"
local keep = idr.new()
assert(keep:alloc("keep-a") == 0 and keep:alloc("keep-b", 70000) == 70000)
local junk = idr.new()
local ok, err = pcall(function()
	for i = 1, math.huge do
		local start = i % 3 == 0 and i * 64 or 0
		-- nil, "not enough memory" when malloc fails in C; Lua's own
		-- allocator raises the same message.
		local id, msg = junk:alloc(string.rep("x", 1000) .. i, start)
		if not id then error(msg, 0) end
	end
end)
-- Neither call allocates: they run with the memory still full.
local n, sound = #junk, junk:validate()
junk:destroy()
junk = nil
collectgarbage()
print("failed:", not ok, "allocated:", n > 100, "sound:", sound)
print("kept:", #keep, keep:validate(), keep:find(0), keep:find(70000))
io.write(keep:dump())
error(err, 0)
EOF
}

@test "limits: the limit is measured, and idrsh starts under it" {
	[ "$IDRSH_KB" -gt 1000 ]
	limited $((IDRSH_KB + HEADROOM_KB)) "$IDRSH" -c 'alloc a' -c count
	assert_success
	assert_output "0
1"
}

@test "limits: alloc commands fail part way with a clear error; the shell goes on" {
	local script=$BATS_TEST_TMPDIR/fill.idrsh value
	value=$(head -c 1000 /dev/zero | tr '\0' v)
	{
		printf 'alloc keep-a\nalloc keep-b 70000\nnew junk\n'
		# Twice the headroom, in 1 kB values.
		for ((i = 0; i < 2 * HEADROOM_KB; i++)); do
			printf 'alloc %s%d\n' "$value" "$i"
		done
		printf 'use default\ndrop junk\nlua collectgarbage()\n'
		printf 'count\n=t:validate()\ndump\n'
	} > "$script"
	limited $((IDRSH_KB + HEADROOM_KB)) "$IDRSH" "$script"
	assert_failure 1
	assert_only_oom_errors
	local failed
	failed=$(wc -l <<<"$stderr")
	# Some allocations worked before memory ran out, and some failed.
	[ "$failed" -lt $((2 * HEADROOM_KB)) ]
	assert_line --index 0 "0"
	assert_line --index 1 "70000"
	assert_line --index 2 "0"
	# The kept tree: 2 IDs, sound, and dumped as it was.
	local dump n=${#lines[@]} k
	dump=$(kept_dump)
	k=$(wc -l <<<"$dump")
	assert_equal "${lines[n - k - 2]}" "2"
	assert_equal "${lines[n - k - 1]}" "true"
	assert_equal "$(printf '%s\n' "${lines[@]: -k}")" "$dump"
}

@test "limits: a Lua loop inside idrsh runs out of memory; trees checked after it" {
	exhaust_lua > "$BATS_TEST_TMPDIR/exhaust.lua"
	limited $((IDRSH_KB + HEADROOM_KB)) "$IDRSH" "$BATS_TEST_TMPDIR/exhaust.lua"
	assert_failure 1
	assert_equal "$stderr" "idrsh: not enough memory"
	assert_line --index 0 "failed:	true	allocated:	true	sound:	true"
	assert_line --index 1 "kept:	2	true	keep-a	keep-b"
	assert_equal "$(printf '%s\n' "${lines[@]:2}")" "$(kept_dump)"
}

@test "limits: the same in lua5.4 with the module" {
	[ -n "$LUA_KB" ] || skip "lua5.4 with build/idr.so does not start"
	exhaust_lua > "$BATS_TEST_TMPDIR/exhaust.lua"
	limited $((LUA_KB + HEADROOM_KB)) lua5.4 "$BATS_TEST_TMPDIR/exhaust.lua"
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "lua5.4: not enough memory"
	assert_line --index 0 "failed:	true	allocated:	true	sound:	true"
	assert_line --index 1 "kept:	2	true	keep-a	keep-b"
	assert_equal "$(printf '%s\n' "${lines[@]:2}")" "$(kept_dump)"
}

@test "limits: out of memory with no pcall: the error escapes to the shell, which goes on" {
	# The loop's reserve is garbage once the chunk has failed: the next
	# allocation's emergency collection frees it, so the next lines run.
	limited $((IDRSH_KB + HEADROOM_KB)) "$IDRSH" < <(printf '%s\n' \
		'alloc keep-a' 'alloc keep-b 70000' 'new junk' 'use default' \
		'lua local reserve = string.rep("r", 1 << 16) for i = 1, math.huge do assert(trees.junk:alloc(string.rep("x", 1000) .. i)) end' \
		'=#trees.junk > 100, trees.junk:validate()' 'drop junk' \
		'lua collectgarbage()' count '=t:validate()' dump)
	assert_failure 1
	# Lua's allocator or the library's malloc may fail first (the
	# library's ENOMEM then fails the chunk's assert): line 5 either way.
	[[ "$stderr" =~ ^"idrsh: <stdin>:5: lua: "(lua:1: )?"not enough memory" ]]
	[ "$(grep -c '^idrsh: ' <<<"$stderr")" -eq 1 ]
	# collectgarbage() returns 0, and 'lua' prints it, as lua5.4 does.
	assert_equal "$(printf '%s\n' "${lines[@]:0:6}")" "0
70000
true	true
0
2
true"
	assert_equal "$(printf '%s\n' "${lines[@]:6}")" "$(kept_dump)"
}

@test "limits: a line too long for the memory left is an error, not the end of input" {
	limited $((IDRSH_KB + HEADROOM_KB)) bash -c '
		{ printf "alloc a\n"; head -c $((4 * $2 * 1024)) /dev/zero | tr "\0" x;
		  printf "\ncount\n"; } | "$1"' sh "$IDRSH" "$HEADROOM_KB"
	assert_failure 1
	assert_output "0"
	assert_equal "$stderr" "idrsh: <stdin>:2: cannot read the line: Cannot allocate memory"
}
