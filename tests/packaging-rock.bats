# The LuaRocks rock (tests/packaging.mk: make rock): luarocks make of a
# copy of the tree into build/rock/tree, and a binary rock installed
# offline into a tree of the test's own.

setup_file() {
	cd "$BATS_TEST_DIRNAME/.." && make -s rock
}

setup() {
	load test_helper
	VERSION=$(sed -n 's/^#define IDR_VERSION "\(.*\)"/\1/p' src/idr.h)
	export HOME=$BATS_TEST_TMPDIR TMPDIR=$BATS_TEST_TMPDIR
}

luarocks() {
	command luarocks --lua-version=5.4 "$@"
}

# Lua with the paths of LuaRocks tree $1 only (no ";;": nothing else but
# dkjson, the rock's one dependency: make rock builds offline, with
# --deps-mode=none, so Debian's lua-dkjson stands in for its rock).
lua_in_tree() {
	local tree=$1
	shift
	env LUA_CPATH_5_4="$(luarocks --tree="$tree" path --lr-cpath)" \
		LUA_PATH_5_4="$(luarocks --tree="$tree" path --lr-path);/usr/share/lua/5.4/?.lua" \
		lua5.4 "$@"
}

@test "the rockspec's version is idr.h's" {
	[ -f "rockspecs/idr-$VERSION-1.rockspec" ]
	grep -q "^version = \"$VERSION-1\"$" "rockspecs/idr-$VERSION-1.rockspec"
}

@test "luarocks make built the module with neither readline nor idrsh" {
	[ ! -e build/rock/src/build/idrsh ]
	[ -f build/rock/tree/lib/lua/5.4/idr.so ]
	run readelf -d build/rock/tree/lib/lua/5.4/idr.so
	[[ "$output" != *readline* ]] || { echo "$output"; return 1; }
	# Only luaopen_idr is exported, as from make's build/idr.so.
	run sh -c "nm -D --defined-only build/rock/tree/lib/lua/5.4/idr.so |
		awk '{ print \$3 }' | grep -v '^_'"
	[ "$output" = luaopen_idr ] || { echo "$output"; return 1; }
}

@test "luarocks make: require \"idr\" works with the tree's paths" {
	run lua_in_tree build/rock/tree -e '
		local idr = require "idr"
		local t = idr.new()
		print(t:alloc("a"), t:alloc("b", 5), package.searchpath("idr", package.cpath))'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "$(printf '0\t5\t%s' "$TOP/build/rock/tree/lib/lua/5.4/idr.so")" ]
}

@test "the binding's own tests pass against the installed rock" {
	run lua_in_tree build/rock/tree tests/lua/run.lua
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *" passed, 0 failed"* ]]
}

@test "the binary rock installs offline with luarocks install FILE.rock" {
	rock=$(echo build/rock/idr-"$VERSION"-1.*.rock)
	[ -f "$rock" ]
	tree=$BATS_TEST_TMPDIR/tree
	# Any download would go to a proxy that is not there, and fail.
	http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
		run luarocks --tree="$tree" install --deps-mode=none "$rock"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run lua_in_tree "$tree" -e '
		local t = require("idr").new()
		print(t:alloc("x"), package.searchpath("idr", package.cpath))'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "$(printf '0\t%s' "$tree/lib/lua/5.4/idr.so")" ]
	run luarocks --tree="$tree" list --porcelain
	[[ "$output" == *"idr	$VERSION-1	installed"* ]]
}
