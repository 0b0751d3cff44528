# The Lua module from the shell: it builds, installs where lua5.4 finds
# it, exports one symbol, its suite reports as make test expects, and it
# survives a host whose allocator fails.

setup() {
	load test_helper
}

@test "build/idr.so builds with the project's warnings as errors" {
	run make -s build/idr.so
	[ "$status" -eq 0 ]
	[ -f build/idr.so ]
}

# lua_close() dlcloses the module; with it went liburcu, under its own
# call_rcu thread, which crashed now and then at exit after an RCU idr.
@test "the module stays loaded after lua_close(), and liburcu with it" {
	run sh -c "readelf -d build/idr.so | grep FLAGS_1"
	[ "$status" -eq 0 ]
	[[ "$output" == *NODELETE* ]]
}

@test "the module exports luaopen_idr and nothing else" {
	run sh -c "nm -D --defined-only build/idr.so | awk '{ print \$3 }' |
		grep -v -e '^luaopen_idr\$' -e '^_'"
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	run sh -c "nm -D --defined-only build/idr.so | grep -c ' luaopen_idr\$'"
	[ "$output" = "1" ]
	# The library's own symbols stay inside.
	run sh -c "nm -D --defined-only build/idr.so | grep -c -e ' idr' -e ' ida'"
	[ "$output" = "0" ]
}

@test "make install stages idr.so where LUA_CPATH_5_4 finds it" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s install DESTDIR="$dest" PREFIX=/opt/idr
	[ "$status" -eq 0 ]
	so=$dest/opt/idr/lib/lua/5.4/idr.so
	[ -x "$so" ]
	cd "$BATS_TEST_TMPDIR"
	run env LUA_CPATH_5_4="$dest/opt/idr/lib/lua/5.4/?.so" lua5.4 -e '
		local idr, where = require "idr"
		local t = idr.new()
		print(where, idr._VERSION, t:alloc("x"), t:find(0))'
	[ "$status" -eq 0 ]
	[ "$output" = "$so	idr 0.2.0	0	x" ]
	# Without the path, the staged copy is not what gets loaded.
	run env LUA_CPATH_5_4="$BATS_TEST_TMPDIR/nowhere/?.so" lua5.4 -e \
		'require "idr"'
	[ "$status" -eq 1 ]
	[[ "$output" == *"module 'idr' not found"* ]]
	cd "$TOP"
	run make -s uninstall DESTDIR="$dest" PREFIX=/opt/idr
	[ ! -e "$so" ]
}

@test "require sets no global and returns the module table" {
	run env LUA_CPATH_5_4='build/?.so' lua5.4 -e '
		local idr = require "idr"
		assert(rawget(_G, "idr") == nil)
		assert(package.loaded.idr == idr and type(idr) == "table")
		local n = 0
		for k in pairs(_G) do n = n + 1 end
		print(n > 0, type(idr.new), idr.ENOSPC)'
	[ "$status" -eq 0 ]
	[ "$output" = "true	function	ENOSPC" ]
}

@test "the Lua suite passes and ends with its count" {
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 tests/lua/run.lua
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^[1-9][0-9]*\ passed,\ 0\ failed$ ]]
	n=$(ls tests/lua/test_*.lua | wc -l)
	[ "${lines[-1]}" = "$n passed, 0 failed" ]
	[ "$(grep -c '^ok ' <<< "$output")" -eq "$n" ]
}

@test "the runner reports a failing script and exits 1" {
	dir=$BATS_TEST_TMPDIR/suite
	mkdir -p "$dir"
	cp tests/lua/run.lua "$dir/"
	echo 'assert(1 + 1 == 2)' > "$dir/test_good.lua"
	echo 'assert(false, "deliberate")' > "$dir/test_bad.lua"
	echo 'this is not Lua' > "$dir/test_syntax.lua"
	echo 'error("not a test")' > "$dir/helper.lua"
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 "$dir/run.lua"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "not ok test_bad" ]
	[[ "${lines[1]}" == *deliberate* ]]
	[[ "$output" == *"ok test_good"* ]]
	[[ "$output" == *"not ok test_syntax"* ]]
	[ "${lines[-1]}" = "1 passed, 2 failed" ]
	# Naming one script runs only that one.
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 "$dir/run.lua" test_good
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'ok test_good\n1 passed, 0 failed')" ]
}

@test "an embedding host with a failing allocator loses no ID" {
	host=$BATS_TEST_TMPDIR/host
	cat > "$host.c" <<-'C'
	/* idr in package.preload; the allocator fails when told to. */
	#include <stdio.h>
	#include <stdlib.h>

	#include "lua.h"
	#include "lauxlib.h"
	#include "lualib.h"

	int luaopen_idr(lua_State *L);

	static long budget = -1;	/* allocations left; -1: no limit */

	static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
	{
		(void)ud;
		if (nsize == 0) {
			free(ptr);
			return NULL;
		}
		if ((ptr && nsize <= osize) || budget < 0)
			return realloc(ptr, nsize);
		if (budget == 0)
			return NULL;
		budget--;
		return realloc(ptr, nsize);
	}

	static int set_budget(lua_State *L)
	{
		budget = (long)luaL_checkinteger(L, 1);
		return 0;
	}

	int main(int argc, char **argv)
	{
		lua_State *L = lua_newstate(alloc, NULL);
		int status;

		if (!L || argc != 2)
			return 2;
		luaL_openlibs(L);
		luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
		lua_pushcfunction(L, luaopen_idr);
		lua_setfield(L, -2, "idr");
		lua_pop(L, 1);
		lua_register(L, "budget", set_budget);
		status = luaL_dofile(L, argv[1]);
		if (status != LUA_OK)
			fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
		lua_close(L);
		return status == LUA_OK ? 0 : 1;
	}
	C
	# The binding compiled into the host, as idrsh does, with the same flags.
	run cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic \
		-Wshadow -Wstrict-prototypes -Wmissing-prototypes \
		-Wwrite-strings -Werror $(pkg-config --cflags lua5.4) -Isrc -Ibuild \
		-o "$host" "$host.c" lua/*.c build/libidr-rcu.a build/libidr.a \
		$(pkg-config --libs lua5.4) -lurcu
	[ "$status" -eq 0 ]
	run "$host" tests/lua/oom.lua
	[ "$status" -eq 0 ]
	[[ "$output" == ok\ *\ failures\ in\ *\ rounds ]]
	# Every error path frees what it took: dump texts, trace buffers.
	# (valgrind is one of make test's packages.)
	run valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$host" tests/lua/oom.lua
	[ "$status" -eq 0 ]
}

@test "the Lua suite is clean under valgrind" {
	command -v valgrind > /dev/null || skip "valgrind is not installed"
	# liburcu's call_rcu thread (test_rcu.lua) is alive at exit: its
	# thread-local blocks are "possibly lost", reported after the summary.
	run env LUA_CPATH_5_4='build/?.so;;' valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite \
		--show-possibly-lost=no lua5.4 tests/lua/run.lua
	[ "$status" -eq 0 ] || { grep -v '^ok ' <<< "$output"; return 1; }
	[[ "${lines[-1]}" == *" passed, 0 failed" ]]
}
