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

@test "destroy keeps the kind and base of a tree made in Lua" {
	idrsh_lines "lua trees.g = idr.new{tagged={id_bits=4}, base=3}" \
		"use g" "alloc_tagged a" destroy trees "alloc_tagged b" \
		"lua print(t:info().base, t:info().tagged.id_bits)"
	assert_success
	assert_output "3
  default      idr    0 ids
* g            tagged 0 ids
3
3	4"
}

@test "a tree's kind is what the binding says, also for a destroyed one" {
	idrsh_lines "lua trees.a = idr.ida(); trees.u = idr.new{tagged={id_bits=8}}" \
		"lua trees.u:destroy()" trees
	assert_success
	assert_line "  a            ida    0 ids"
	assert_line "  u            tagged destroyed"
}
