/* SPDX-License-Identifier: MIT */
/*
 * lsave.c - a tagged idr's generation counters and seed, read and set:
 * t:get_seed(), t:set_seed(n), t:get_gen(id), t:set_gen(id, gen),
 * t:tagged_id(id); and
 * view "file", what kind of file a save would replace.  The save file
 * itself is lua/view/save.lua's.  Conventions as lidr.c's:
 * misuse raises; an expected failure returns nil, a message and the
 * errno's name.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>

#include "lauxlib.h"
#include "lua.h"

#include "idr.h"
#include "idr_view.h"
#include "lidr.h"

/* The tagged idr at index 1, and one past its last generation. */
static struct idr *tagged_arg(lua_State *L, lua_Integer *limit)
{
	struct idr *idr = &lidr_checkidr(L)->idr;
	struct idr_info info;

	idr_info(idr, &info);
	if (!info.id_bits)
		luaL_error(L, "not a tagged idr (see idr.new{ tagged = ... })");
	*limit = (lua_Integer)1 << (31 - info.id_bits);
	return idr;
}

/* A counter or seed at @arg: a non-negative integer. */
static uint64_t gen_arg(lua_State *L, int arg)
{
	lua_Integer g = luaL_checkinteger(L, arg);

	luaL_argcheck(L, g >= 0, arg, "a generation is not negative");
	return (uint64_t)g;
}

static unsigned long id_arg(lua_State *L, int arg)
{
	lua_Integer id = luaL_checkinteger(L, arg);

	luaL_argcheck(L, id >= 0 && id <= INT32_MAX, arg, "id out of range");
	return (unsigned long)id;
}

int lsave_get_seed(lua_State *L)
{
	lua_Integer limit;

	lua_pushinteger(L,
			(lua_Integer)idr_tag_get_seed(tagged_arg(L, &limit)));
	return 1;
}

int lsave_set_seed(lua_State *L)
{
	lua_Integer limit;
	struct idr *idr = tagged_arg(L, &limit);

	if (idr_tag_set_seed(idr, gen_arg(L, 2)))
		luaL_argerror(L, 2,
			      lua_pushfstring(L,
					      "past the limit (%I) of a "
					      "retiring idr",
					      (LUAI_UACINT)limit));
	return 0;
}

/* t:get_gen(id): the counter, and whether the slot has a leaf (if not,
 * the counter is the seed). */
int lsave_get_gen(lua_State *L)
{
	lua_Integer limit;
	struct idr *idr = tagged_arg(L, &limit);
	uint64_t gen = 0;
	int err = idr_tag_get_gen(idr, id_arg(L, 2), &gen);

	if (err == -EINVAL)
		luaL_argerror(L, 2, "not an id of this idr");
	lua_pushinteger(L, (lua_Integer)gen);
	lua_pushboolean(L, err == 0);
	return 2;
}

/* t:tagged_id(id): the tagged ID of @id's slot, (generation mod
 * 2^gen_bits) << id_bits | id: the one alloc_tagged gave its occupant,
 * or the next one's if it is free.  Shown by idrsh's list and by
 * diff_text, so that the formula is written once. */
int lsave_tagged_id(lua_State *L)
{
	lua_Integer limit;
	struct idr *idr = tagged_arg(L, &limit);
	unsigned long id = id_arg(L, 2);
	uint64_t gen = 0;

	if (idr_tag_get_gen(idr, id, &gen) == -EINVAL)
		luaL_argerror(L, 2, "not an id of this idr");
	/* limit is 2^gen_bits, and 2^31 / limit is 2^id_bits. */
	lua_pushinteger(L, (lua_Integer)(gen % (uint64_t)limit) *
					   (((lua_Integer)1 << 31) / limit) |
				   (lua_Integer)id);
	return 1;
}

static int set_gen_fail(lua_State *L, int err, unsigned long id)
{
	const char *name = "ENOMEM", *why = "not enough memory";

	if (err == -EBUSY) {
		name = "EBUSY";
		why = "it would retire a slot in use, or the slot is retired";
	} else if (err == -ENOSPC) {
		name = "ENOSPC";
		why = "no leaf can be made: the idr is worn out";
	}
	lua_pushnil(L);
	lua_pushfstring(L, "id %I: %s", (LUAI_UACINT)id, why);
	lua_pushstring(L, name);
	return 3;
}

/* t:set_gen(id, gen): true, or nil, msg, "ENOMEM" | "EBUSY" | "ENOSPC". */
int lsave_set_gen(lua_State *L)
{
	lua_Integer limit;
	struct idr *idr = tagged_arg(L, &limit);
	unsigned long id = id_arg(L, 2);
	uint64_t gen = gen_arg(L, 3);
	int err = idr_tag_set_gen(idr, id, gen);

	if (err == -EINVAL)
		luaL_error(L, "id %I or generation %I out of range",
			   (LUAI_UACINT)id, (LUAI_UACINT)gen);
	if (err)
		return set_gen_fail(L, err, id);
	lua_pushboolean(L, 1);
	return 1;
}

/*
 * kind(path) -> "absent", "regular" or "other" (a symlink, a device, a
 * FIFO, a directory...): a save goes through a new file renamed over a
 * regular one, and that rename would put a file in a device's place, or
 * in a symlink's (/dev/stdout's, say, which leads to the shell's output).
 */
static int file_kind(lua_State *L)
{
	struct stat st;

	if (lstat(luaL_checkstring(L, 1), &st) != 0)
		lua_pushstring(L, errno == ENOENT ? "absent" : "other");
	else
		lua_pushstring(L, S_ISREG(st.st_mode) ? "regular" : "other");
	return 1;
}

void lsave_open_file(lua_State *L)
{
	static const luaL_Reg funcs[] = {
		{ "kind", file_kind },
		{ NULL, NULL },
	};

	luaL_newlib(L, funcs);
	lua_setfield(L, -2, "file");
}
