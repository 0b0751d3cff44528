/* SPDX-License-Identifier: MIT */
/*
 * lidr.c - the Lua 5.4 binding: require "idr".  This file holds
 * what every method uses (arguments and results; the two kinds and
 * method(), which runs each method) and the module: its functions and
 * the method tables of both kinds, naming what the other files define.
 * lidr.h says the conventions of them all and the rule of re-entry.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "lidr.h"

#define LIDR_API __attribute__((visibility("default")))

/* views[]: the files under lua/view/, compiled in by lua/embed */
#include "lidr_lua.h"

LIDR_API int luaopen_idr(lua_State *L);

/* {==================== Arguments and results ==================== */

lua_Integer lidr_range_arg(lua_State *L, int arg, lua_Integer lo,
			   lua_Integer hi)
{
	lua_Integer v = luaL_checkinteger(L, arg);

	if (v < lo || v > hi)
		luaL_argerror(L, arg,
			      lua_pushfstring(L, "%I out of range [%I, %I]",
					      (LUAI_UACINT)v, (LUAI_UACINT)lo,
					      (LUAI_UACINT)hi));
	return v;
}

lua_Integer lidr_opt_range(lua_State *L, int arg, lua_Integer lo,
			   lua_Integer hi, lua_Integer def)
{
	return lua_isnoneornil(L, arg) ? def : lidr_range_arg(L, arg, lo, hi);
}

/*
 * Whether an options table was given at @arg (nil or none: no); one of
 * another type raises, and so does a key not in @keys, as a misspelt
 * option would be ignored without a word.  The keys checked are the raw
 * ones; the caller reads each option with lua_getfield, so an __index
 * gives options too, as Lua's own functions read a table.
 */
bool lidr_opts(lua_State *L, int arg, const char *const *keys)
{
	if (lua_isnoneornil(L, arg))
		return false;
	luaL_checktype(L, arg, LUA_TTABLE);
	for (lua_pushnil(L); lua_next(L, arg); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
					? lua_tostring(L, -2)
					: NULL;
		int i;

		for (i = 0; k && keys[i] && strcmp(k, keys[i]); i++)
			;
		if (!k || !keys[i])
			luaL_argerror(
				L, arg,
				lua_pushfstring(
					L, "unknown option '%s'",
					k ? k : luaL_tolstring(L, -2, NULL)));
	}
	return true;
}

/* An ID as unsigned long-taking calls want it: IDs end at UINT32_MAX. */
unsigned long lidr_ulong_arg(lua_State *L, int arg)
{
	return (unsigned long)lidr_range_arg(L, arg, 0, UINT32_MAX);
}

/* The errnos a result may name, the C library's and those of set_gen and
 * the save files' I/O; each is also a constant of the module. */
static const struct {
	int err;
	const char *name;
} errnos[] = {
	{ ENOSPC, "ENOSPC" },	{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ ENOENT, "ENOENT" },	{ ESTALE, "ESTALE" }, { EINVAL, "EINVAL" },
	{ EUCLEAN, "EUCLEAN" }, { EBUSY, "EBUSY" },   { EIO, "EIO" },
	{ EACCES, "EACCES" },	{ EISDIR, "EISDIR" }, { EFBIG, "EFBIG" },
};

#define ERRNOS (sizeof(errnos) / sizeof(errnos[0]))

const char *lidr_errname(int err)
{
	size_t i;

	for (i = 0; i < ERRNOS; i++)
		if (errnos[i].err == -err)
			return errnos[i].name;
	return "EIO";
}

/* Return nil, a message and @err's name: an expected failure. */
int lidr_fail(lua_State *L, int err, const char *fmt, ...)
{
	va_list ap;

	lua_pushnil(L);
	va_start(ap, fmt);
	lua_pushvfstring(L, fmt, ap);
	va_end(ap);
	lua_pushstring(L, lidr_errname(err));
	return 3;
}

int lidr_fail_nomem(lua_State *L)
{
	return lidr_fail(L, -ENOMEM, "not enough memory");
}

void lidr_set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

void lidr_set_bool(lua_State *L, const char *k, bool v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

/* }==================== Arguments and results ==================== */

/* {==================== Both kinds ==================== */

/* Each method and metamethod of a kind has the kind as upvalue 1. */
static const struct kind *kind_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static struct obj *toobj(lua_State *L, const struct kind *k)
{
	return luaL_checkudata(L, 1, k->name);
}

static struct obj *checkobj(lua_State *L, const struct kind *k)
{
	struct obj *o = toobj(L, k);

	if (o->dead)
		luaL_error(L, "attempt to use a destroyed %s", k->name);
	return o;
}

/* The object at index 1 if it is of the running method's kind (its
 * metatable, upvalue 3, compared without the registry's string key). */
static struct obj *own_obj(lua_State *L)
{
	struct obj *o = lua_touserdata(L, 1);
	bool same;

	if (!o || !lua_getmetatable(L, 1))
		return NULL;
	same = lua_rawequal(L, -1, lua_upvalueindex(3));
	lua_pop(L, 1);
	return same ? o : NULL;
}

/*
 * Every method, metamethod and iterator runs through here, so that one
 * rule holds for all of them: events an earlier call left (it raised)
 * are dropped, and those of this call are delivered when it returns.
 * Upvalue 1 is the kind, 2 the function, 3 the kind's metatable.  The
 * object stays at index 1 throughout: no method moves it.
 */
static int method(lua_State *L)
{
	lua_CFunction fn = lua_tocfunction(L, lua_upvalueindex(2));
	struct obj *o = own_obj(L);
	int nres;

	/* Busy: the events are those of the operation under way. */
	if (o && !o->busy)
		o->tr.n = 0;
	nres = fn(L);
	return o && !o->dead ? lidr_delivered(L, o, nres) : nres;
}

/* @fn as method() runs it, for the kind of the running method. */
void lidr_push_method(lua_State *L, lua_CFunction fn)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushcfunction(L, fn);
	lua_pushvalue(L, lua_upvalueindex(3));
	lua_pushcclosure(L, method, 3);
}

/*
 * __gc, __close and destroy: idempotent, and raises nothing, so a
 * destroyed object may still be closed.
 */
static int obj_destroy(lua_State *L)
{
	const struct kind *k = kind_of(L);
	struct obj *o = toobj(L, k);

	if (o->busy)
		return luaL_error(L,
				  "attempt to destroy an %s in the middle "
				  "of an operation (from a finalizer)",
				  k->name);
	if (!o->dead) {
		o->dead = true;
		k->release(L, o);
	}
	return 0;
}

static int obj_tostring(lua_State *L)
{
	const struct kind *k = kind_of(L);
	const struct obj *o = toobj(L, k);

	if (o->dead)
		lua_pushfstring(L, "%s (destroyed)", k->name);
	else
		lua_pushfstring(L, "%s (%p)", k->name, (const void *)o);
	return 1;
}

static int obj_count(lua_State *L)
{
	const struct kind *k = kind_of(L);

	lua_pushinteger(L, (lua_Integer)k->count(checkobj(L, k)));
	return 1;
}

static int obj_is_empty(lua_State *L)
{
	const struct kind *k = kind_of(L);

	lua_pushboolean(L, k->is_empty(checkobj(L, k)));
	return 1;
}

/*
 * { kind, base, tagged = nil | { id_bits, gen_bits, retire }, rcu = nil |
 * true, destroyed },
 * also of a destroyed object; idr.new takes it as its options.
 */
static int obj_info(lua_State *L)
{
	const struct kind *k = kind_of(L);
	const struct obj *o = toobj(L, k);
	struct info in = { 0, 0, false, false };
	bool dead = o->dead;

	if (k->info)
		k->info(o, &in);
	lua_createtable(L, 0, 4);
	lua_pushstring(L, k->name);
	lua_setfield(L, -2, "kind");
	lidr_set_int(L, "base", in.base);
	if (in.id_bits) {
		lua_createtable(L, 0, 3);
		lidr_set_int(L, "id_bits", in.id_bits);
		lidr_set_int(L, "gen_bits", 31 - (lua_Integer)in.id_bits);
		lidr_set_bool(L, "retire", in.retire);
		lua_setfield(L, -2, "tagged");
	}
	if (in.rcu)
		lidr_set_bool(L, "rcu", true);
	lidr_set_bool(L, "destroyed", dead);
	return 1;
}

/* }==================== Both kinds ==================== */

/* {==================== The module ==================== */

static const luaL_Reg idr_methods[] = {
	{ "alloc", lidr_alloc },
	{ "alloc_cyclic", lidr_alloc_cyclic },
	{ "alloc_u32", lidr_alloc_u32 },
	{ "get_cursor", lidr_get_cursor },
	{ "set_cursor", lidr_set_cursor },
	{ "find", lidr_find },
	{ "remove", lidr_remove },
	{ "unalloc", lidr_unalloc },
	{ "clear", lidr_clear },
	{ "replace", lidr_replace },
	{ "get_next", lidr_get_next },
	{ "pairs", lidr_pairs },
	{ "for_each", lidr_for_each },
	{ "is_empty", obj_is_empty },
	{ "count", obj_count },
	{ "destroy", obj_destroy },
	{ "info", obj_info },
	{ "pre_get", lidr_pre_get },
	{ "cache_count", lidr_cache_count },
	{ "get_new", lidr_get_new },
	{ "get_new_above", lidr_get_new_above },
	{ "alloc_tagged", lidr_alloc_tagged },
	{ "find_tagged", lidr_find_tagged },
	{ "remove_tagged", lidr_remove_tagged },
	{ "check", lidr_check },
	{ "untag", lidr_untag },
	{ "trace", lidr_trace },
	{ "keep_events", lidr_keep_events },
	{ "last_events", lidr_last_events },
	{ "path", lidr_path },
	{ "stats", lidr_stats },
	{ "validate", lidr_validate },
	{ "top", lidr_top },
	{ "child", lidr_child },
	{ "next_child", lidr_next_child },
	{ "children", lidr_children },
	{ "slot", lidr_slot },
	{ "census", lidr_census },
	{ "nodes_under", lidr_nodes_under },
	{ "get_seed", lsave_get_seed },
	{ "set_seed", lsave_set_seed },
	{ "get_gen", lsave_get_gen },
	{ "tagged_id", lsave_tagged_id },
	{ "set_gen", lsave_set_gen },
	{ NULL, NULL }
};

static const luaL_Reg idr_meta[] = {
	{ "__gc", obj_destroy },
	{ "__close", obj_destroy },
	{ "__len", obj_count },
	{ "__tostring", obj_tostring },
	{ "__pairs", lidr_pairs },
	{ "__index", NULL },
	{ NULL, NULL }
};

static const luaL_Reg ida_methods[] = {
	{ "alloc", lida_alloc },
	{ "free", lida_free },
	{ "clear", lida_clear },
	{ "exists", lida_exists },
	{ "find_first", lida_find_first },
	{ "count", obj_count },
	{ "is_empty", obj_is_empty },
	{ "pairs", lida_pairs },
	{ "destroy", obj_destroy },
	{ "info", obj_info },
	{ "path", lidr_path },
	{ "stats", lidr_stats },
	{ "validate", lidr_validate },
	{ "top", lidr_top },
	{ "child", lidr_child },
	{ "next_child", lidr_next_child },
	{ "children", lidr_children },
	{ "slot", lidr_slot },
	{ "census", lidr_census },
	{ "nodes_under", lidr_nodes_under },
	{ "trace", lidr_trace },
	{ "keep_events", lidr_keep_events },
	{ "last_events", lidr_last_events },
	{ NULL, NULL }
};

static const luaL_Reg ida_meta[] = {
	{ "__gc", obj_destroy },
	{ "__close", obj_destroy },
	{ "__len", obj_count },
	{ "__tostring", obj_tostring },
	{ "__pairs", lida_pairs },
	{ "__index", NULL },
	{ NULL, NULL }
};

static const luaL_Reg funcs[] = {
	{ "new", lidr_new },
	{ "ida", lida_new },
	{ "fault", lidr_fault },
	{ "mem", lidr_mem },
	{ "rcu_barrier", lidr_rcu_barrier },
	{ NULL, NULL }
};

/* luaL_setfuncs, each function wrapped in method() for @k, whose
 * metatable is at @mt. */
static void setmethods(lua_State *L, const struct kind *k, int mt,
		       const luaL_Reg *l)
{
	for (; l->name; l++) {
		if (!l->func) {
			lua_pushboolean(L, 0);
		} else {
			lua_pushlightuserdata(L, (void *)k);
			lua_pushcfunction(L, l->func);
			lua_pushvalue(L, mt);
			lua_pushcclosure(L, method, 3);
		}
		lua_setfield(L, -2, l->name);
	}
}

/* liolib's createmeta: metamethods, and the methods as __index. */
static void createmeta(lua_State *L, const struct kind *k, const luaL_Reg *meta,
		       const luaL_Reg *methods)
{
	int mt;

	luaL_newmetatable(L, k->name);
	mt = lua_gettop(L);
	setmethods(L, k, mt, meta);
	lua_newtable(L);
	setmethods(L, k, mt, methods);
	lua_setfield(L, -2, "__index");
	lua_pop(L, 1);
}

/*
 * The views written in Lua (lua/view/): view(NAME) runs the chunk of
 * lua/view/NAME.lua once, with the module, the method tables of idr and
 * IDA, and view itself, and returns what it returned (true for nothing).
 * So a view adds methods to the tables, and the package's shared parts
 * (geometry, fold ...) are views the others ask for by name, as require
 * would give them.  Upvalues: the views run so far, the module, the two
 * method tables, and view itself.
 */
static int view(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const struct embedded *v;

	lua_settop(L, 1);
	if (lua_getfield(L, lua_upvalueindex(1), name) != LUA_TNIL) {
		if (!lua_toboolean(L, -1))
			luaL_error(L, "view '%s' needs itself", name);
		return 1;
	}
	for (v = views; v->name && strcmp(v->name, name) != 0; v++)
		;
	if (!v->name)
		luaL_error(L, "no view named '%s'", name);
	lua_pushboolean(L, 0);
	lua_setfield(L, lua_upvalueindex(1), name);
	if (luaL_loadbufferx(L, v->src, v->len, v->chunk, "t") != LUA_OK)
		lua_error(L);
	lua_pushvalue(L, lua_upvalueindex(2));
	lua_pushvalue(L, lua_upvalueindex(3));
	lua_pushvalue(L, lua_upvalueindex(4));
	lua_pushvalue(L, lua_upvalueindex(5));
	lua_call(L, 4, 1);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 1);
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, lua_upvalueindex(1), name);
	return 1;
}

/* Run every view, in name order, with the module on top. */
static void open_views(lua_State *L)
{
	const struct embedded *v;

	lua_newtable(L);
	lidr_snapshot_open(L);
	lsave_open_file(L);
	lua_pushvalue(L, -2);
	luaL_getmetatable(L, IDR_MT);
	lua_getfield(L, -1, "__index");
	lua_replace(L, -2);
	luaL_getmetatable(L, IDA_MT);
	lua_getfield(L, -1, "__index");
	lua_replace(L, -2);
	lua_pushnil(L);
	lua_pushcclosure(L, view, 5);
	lua_pushvalue(L, -1);
	lua_setupvalue(L, -2, 5);
	for (v = views; v->name; v++) {
		lua_pushvalue(L, -1);
		lua_pushstring(L, v->name);
		lua_call(L, 1, 0);
	}
	lua_pop(L, 1);
}

/* idr.EVENTS: the trace events' names, in the library's order. */
static void event_names(lua_State *L)
{
	int e;

	lua_newtable(L);
	for (e = 0; strcmp(idr_trace_name(e), "unknown") != 0; e++) {
		lua_pushstring(L, idr_trace_name(e));
		lua_rawseti(L, -2, e + 1);
	}
	lua_setfield(L, -2, "EVENTS");
}

/* idr.BITS and idr.SLOTS: the library's as built, which idr_info() says. */
static void shape_consts(lua_State *L)
{
	struct idr_info info;
	struct idr empty;

	idr_init(&empty);
	idr_info(&empty, &info);
	lua_pushinteger(L, info.bits);
	lua_setfield(L, -2, "BITS");
	lua_pushinteger(L, info.slots);
	lua_setfield(L, -2, "SLOTS");
}

LIDR_API int luaopen_idr(lua_State *L)
{
	size_t i;

	luaL_newlib(L, funcs);
	lua_pushliteral(L, "idr " IDR_VERSION);
	lua_setfield(L, -2, "_VERSION");
	for (i = 0; i < ERRNOS; i++) {
		lua_pushstring(L, errnos[i].name);
		lua_setfield(L, -2, errnos[i].name);
	}
	lua_pushinteger(L, IDA_BITMAP_BITS);
	lua_setfield(L, -2, "IDA_BITMAP_BITS");
	shape_consts(L);
	event_names(L);
	lidr_mem_open(L);
	createmeta(L, &lidr_idr_kind, idr_meta, idr_methods);
	createmeta(L, &lidr_ida_kind, ida_meta, ida_methods);
	open_views(L);
	return 1;
}

/* }==================== The module ==================== */
