/* SPDX-License-Identifier: MIT */
/*
 * idrsh_sys.c - what the shell's Lua side needs of the system and Lua
 * has not: the thread's preload, a directory made, SIGPIPE ignored
 * while a pager reads, a clock that tells wall and CPU time apart.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>

#include "idr.h"
#include "idrsh_sys.h"

/* idr_preload() is per thread, no tree's: the binding has it not, and
 * the shell's 'preload' and 'preload_end' call these. */
static int shell_preload(lua_State *L)
{
	(void)L;
	idr_preload(GFP_KERNEL);
	return 0;
}

static int shell_preload_end(lua_State *L)
{
	(void)L;
	idr_preload_end();
	return 0;
}

/* mkdir(PATH): makes the directory PATH, mode 0700 (the user's state,
 * such as the lessons done); true if it is one already.  Otherwise nil
 * and why.  Lua has no mkdir of its own. */
static int shell_mkdir(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	struct stat st;

	if (mkdir(path, 0700) == 0 ||
	    (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		lua_pushboolean(L, 1);
		return 1;
	}
	lua_pushnil(L);
	lua_pushfstring(L, "%s: %s", path, strerror(errno));
	return 2;
}

/* A pager that quits early ('q' in less) closes its pipe, and the next
 * write to it would kill idrsh with SIGPIPE.  pipe_quiet(true) ignores
 * SIGPIPE, so that the write fails with EPIPE instead (the pager has
 * forked already and keeps the default); pipe_quiet(false) restores it. */
static int shell_pipe_quiet(lua_State *L)
{
	static struct sigaction saved;
	struct sigaction ignore;

	if (lua_toboolean(L, 1)) {
		memset(&ignore, 0, sizeof(ignore));
		ignore.sa_handler = SIG_IGN;
		sigemptyset(&ignore.sa_mask);
		sigaction(SIGPIPE, &ignore, &saved);
	} else {
		sigaction(SIGPIPE, &saved, NULL);
	}
	return 0;
}

static lua_Number seconds(struct timeval tv)
{
	return (lua_Number)tv.tv_sec + (lua_Number)tv.tv_usec / 1e6;
}

/* clock(): now, in seconds: the monotonic wall clock, and the CPU time
 * of the process, user and system, for 'time' and 'timer'.  Lua's
 * os.clock() adds the two, and os.time() counts whole seconds. */
static int shell_clock(lua_State *L)
{
	struct timespec now;
	struct rusage ru;

	clock_gettime(CLOCK_MONOTONIC, &now);
	getrusage(RUSAGE_SELF, &ru);
	lua_pushnumber(L,
		       (lua_Number)now.tv_sec + (lua_Number)now.tv_nsec / 1e9);
	lua_pushnumber(L, seconds(ru.ru_utime));
	lua_pushnumber(L, seconds(ru.ru_stime));
	return 3;
}

void shell_sys_fields(lua_State *L)
{
	static const luaL_Reg fields[] = {
		{ "clock", shell_clock },
		{ "preload", shell_preload },
		{ "preload_end", shell_preload_end },
		{ "pipe_quiet", shell_pipe_quiet },
		{ "mkdir", shell_mkdir },
		{ NULL, NULL },
	};

	luaL_setfuncs(L, fields, 0);
}
