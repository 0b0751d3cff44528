/* SPDX-License-Identifier: MIT */
/*
 * idrsh_sys.h - what idrsh_sys.c gives idrsh.c: the system calls the
 * shell's Lua side makes (clock, preload, preload_end, pipe_quiet, mkdir).
 */
#ifndef IDRSH_SYS_H
#define IDRSH_SYS_H

#include <lua.h>

/* Sets each of them as a field of the table on top of @L's stack. */
void shell_sys_fields(lua_State *L);

#endif /* IDRSH_SYS_H */
