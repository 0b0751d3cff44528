#!/usr/bin/env bats
# idrsh's dump options and stats, off a terminal (the pager's tests, at a
# pty, are in idrsh_pager.bats).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

idrsh_lines() {
	run --separate-stderr "$IDRSH" < <(printf '%s\n' "$@")
}

DENSE='lua for i = 0, 99999 do t:alloc("v") end'

@test "dump --depth, --at, --range, --entries, --full on 100,000 IDs" {
	idrsh_lines "$DENSE" "dump --depth 1" "dump --at 70000 --entries 2" \
		"dump --range 99998 100001"
	assert_success
	assert_line "  L1 98304..102399: 1 node with room"
	assert_line "      69952:v 69953:v (+62 more)"
	assert_line "      99998:v 99999:v"
	# --full: the 16 leaves over 99000..99999, each drawn, none collapsed.
	idrsh_lines "$DENSE" "dump --full --range 99000 99999"
	assert_success
	[ "$(printf '%s\n' "$output" | grep -c '^    L0 [0-9]*\.\.[0-9]*  64/64$')" -eq 16 ]
}

@test "dump's options: the first invalid value on each side, and misuse" {
	idrsh_lines "$DENSE" "dump --depth 0" "dump --depth 35" \
		"dump --entries 0" "dump --entries 65" "dump --at -1" \
		"dump --at 4294967296" "dump --range -1 5" "dump --range 5 4" \
		"dump --range 0 4294967296" "dump --at 1 --range 1 2" "dump --deep" \
		"dump 5" "dump --at" "dump --full --depth 2" \
		"dump --depth 1 --depth 34 --entries 1 --entries 64"
	assert_failure 1
	assert_equal "$stderr" "idrsh: <stdin>:2: dump: bad --depth N '0': out of range 1 .. 34
idrsh: <stdin>:3: dump: bad --depth N '35': out of range 1 .. 34
idrsh: <stdin>:4: dump: bad --entries N '0': out of range 1 .. 64
idrsh: <stdin>:5: dump: bad --entries N '65': out of range 1 .. 64
idrsh: <stdin>:6: dump: bad --at ID '-1': out of range 0 .. 4294967295
idrsh: <stdin>:7: dump: bad --at ID '4294967296': out of range 0 .. 4294967295
idrsh: <stdin>:8: dump: bad --range A '-1': out of range 0 .. 4294967295
idrsh: <stdin>:9: dump: bad --range 5 4: A must not be above B
idrsh: <stdin>:10: dump: bad --range B '4294967296': out of range 0 .. 4294967295
idrsh: <stdin>:11: dump: give --at or --range, not both
idrsh: <stdin>:12: dump: unknown option '--deep'
idrsh: <stdin>:13: usage: dump [--depth N] [--at ID | --range A B] [--entries N] [--full]
idrsh: <stdin>:14: dump: --at ID: a number is missing
idrsh: <stdin>:15: dump: give --full or --depth, not both"
}

@test "an IDA's --at goes up to INT_MAX" {
	idrsh_lines "new i --ida" ida_alloc "dump --at 2147483647" "dump --at 2147483648"
	assert_failure 1
	assert_line "(no node below holds ID 2147483647: it is free)"
	assert_equal "$stderr" "idrsh: <stdin>:4: dump: bad --at ID '2147483648': out of range 0 .. 2147483647"
}

@test "off a terminal a dump is held to 50 lines unless --full" {
	idrsh_lines 'lua for i = 0, 63, 2 do t:alloc(i, i * 4096) end' dump
	assert_success
	[ "${#lines[@]}" -eq 50 ]
	assert_line --index 49 "(1 of 3 levels shown, 17 lines cut; more: --full, --at ID, --range A B)"
	idrsh_lines 'lua for i = 0, 63, 2 do t:alloc(i, i * 4096) end' "dump --full"
	assert_success
	[ "${#lines[@]}" -eq 194 ]
}

@test "dump --depth N is whole off a terminal, however long" {
	SPREAD='lua for i = 0, 63, 2 do t:alloc(i, i * 4096) end'
	idrsh_lines "$SPREAD" 'lua local _ = io.write(t:dump { depth = 2 })' \
		"dump --depth 2"
	assert_success
	# The binding's whole dump, then the shell's: the same 130 lines.
	[ "${#lines[@]}" -eq 260 ]
	[ "$(printf '%s\n' "${lines[@]:0:130}")" = "$(printf '%s\n' "${lines[@]:130}")" ]
	refute_line --partial "levels shown"
	refute_line --partial -- "--depth N"
}

@test "values are quoted as list quotes them" {
	idrsh_lines 'alloc "two words"' 'alloc plain' 'alloc "say \"hi\""' list dump
	assert_success
	assert_line '0 "two words"'
	assert_line '2 "say \"hi\""'
	assert_line '  0:"two words" 1:plain 2:"say \"hi\""'
}

@test "stats: a bar a level, and the flat pointer array" {
	idrsh_lines "$DENSE" stats
	assert_success
	assert_line "slots in use, by level (# = 4%):"
	assert_line "  L1   |######################## | 1563 of 1600 (97%)"
	assert_line "flat pointer array: 800000 bytes (IDs 0..99999, 8 bytes an ID)"
	assert_line "tree / flat pointer array: 1.06"
	assert_line "packed nodes: 0"
}

@test "help dump and help stats explain the options and the ratios" {
	run "$IDRSH" -c "help dump" -c "help stats"
	assert_success
	assert_line "  --at ID      only the way down to ID, and its leaf"
	assert_line --partial "through \$PAGER (less -R)"
	assert_line --partial "'tree / flat pointer"
}
