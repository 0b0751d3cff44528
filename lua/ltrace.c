/* SPDX-License-Identifier: MIT */
/*
 * ltrace.c - the Lua binding's tracing: t:trace(), t:keep_events(),
 * t:last_events(), and the delivery of an operation's events.
 */
#include <stdlib.h>
#include <string.h>

#include "lidr.h"

/* {==================== Tracing ==================== */

/*
 * Called by tree.c mid-operation: only buffer the event.  A failed
 * realloc drops it, since nothing here may raise.  The trace function's
 * own operations on this idr are not traced, as Lua's hooks are off
 * inside a hook.
 */
static void trace_hook(const struct idr *idr, const struct idr_trace *ev,
		       void *data)
{
	struct obj *o = data;
	struct events *tr = &o->tr;

	(void)idr;
	if (o->in_trace)
		return;
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 16;
		struct idr_trace *ev2 = realloc(tr->ev, cap * sizeof(*ev2));

		if (!ev2)
			return;
		tr->ev = ev2;
		tr->cap = cap;
	}
	tr->ev[tr->n++] = *ev;
}

/* op: the operation and its arguments; done: its result, and errno. */
static void push_op(lua_State *L, const struct idr_trace *ev)
{
	lua_pushstring(L, ev->op);
	lua_setfield(L, -2, "op");
	if (ev->event == IDR_TRACE_OP) {
		lidr_set_int(L, "start", (lua_Integer)ev->start);
		lidr_set_int(L, "end", (lua_Integer)ev->end);
		lidr_set_int(L, "id", (lua_Integer)ev->id);
		return;
	}
	lidr_set_int(L, "result", (lua_Integer)ev->result);
	if (ev->result < 0) {
		lua_pushstring(L, lidr_errname((int)ev->result));
		lua_setfield(L, -2, "errno");
	}
}

/*
 * Node counts for *-take and malloc; a node and a slot for the rest.
 * @ev is in a buffer no finalizer can reach (see lidr_delivered()).
 */
static void push_event(lua_State *L, const struct idr_trace *ev)
{
	bool counts = ev->event == IDR_TRACE_CACHE_TAKE ||
		      ev->event == IDR_TRACE_PRELOAD_TAKE ||
		      ev->event == IDR_TRACE_MALLOC;

	lua_createtable(L, 0, 8);
	lua_pushstring(L, idr_trace_name(ev->event));
	lua_setfield(L, -2, "event");
	if (ev->event == IDR_TRACE_OP || ev->event == IDR_TRACE_DONE) {
		push_op(L, ev);
	} else if (counts) {
		lidr_set_int(L, "nodes", ev->nodes);
	} else {
		lidr_set_int(L, "level", ev->level);
		lidr_set_int(L, "first", (lua_Integer)ev->first);
		lidr_set_int(L, "last", (lua_Integer)ev->last);
		lidr_set_int(L, "slot", ev->slot);
		lidr_set_int(L, "full", (lua_Integer)ev->full);
		if (ev->aux) {
			lua_pushstring(L, ev->aux == IDR_AUX_GENS ? "gens"
								  : "bitmap");
			lua_setfield(L, -2, "aux");
		}
	}
	lidr_set_int(L, "height", ev->height);
}

/* Call the trace function on each event in the list on top, then pop. */
static void call_trace(lua_State *L, struct obj *t)
{
	lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);

	for (i = 1; i <= n && !t->dead; i++) {
		if (lua_getiuservalue(L, 1, UV_TRACE) != LUA_TFUNCTION) {
			lua_pop(L, 1);
			break;
		}
		lua_rawgeti(L, -2, i);
		t->in_trace = true;
		if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
			t->in_trace = false;
			lua_error(L);
		}
		t->in_trace = false;
	}
	lua_pop(L, 1);
}

/* Run under lua_pcall: the list of the events at index 1. */
static int push_events(lua_State *L)
{
	const struct events *tr = lua_touserdata(L, 1);
	size_t i;

	lua_createtable(L, (int)tr->n, 0);
	for (i = 0; i < tr->n; i++) {
		push_event(L, &tr->ev[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/*
 * Keeps a copy of the operation's events as the last ones (an allocation
 * failure keeps none: nothing here may raise).
 */
static void keep_last(struct obj *t)
{
	struct events *l = &t->last;

	l->n = 0;
	if (l->cap < t->tr.n) {
		struct idr_trace *ev = realloc(l->ev, t->tr.n * sizeof(*ev));

		if (!ev)
			return;
		l->ev = ev;
		l->cap = t->tr.n;
	}
	memcpy(l->ev, t->tr.ev, t->tr.n * sizeof(*l->ev));
	l->n = t->tr.n;
}

/*
 * The operation is over and the tree sound: hand its events to the trace
 * function, and return @nres results (already pushed).  If the function
 * raises, the error goes on but the operation stands.
 *
 * The tables are made from a buffer taken from the idr first: a finalizer
 * they run may destroy the idr (which frees its buffer) or trace an
 * operation of its own into a new one.  The buffer is freed (or given
 * back, for the next operation) whatever happens.
 */
int lidr_delivered(lua_State *L, struct obj *t, int nres)
{
	struct events tr = t->tr;
	int status;

	if (!tr.n)
		return nres;
	if (t->keep)
		keep_last(t);
	/* Kept only: no trace function wants tables of them. */
	if (lua_getiuservalue(L, 1, UV_TRACE) != LUA_TFUNCTION) {
		lua_pop(L, 1);
		t->tr.n = 0;
		return nres;
	}
	lua_pop(L, 1);
	t->tr = (struct events){ NULL, 0, 0 };
	lua_pushcfunction(L, push_events);
	lua_pushlightuserdata(L, &tr);
	status = lua_pcall(L, 1, 1, 0);
	if (!t->dead && !t->tr.ev)
		t->tr = (struct events){ tr.ev, 0, tr.cap };
	else
		free(tr.ev);
	if (status != LUA_OK)
		lua_error(L);
	call_trace(L, t);
	return nres;
}

/* The idr or IDA at index 1, alive, and its tree. */
static struct obj *checktraced(lua_State *L, struct idr **tree)
{
	struct lidr *t = luaL_testudata(L, 1, IDR_MT);
	struct lida *a;

	if (t) {
		*tree = &lidr_checkidr(L)->idr;
		return &t->o;
	}
	if (!luaL_testudata(L, 1, IDA_MT))
		luaL_typeerror(L, 1, "idr or ida");
	a = lidr_checkida(L);
	*tree = &a->ida.ida_rt;
	return &a->o;
}

/*
 * t:trace(fn) returns the function it replaces, so readers can chain.
 * An idr's and an IDA's alike: the IDA's events are its tree's.
 */
int lidr_trace(lua_State *L)
{
	struct idr *tree;
	struct obj *o = checktraced(L, &tree);

	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_settop(L, 2);
	lua_getiuservalue(L, 1, UV_TRACE);
	lua_insert(L, 2);
	if (lua_isnil(L, 3)) {
		idr_set_trace(tree, o->keep ? trace_hook : NULL, o);
		lua_pushnil(L);
	} else {
		idr_set_trace(tree, trace_hook, o);
		lua_pushvalue(L, 3);
	}
	lua_setiuservalue(L, 1, UV_TRACE);
	lua_settop(L, 2);
	return 1;
}

/*
 * t:keep_events(on): keep each operation's events, cheaply (in C, no
 * tables), for t:last_events(): the shell marks what the last command
 * changed without tracing every operation in Lua.
 */
int lidr_keep_events(lua_State *L)
{
	struct idr *tree;
	struct obj *o = checktraced(L, &tree);
	bool traced;

	/* No default: keep_events() or ("yes") is a slip, not false. */
	luaL_checktype(L, 2, LUA_TBOOLEAN);
	traced = lua_getiuservalue(L, 1, UV_TRACE) == LUA_TFUNCTION;
	o->keep = lua_toboolean(L, 2);
	if (!o->keep)
		o->last.n = 0;
	idr_set_trace(tree, o->keep || traced ? trace_hook : NULL, o);
	return 0;
}

/* t:last_events(): the events of the last operation, as t:events(). */
int lidr_last_events(lua_State *L)
{
	struct idr *tree;
	struct obj *o = checktraced(L, &tree);
	struct events last = o->last;
	int status;

	/* Taken off @o first: a finalizer may destroy it (see
	 * lidr_delivered()). */
	o->last = (struct events){ NULL, 0, 0 };
	lua_pushcfunction(L, push_events);
	lua_pushlightuserdata(L, &last);
	status = lua_pcall(L, 1, 1, 0);
	if (!o->dead && !o->last.ev)
		o->last = last;
	else
		free(last.ev);
	if (status != LUA_OK)
		lua_error(L);
	return 1;
}

/* }==================== Tracing ==================== */
