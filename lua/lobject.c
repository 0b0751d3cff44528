/* SPDX-License-Identifier: MIT */
/*
 * lobject.c - the Lua binding's idr object: idr.new, its options,
 * RCU idrs, and what the idr kind does its own way.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <urcu.h>

#include "lidr.h"
#include "idr_rcu.h"

/* {==================== The object ==================== */

struct lidr *lidr_toidr(lua_State *L)
{
	return luaL_checkudata(L, 1, IDR_MT);
}

/* The idr at index 1, alive, and not mid-operation. */
struct lidr *lidr_checkidr(lua_State *L)
{
	struct lidr *t = lidr_toidr(L);

	if (t->o.dead)
		luaL_error(L, "attempt to use a destroyed idr");
	if (t->o.busy)
		luaL_error(L, "attempt to use an idr in the middle of an "
			      "operation (from a finalizer)");
	return t;
}

/* {==================== RCU idrs ==================== */

/*
 * idr.new{ rcu = true }: an idr made as idr_init_rcu() makes one (liburcu's
 * default flavour, memb).  Its writer, the thread running Lua, calls
 * call_rcu(), so it is registered with liburcu while it has an RCU idr
 * alive: from the first one made to the last one destroyed (a thread must
 * not end registered).  Destroying one waits for readers and for the
 * deferred frees (synchronize_rcu(), rcu_barrier(): doc/rcu.md's end of
 * life), before the collector may reuse the userdata.
 */
static _Thread_local unsigned long rcu_thread_idrs;

static void rcu_thread_get(void)
{
	if (rcu_thread_idrs++ == 0)
		rcu_register_thread();
}

/* On another thread than the one that made the idr, nothing to undo. */
static void rcu_thread_put(void)
{
	if (rcu_thread_idrs > 0 && --rcu_thread_idrs == 0)
		rcu_unregister_thread();
}

/* idr.rcu_barrier(): every free an RCU idr deferred has run. */
int lidr_rcu_barrier(lua_State *L)
{
	(void)L;
	synchronize_rcu();
	rcu_barrier();
	return 0;
}

/* }==================== RCU idrs ==================== */

/* Option @k, on top: an integer in [@lo, @hi] (2^10 too, as arguments). */
static int opt_int(lua_State *L, const char *k, int lo, int hi)
{
	int isnum;
	lua_Integer v = lua_tointegerx(L, -1, &isnum);

	if (!isnum || v < lo || v > hi)
		luaL_argerror(L, 1,
			      lua_pushfstring(L,
					      "%s must be an integer "
					      "in [%d, %d]",
					      k, lo, hi));
	return (int)v;
}

/* A misspelt key of tagged = {...} would give 16 bits without a word. */
static void tag_keys(lua_State *L, int tab)
{
	for (lua_pushnil(L); lua_next(L, tab); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
					? lua_tostring(L, -2)
					: "";

		if (strcmp(k, "id_bits") && strcmp(k, "gen_bits") &&
		    strcmp(k, "retire"))
			luaL_argerror(
				L, 1,
				lua_pushfstring(L, "unknown option 'tagged.%s'",
						luaL_tolstring(L, -2, NULL)));
	}
}

/*
 * The option tagged = true | { id_bits = N, retire = B }, on top; the
 * gen_bits that t:info() adds must agree with id_bits.
 */
static void tag_opts(lua_State *L, unsigned int *bits, unsigned int *flags)
{
	int tab = lua_absindex(L, -1);

	*bits = 16;
	*flags = 0;
	if (lua_isboolean(L, -1))
		return;
	if (!lua_istable(L, -1))
		luaL_argerror(L, 1, "tagged must be true or a table");
	tag_keys(L, tab);
	if (lua_getfield(L, tab, "id_bits") != LUA_TNIL)
		*bits = (unsigned int)opt_int(L, "id_bits", 1, 30);
	if (lua_getfield(L, tab, "gen_bits") != LUA_TNIL &&
	    opt_int(L, "gen_bits", 1, 30) != 31 - (int)*bits)
		luaL_argerror(L, 1,
			      lua_pushfstring(L,
					      "gen_bits must be 31 - id_bits "
					      "(%d)",
					      31 - (int)*bits));
	switch (lua_getfield(L, tab, "retire")) {
	case LUA_TNIL:
		break;
	case LUA_TBOOLEAN:
		*flags = lua_toboolean(L, -1) ? IDR_TAG_RETIRE : 0;
		break;
	default:
		luaL_argerror(L, 1, "tagged.retire must be true or false");
	}
	lua_settop(L, tab);
}

struct new_opts {
	int base;
	unsigned int id_bits, flags;
	bool rcu;
};

/* kind and destroyed are t:info()'s, taken and ignored. */
static const char *const new_keys[] = { "base", "tagged",    "rcu",
					"kind", "destroyed", NULL };

/* idr.new's options; an unknown one is more likely a typo than not. */
static void new_opts(lua_State *L, struct new_opts *o)
{
	memset(o, 0, sizeof(*o));
	lua_settop(L, 1);
	if (!lidr_opts(L, 1, new_keys))
		return;
	if (lua_getfield(L, 1, "base") != LUA_TNIL)
		o->base = opt_int(L, "base", 0, INT_MAX);
	if (lua_getfield(L, 1, "tagged") != LUA_TNIL && lua_toboolean(L, -1))
		tag_opts(L, &o->id_bits, &o->flags);
	if (lua_getfield(L, 1, "rcu") != LUA_TNIL && !lua_isboolean(L, -1))
		luaL_argerror(L, 1, "rcu must be true or false");
	o->rcu = lua_toboolean(L, -1);
	lua_settop(L, 1);
}

int lidr_new(lua_State *L)
{
	struct new_opts o;
	struct lidr *t;

	new_opts(L, &o);
	/* Else every alloc fails, saying only that no ID is free. */
	if (o.id_bits && (unsigned int)o.base >> o.id_bits)
		luaL_argerror(L, 1,
			      lua_pushfstring(L,
					      "base must be below 2^id_bits "
					      "(%d) on a tagged idr",
					      1 << o.id_bits));
	t = lua_newuserdatauv(L, sizeof(*t), 2);
	memset(t, 0, sizeof(*t));
	if (o.rcu) {
		rcu_thread_get();
		idr_init_rcu_base(&t->idr, o.base);
		t->rcu = true;
	} else {
		idr_init_base(&t->idr, o.base);
	}
	if (o.id_bits)
		idr_tag_init(&t->idr, o.id_bits, o.flags);
	t->id_bits = o.id_bits;
	luaL_setmetatable(L, IDR_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, UV_VALUES);
	return 1;
}

/* The destroy of obj_destroy(): raises nothing.  The values go with
 * the table. */
static void lidr_release(lua_State *L, struct obj *o)
{
	struct lidr *t = (struct lidr *)o;

	idr_set_trace(&t->idr, NULL, NULL);
	idr_destroy(&t->idr);
	if (t->rcu) {
		/* doc/rcu.md's end: the userdata's memory goes back to Lua
		 * after this, and each deferred free still updates the idr. */
		synchronize_rcu();
		rcu_barrier();
		t->rcu = false;
		rcu_thread_put();
	}
	free(t->o.tr.ev);
	free(t->o.last.ev);
	t->o.tr = t->o.last = (struct events){ NULL, 0, 0 };
	lua_pushnil(L);
	lua_setiuservalue(L, 1, UV_VALUES);
	lua_pushnil(L);
	lua_setiuservalue(L, 1, UV_TRACE);
}

static unsigned long lidr_count(const struct obj *o)
{
	return idr_count(&((const struct lidr *)o)->idr);
}

static bool lidr_is_empty(const struct obj *o)
{
	return idr_is_empty(&((const struct lidr *)o)->idr);
}

static void lidr_info(const struct obj *o, struct info *in)
{
	const struct lidr *t = (const struct lidr *)o;
	struct idr_info info;

	idr_info(&t->idr, &info);
	in->base = info.base;
	in->id_bits = t->id_bits;
	in->retire = t->id_bits && info.retire;
	in->rcu = info.rcu;
}

const struct kind lidr_idr_kind = {
	IDR_MT, lidr_release, lidr_count, lidr_is_empty, lidr_info,
};

/* }==================== The object ==================== */
