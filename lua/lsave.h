/* SPDX-License-Identifier: MIT */
/*
 * lsave.h - the methods of lsave.c, which lidr.c registers among an
 * idr's: what saving a tagged idr and loading it need of the library
 * beyond the node reader (lua/view/save.lua writes and reads the file).
 */
#ifndef LSAVE_H
#define LSAVE_H

#include "lua.h"

struct idr;

/* lidr.c's: the C idr of the idr object at index 1, alive and not in the
 * middle of an operation; raises otherwise. */
struct idr *lidr_tree_arg(lua_State *L);

int lsave_get_seed(lua_State *L);
int lsave_set_seed(lua_State *L);
int lsave_get_gen(lua_State *L);
int lsave_set_gen(lua_State *L);

#endif /* LSAVE_H */
