#!/usr/bin/env bats
# idrsh and RCU trees (new NAME --rcu): the frees that wait for readers,
# in stats and mem, and rcu_barrier, which runs them.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
}

idrsh_lines() {
	run --separate-stderr "$IDRSH" < <(printf '%s\n' "$@")
}

# A removal that frees 5000's blocks and the top, then stats, mem, the barrier
# and stats again.
rcu_session() {
	idrsh_lines "new r --rcu" "alloc a 0" "alloc b 5000" rcu_barrier \
		"remove 5000" stats mem rcu_barrier stats mem
}

@test "a removal on an RCU tree leaves blocks waiting; rcu_barrier frees them" {
	# liburcu's thread frees them by itself some milliseconds later: a
	# stalled run may find none waiting already, so up to 5 runs.
	local n
	for n in 1 2 3 4 5; do
		rcu_session
		assert_success
		assert_equal "$stderr" ""
		[ "$(grep -c '^rcu: ' <<< "$output")" -eq 4 ]
		# After the barrier: nothing waits, in stats and in mem.
		[ "$(sed -n 's/^rcu: //p' <<< "$output" | sed -n 3,4p | sort -u)" = \
			"0 blocks (0 bytes) wait for readers" ]
		grep -q '^rcu: [1-9][0-9]* blocks ([1-9][0-9]* bytes) wait for readers$' \
			<<< "$(sed -n 1p <<< "$(grep '^rcu: ' <<< "$output")")" && return 0
	done
	echo "no run saw a block waiting: $output"
	return 1
}

@test "the waiting blocks are not in bytes; after the barrier they are cached" {
	# Preloaded, so whole nodes: a lone ID's packed blocks go to malloc.
	idrsh_lines "new r --rcu" "alloc a 0" preload "alloc b 5000" \
		preload_end "remove 5000" rcu_barrier stats
	assert_success
	assert_line "rcu: 0 blocks (0 bytes) wait for readers"
	refute_line "cached nodes: 0"
}

@test "a plain tree shows no rcu line in stats or mem" {
	idrsh_lines "alloc a 0" "alloc b 5000" "remove 5000" stats mem \
		"new t --tagged 8" stats "new i --ida" stats mem rcu_barrier
	assert_success
	refute_output --partial "rcu"
}

@test "trees marks an RCU tree; info says so to Lua" {
	idrsh_lines "new r --rcu" "new t --tagged 8 --rcu" trees \
		"=trees.r:info().rcu" "=trees.default:info().rcu"
	assert_success
	assert_equal "$output" "  default      idr    0 ids
  r            idr    0 ids, rcu
* t            tagged 0 ids, rcu
true
nil"
}

@test "new --rcu takes --base (idr_init_rcu_base), and rejects --ida" {
	idrsh_lines "new a --rcu --base 3" "alloc x" "=trees.a:info().rcu" \
		"new b --rcu --ida"
	assert_failure 1
	assert_equal "$output" "3
true"
	assert_equal "$stderr" "idrsh: <stdin>:4: new: an IDA takes no --base, --tagged or --rcu"
}

@test "drop of an RCU tree waits for its frees, and the shell exits cleanly" {
	idrsh_lines "new r --rcu" "alloc a 0" "alloc b 5000" "remove 5000" \
		"new s" "drop r" trees
	assert_success
	assert_equal "$output" "0
5000
b
  default      idr    0 ids
* s            idr    0 ids"
}
