/* SPDX-License-Identifier: MIT */
/*
 * lida.c - the Lua binding's IDA: idr.ida() and its methods.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lidr.h"

/* {==================== The IDA ==================== */

static struct lida *toida(lua_State *L)
{
	return luaL_checkudata(L, 1, IDA_MT);
}

/* As lidr_checkidr(): the IDA at index 1, alive. */
struct lida *lidr_checkida(lua_State *L)
{
	struct lida *a = toida(L);

	if (a->o.dead)
		luaL_error(L, "attempt to use a destroyed ida");
	return a;
}

int lida_new(lua_State *L)
{
	struct lida *a = lua_newuserdatauv(L, sizeof(*a), 2);

	memset(a, 0, sizeof(*a));
	ida_init(&a->ida);
	luaL_setmetatable(L, IDA_MT);
	return 1;
}

static void lida_release(lua_State *L, struct obj *o)
{
	struct lida *a = (struct lida *)o;

	idr_set_trace(&a->ida.ida_rt, NULL, NULL);
	ida_destroy(&a->ida);
	free(o->tr.ev);
	free(o->last.ev);
	o->tr = o->last = (struct events){ NULL, 0, 0 };
	lua_pushnil(L);
	lua_setiuservalue(L, 1, UV_TRACE);
}

static unsigned long lida_count(const struct obj *o)
{
	return ida_count(&((const struct lida *)o)->ida);
}

static bool lida_is_empty(const struct obj *o)
{
	return ida_is_empty(&((const struct lida *)o)->ida);
}

/* alloc([min [, max]]): max inclusive; above INT_MAX means INT_MAX. */
int lida_alloc(lua_State *L)
{
	struct lida *a = lidr_checkida(L);
	unsigned int min = (unsigned int)lidr_opt_range(L, 2, 0, UINT32_MAX, 0);
	unsigned int max = (unsigned int)lidr_opt_range(L, 3, 0, UINT32_MAX,
							INT_MAX);
	int id = ida_alloc_range(&a->ida, min, max, GFP_KERNEL);

	if (id == -ENOMEM)
		return lidr_fail_nomem(L);
	if (id < 0)
		return lidr_fail(L, id, "no free id in [%I, %I]",
				 (LUAI_UACINT)min, (LUAI_UACINT)max);
	lua_pushinteger(L, id);
	return 1;
}

int lida_free(lua_State *L)
{
	struct lida *a = lidr_checkida(L);
	unsigned long id = lidr_ulong_arg(L, 2);

	if (ida_free(&a->ida, (unsigned int)id))
		return lidr_fail(L, -ENOENT, "id %I is not allocated",
				 (LUAI_UACINT)id);
	lua_pushboolean(L, 1);
	return 1;
}

/* ida_destroy(), the object kept (see lidr_clear()). */
int lida_clear(lua_State *L)
{
	ida_destroy(&lidr_checkida(L)->ida);
	return 0;
}

int lida_exists(lua_State *L)
{
	struct lida *a = lidr_checkida(L);

	lua_pushboolean(L, ida_exists(&a->ida,
				      (unsigned int)lidr_ulong_arg(L, 2)));
	return 1;
}

int lida_find_first(lua_State *L)
{
	struct lida *a = lidr_checkida(L);
	unsigned int min = (unsigned int)lidr_opt_range(L, 2, 0, UINT32_MAX, 0);
	unsigned int max = (unsigned int)lidr_opt_range(L, 3, 0, UINT32_MAX,
							INT_MAX);
	int id = ida_find_first_range(&a->ida, min, max);

	if (id == -EINVAL)
		return lidr_fail(L, id, "%I is above the largest id",
				 (LUAI_UACINT)min);
	if (id < 0)
		return lidr_fail(L, id, "no id in [%I, %I]", (LUAI_UACINT)min,
				 (LUAI_UACINT)max);
	lua_pushinteger(L, id);
	return 1;
}

static int ida_step(lua_State *L)
{
	struct lida *a = lidr_checkida(L);
	lua_Integer last = lua_isnil(L, 2) ? -1 : luaL_checkinteger(L, 2);
	int id;

	/* Compare before adding one: last + 1 overflows at maxinteger. */
	if (last < -1 || last >= INT_MAX)
		return 0;
	id = ida_find_first_range(&a->ida, (unsigned int)(last + 1), INT_MAX);
	if (id < 0)
		return 0;
	lua_pushinteger(L, id);
	return 1;
}

int lida_pairs(lua_State *L)
{
	lidr_checkida(L);
	/* Checked as an idr's, so code for both kinds may pass reserved:
	 * an IDA has no reserved IDs to add. */
	lidr_opt_reserved(L);
	lidr_push_method(L, ida_step);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

const struct kind lidr_ida_kind = {
	IDA_MT, lida_release, lida_count, lida_is_empty, NULL,
};

/* }==================== The IDA ==================== */
