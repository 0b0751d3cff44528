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
