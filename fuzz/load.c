/* SPDX-License-Identifier: MIT */
/*
 * load.c - libFuzzer target: the save file's reader (lua/view/load.lua).
 * Each input is a save file, given to idr.load_text(): it loads, or it
 * is refused with "NAME:LINE: why" and an errno name, and never crashes.
 * Every tree that loads passes validate(); saved and loaded again it
 * gives the same file both times (nothing read is lost or changed on the
 * way back).  An input with a range of more than 10^5 IDs is skipped:
 * it is valid, and only slow.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int luaopen_idr(lua_State *L);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run with the input and a scratch file's path as its arguments. */
static const char check[] =
	"local text, path = ...\n"
	"local idr = require 'idr'\n"
	"for a, b in text:gmatch('range +(%d+) +(%d+)') do\n"
	"  if #b > 9 or tonumber(b) - tonumber(a) > 100000 then return end\n"
	"end\n"
	"local cur, trees, name, names = idr.load_text(text, 'f')\n"
	"if not trees then\n"
	"  assert(type(trees) == 'nil' and cur == nil)\n"
	"  return\n"
	"end\n"
	"if type(trees) == 'string' then\n"
	"  assert(trees:find('^f:%d+: ') or trees:find('^f: '), trees)\n"
	"  assert(type(name) == 'string' and name:find('^E%u+$'), name)\n"
	"  return\n"
	"end\n"
	"for _, n in ipairs(names) do assert(trees[n]:validate()) end\n"
	"local function saved(t, c)\n"
	"  assert(idr.save(path, t, c))\n"
	"  local f = assert(io.open(path))\n"
	"  local s = f:read('a')\n"
	"  f:close()\n"
	"  return s\n"
	"end\n"
	"local once = saved(trees, name)\n"
	"local _, again, name2 = idr.load(path)\n"
	"assert(type(again) == 'table', name2)\n"
	"assert(saved(again, name2) == once, 'not the same file')\n"
	"for _, t in pairs(trees) do t:destroy() end\n"
	"for _, t in pairs(again) do t:destroy() end\n";

static char scratch[] = "/tmp/idr-fuzz-load.XXXXXX";

static void scratch_remove(void)
{
	remove(scratch);
}

/* One state for every input (opening the module compiles its views):
 * each run destroys what it made, and a full collection follows. */
static lua_State *state(void)
{
	static lua_State *L;
	int fd;

	if (L)
		return L;
	fd = mkstemp(scratch);
	L = luaL_newstate();
	if (fd < 0 || !L)
		abort();
	close(fd);
	atexit(scratch_remove);
	luaL_openlibs(L);
	luaL_requiref(L, "idr", luaopen_idr, 1);
	lua_pop(L, 1);
	return L;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lua_State *L = state();

	if (luaL_loadstring(L, check) != LUA_OK)
		abort();
	lua_pushlstring(L, (const char *)data, size);
	lua_pushstring(L, scratch);
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
		fprintf(stderr, "CHECK: %s\n", lua_tostring(L, -1));
		abort();
	}
	lua_gc(L, LUA_GCCOLLECT);
	return 0;
}
