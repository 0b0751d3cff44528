/* SPDX-License-Identifier: MIT */
/*
 * lidr.c - the Lua 5.4 binding: require "idr".
 *
 * Conventions in this file, after liolib.c: misuse (a wrong type, an
 * integer out of the C range, a destroyed object) raises; an expected
 * failure returns nil, a message and the errno's name ("ENOSPC").
 * Methods find their object at stack index 1.
 *
 * An idr's C slots never hold Lua values.  A slot holds the object's own
 * address as a marker (NULL for an ID reserved with nil), and the value
 * lives in a table, the userdata's first user value, indexed by plain ID.
 * The collector traces that table through the userdata, so a value that
 * refers back to its idr is collected with it.
 *
 * No Lua function runs while the tree is mid-operation: a longjmp out of
 * tree.c would leave it half changed.  Trace events are buffered in C and
 * delivered when the method returns, by method(), which runs them all;
 * dump callbacks use only calls that cannot raise.
 *
 * The rule of re-entry.  Any Lua allocation (lua_newtable, pushing a new
 * string, lua_pushfstring, a luaL_Buffer, lua_setfield of a new key, a
 * lua_pcall that grows the stack, ...) may run a collection step, and a
 * step may run finalizers: Lua code that can destroy this idr, or run
 * operations on it that change the tree and reallocate its buffers.  So:
 *  - no C pointer into the idr's memory (a node, an entry, the event
 *    buffer) is held across such a call: copy what is needed into C
 *    locals or onto the Lua stack first (the userdata itself stays, at
 *    index 1);
 *  - after such a call, t->o.dead is checked again before the tree or the
 *    user values are touched (checkidr() does it);
 *  - between a change to the C tree and the matching change to the table
 *    of values, the idr is busy (store()): a finalizer that runs then
 *    gets an error from any method that could see or change the two,
 *    and from destroy.  (Stopping the collector instead made every
 *    store end with a collection step: 140 times slower in a loop that
 *    allocates a table a value.)
 */
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <urcu.h>

#include "lua.h"
#include "lauxlib.h"

#include "idr.h"
#include "idr_rcu.h"
#include "idr_view.h"
#include "lsave.h"

#define LIDR_API __attribute__((visibility("default")))

/* views[]: the files under lua/view/, compiled in by lua/embed */
#include "lidr_lua.h"

LIDR_API int luaopen_idr(lua_State *L);

#define IDR_MT "idr"
#define IDA_MT "ida"

/* The user values of an idr. */
#define UV_VALUES 1
#define UV_TRACE 2

/* Trace events of one operation, kept until it is over. */
struct events {
	struct idr_trace *ev;
	size_t n, cap;
};

/* What an idr and an IDA object share: each starts with it. */
struct obj {
	bool dead;     /* destroyed: every method raises */
	bool in_trace; /* the trace function is running */
	bool keep;     /* t:keep_events(true): the last operation's are kept */
	bool busy;     /* mid-operation: see the rule of re-entry */
	struct events tr;
	struct events last; /* the last operation's events, if kept */
};

struct lidr {
	struct obj o;
	struct idr idr;
	unsigned int id_bits; /* tagged: as given to idr_tag_init */
	bool rcu;	      /* idr.new{ rcu = true }: see "RCU idrs" */
};

struct lida {
	struct obj o;
	struct ida ida;
};

static void push_method(lua_State *L, lua_CFunction fn);

/* {==================== The allocator ==================== */

/*
 * idr.fault() and idr.mem(), written on the library's allocator seam:
 * luaopen_idr() sets this allocator, malloc(3) that counts and fails the
 * allocations idr.fault() arms.  Process-wide, as the seam is; atomic,
 * as C code beside Lua may preload in other threads.
 */
static struct {
	atomic_size_t bytes;
	atomic_ulong allocs, frees, failed;
	atomic_ulong fault_skip, fault_count;
	bool set; /* the library took this allocator */
} lmem;
static _Thread_local unsigned long lmem_thread_allocs;

/* Whether idr.fault() refuses this allocation. */
static bool lmem_fault_now(void)
{
	unsigned long skip, count;

	if (!atomic_load(&lmem.fault_count))
		return false;
	skip = atomic_load(&lmem.fault_skip);
	while (skip > 0)
		if (atomic_compare_exchange_weak(&lmem.fault_skip, &skip,
						 skip - 1))
			return false;
	count = atomic_load(&lmem.fault_count);
	while (count > 0)
		if (atomic_compare_exchange_weak(&lmem.fault_count, &count,
						 count - 1))
			return true;
	return false;
}

static void *lmem_malloc(size_t size, void *ctx)
{
	void *ptr;

	(void)ctx;
	if (lmem_fault_now()) {
		atomic_fetch_add(&lmem.failed, 1);
		return NULL;
	}
	ptr = malloc(size);
	if (ptr) {
		atomic_fetch_add(&lmem.bytes, size);
		atomic_fetch_add(&lmem.allocs, 1);
		lmem_thread_allocs++;
	}
	return ptr;
}

/* Only ever a shrink: neither an allocation nor failed. */
static void *lmem_realloc(void *ptr, size_t old_size, size_t new_size,
			  void *ctx)
{
	void *moved = realloc(ptr, new_size);

	(void)ctx;
	if (moved) {
		atomic_fetch_add(&lmem.bytes, new_size);
		atomic_fetch_sub(&lmem.bytes, old_size);
	}
	return moved;
}

static void lmem_free(void *ptr, size_t size, void *ctx)
{
	(void)ctx;
	atomic_fetch_sub(&lmem.bytes, size);
	atomic_fetch_add(&lmem.frees, 1);
	free(ptr);
}

/* Set the allocator, unless a state opened before did.  It stays unset
 * only when the library already held memory from another (a module
 * linked against a shared libidr that its host uses too). */
static void lmem_open(lua_State *L)
{
	static const struct idr_allocator counting = {
		.malloc = lmem_malloc,
		.realloc = lmem_realloc,
		.free = lmem_free,
	};
	struct idr_allocator now;

	(void)L;
	idr_get_allocator(&now);
	lmem.set = now.malloc == lmem_malloc || !idr_set_allocator(&counting);
}

static void lmem_check(lua_State *L)
{
	if (!lmem.set)
		luaL_error(L, "the library's allocator is not the module's "
			      "(it held memory when the module was loaded)");
}

/* A state's close disarms what its idr.fault() armed. */
static int lmem_close(lua_State *L)
{
	(void)L;
	atomic_store(&lmem.fault_count, 0);
	return 0;
}

/* }==================== The allocator ==================== */

/* {==================== Arguments and results ==================== */

static lua_Integer range_arg(lua_State *L, int arg, lua_Integer lo,
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

static lua_Integer opt_range(lua_State *L, int arg, lua_Integer lo,
			     lua_Integer hi, lua_Integer def)
{
	return lua_isnoneornil(L, arg) ? def : range_arg(L, arg, lo, hi);
}

/* An ID as int-taking calls want it. */
static int int_arg(lua_State *L, int arg)
{
	return (int)range_arg(L, arg, 0, INT_MAX);
}

/* An ID as unsigned long-taking calls want it: IDs end at UINT32_MAX. */
static unsigned long ulong_arg(lua_State *L, int arg)
{
	return (unsigned long)range_arg(L, arg, 0, UINT32_MAX);
}

/* The errnos a result may name; each is also a constant of the module. */
static const struct {
	int err;
	const char *name;
} errnos[] = {
	{ ENOSPC, "ENOSPC" },	{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ ENOENT, "ENOENT" },	{ ESTALE, "ESTALE" }, { EINVAL, "EINVAL" },
	{ EUCLEAN, "EUCLEAN" },
};

#define ERRNOS (sizeof(errnos) / sizeof(errnos[0]))

static const char *errname(int err)
{
	size_t i;

	for (i = 0; i < ERRNOS; i++)
		if (errnos[i].err == -err)
			return errnos[i].name;
	return "EIO";
}

/* Return nil, a message and @err's name: an expected failure. */
static int fail(lua_State *L, int err, const char *fmt, ...)
{
	va_list ap;

	lua_pushnil(L);
	va_start(ap, fmt);
	lua_pushvfstring(L, fmt, ap);
	va_end(ap);
	lua_pushstring(L, errname(err));
	return 3;
}

static int fail_nomem(lua_State *L)
{
	return fail(L, -ENOMEM, "not enough memory");
}

/* }==================== Arguments and results ==================== */

/* {==================== The object ==================== */

static struct lidr *toidr(lua_State *L)
{
	return luaL_checkudata(L, 1, IDR_MT);
}

/* The idr at index 1, alive, and not mid-operation. */
static struct lidr *checkidr(lua_State *L)
{
	struct lidr *t = toidr(L);

	if (t->o.dead)
		luaL_error(L, "attempt to use a destroyed idr");
	if (t->o.busy)
		luaL_error(L, "attempt to use an idr in the middle of an "
			      "operation (from a finalizer)");
	return t;
}

/* lsave.c's methods (lsave.h) reach the idr through this. */
struct idr *lidr_tree_arg(lua_State *L)
{
	return &checkidr(L)->idr;
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
static int lidr_rcu_barrier(lua_State *L)
{
	(void)L;
	synchronize_rcu();
	rcu_barrier();
	return 0;
}

/* }==================== RCU idrs ==================== */

/* Option @k, on top: an integer in [@lo, @hi]. */
static int opt_int(lua_State *L, const char *k, int lo, int hi)
{
	lua_Integer v = lua_tointeger(L, -1);

	if (!lua_isinteger(L, -1) || v < lo || v > hi)
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
	if (lua_getfield(L, tab, "retire") != LUA_TNIL && lua_toboolean(L, -1))
		*flags = IDR_TAG_RETIRE;
	lua_settop(L, tab);
}

struct new_opts {
	int base;
	unsigned int id_bits, flags;
	bool rcu;
};

/* idr.new's options; an unknown one is more likely a typo than not. */
static void new_opts(lua_State *L, struct new_opts *o)
{
	memset(o, 0, sizeof(*o));
	if (lua_isnoneornil(L, 1))
		return;
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
					? lua_tostring(L, -2)
					: "";

		if (!strcmp(k, "base"))
			o->base = opt_int(L, "base", 0, INT_MAX);
		else if (!strcmp(k, "tagged") && lua_toboolean(L, -1))
			tag_opts(L, &o->id_bits, &o->flags);
		else if (!strcmp(k, "rcu") && !lua_isboolean(L, -1))
			luaL_argerror(L, 1, "rcu must be true or false");
		else if (!strcmp(k, "rcu"))
			o->rcu = lua_toboolean(L, -1);
		else if (strcmp(k, "tagged") && strcmp(k, "kind") &&
			 strcmp(k, "destroyed"))
			luaL_argerror(
				L, 1,
				lua_pushfstring(L, "unknown option '%s'",
						luaL_tolstring(L, -2, NULL)));
	}
}

static int lidr_new(lua_State *L)
{
	struct new_opts o;
	struct lidr *t;

	new_opts(L, &o);
	/* The C library has no idr_init_rcu() with a base. */
	if (o.rcu && o.base)
		luaL_argerror(L, 1,
			      "an rcu idr takes no base (its IDs start at 0)");
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
		idr_init_rcu(&t->idr);
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

/* }==================== The object ==================== */

/* {==================== Values ==================== */

/* What the C slot holds for the value at @arg. */
static void *marker(lua_State *L, struct lidr *t, int arg)
{
	return lua_isnoneornil(L, arg) ? NULL : t;
}

/* A tagged idr's calls ignore the bits above the ID; its table does too. */
static lua_Integer plain(const struct lidr *t, lua_Integer id)
{
	if (t->id_bits)
		id &= ((lua_Integer)1 << t->id_bits) - 1;
	return id;
}

/*
 * Push the value of @id, whose C slot holds @entry.  Nothing allocates
 * here; a destroyed idr (no table any more) has no values.
 */
static void push_value(lua_State *L, struct lidr *t, lua_Integer id,
		       const void *entry)
{
	if (!entry) {
		lua_pushnil(L);
		return;
	}
	if (lua_getiuservalue(L, 1, UV_VALUES) == LUA_TTABLE)
		lua_rawgeti(L, -1, plain(t, id));
	else
		lua_pushnil(L);
	lua_remove(L, -2);
}

/* Push the value of @id and drop it from the table: the ID is gone. */
static void take_value(lua_State *L, struct lidr *t, lua_Integer id,
		       const void *entry)
{
	push_value(L, t, id, entry);
	if (lua_getiuservalue(L, 1, UV_VALUES) == LUA_TTABLE) {
		lua_pushnil(L);
		/* Setting a key to nil never allocates: this cannot raise. */
		lua_rawseti(L, -2, plain(t, id));
	}
	lua_pop(L, 1);
}

/* Run under lua_pcall: values[id] = v. */
static int set_value(lua_State *L)
{
	lua_rawseti(L, 1, lua_tointeger(L, 2));
	return 0;
}

/*
 * values[id] = the value at @arg, protected: growing the table may raise
 * a memory error after the C side changed, and the caller must undo that.
 * The idr is busy meanwhile, so that no finalizer sees (or changes) the
 * tree while it and the table disagree.
 */
static int store(lua_State *L, struct lidr *t, lua_Integer id, int arg)
{
	int status;

	t->o.busy = true;
	lua_pushcfunction(L, set_value);
	lua_getiuservalue(L, 1, UV_VALUES);
	lua_pushinteger(L, plain(t, id));
	lua_pushvalue(L, arg);
	status = lua_pcall(L, 3, 0, 0);
	t->o.busy = false;
	return status;
}

/*
 * Store the value at @arg for @id, just allocated in C.  If that fails,
 * the ID goes back (and the cyclic cursor to @cursor) before the error
 * goes on, so no ID is orphaned.  It goes back as it came: no one saw
 * it, so a tagged slot's generation does not advance (idr_remove()
 * would burn one).
 */
static void publish(lua_State *L, struct lidr *t, lua_Integer id, int arg,
		    unsigned int cursor)
{
	if (lua_isnoneornil(L, arg) || store(L, t, id, arg) == LUA_OK)
		return;
	idr_unalloc(&t->idr, (unsigned long)id);
	idr_set_cursor(&t->idr, cursor);
	lua_error(L);
}

/* }==================== Values ==================== */

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

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, bool v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

/* op: the operation and its arguments; done: its result, and errno. */
static void push_op(lua_State *L, const struct idr_trace *ev)
{
	lua_pushstring(L, ev->op);
	lua_setfield(L, -2, "op");
	if (ev->event == IDR_TRACE_OP) {
		set_int(L, "start", (lua_Integer)ev->start);
		set_int(L, "end", (lua_Integer)ev->end);
		set_int(L, "id", (lua_Integer)ev->id);
		return;
	}
	set_int(L, "result", (lua_Integer)ev->result);
	if (ev->result < 0) {
		lua_pushstring(L, errname((int)ev->result));
		lua_setfield(L, -2, "errno");
	}
}

/*
 * Node counts for *-take and malloc; a node and a slot for the rest.
 * @ev is in a buffer no finalizer can reach (see delivered()).
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
		set_int(L, "nodes", ev->nodes);
	} else {
		set_int(L, "level", ev->level);
		set_int(L, "first", (lua_Integer)ev->first);
		set_int(L, "last", (lua_Integer)ev->last);
		set_int(L, "slot", ev->slot);
		set_int(L, "full", (lua_Integer)ev->full);
		if (ev->aux) {
			lua_pushstring(L, ev->aux == IDR_AUX_GENS ? "gens"
								  : "bitmap");
			lua_setfield(L, -2, "aux");
		}
	}
	set_int(L, "height", ev->height);
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
 * The operation is over and the tree sound: hand its events to the trace
 * function, and return @nres results (already pushed).  If the function
 * raises, the error goes on but the operation stands.
 *
 * The tables are made from a buffer taken from the idr first: a finalizer
 * they run may destroy the idr (which frees its buffer) or trace an
 * operation of its own into a new one.  The buffer is freed (or given
 * back, for the next operation) whatever happens.
 */
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

static int delivered(lua_State *L, struct obj *t, int nres)
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

static struct lida *checkida(lua_State *L);

/* The idr or IDA at index 1, alive, and its tree. */
static struct obj *checktraced(lua_State *L, struct idr **tree)
{
	struct lidr *t = luaL_testudata(L, 1, IDR_MT);
	struct lida *a;

	if (t) {
		*tree = &checkidr(L)->idr;
		return &t->o;
	}
	if (!luaL_testudata(L, 1, IDA_MT))
		luaL_typeerror(L, 1, "idr or ida");
	a = checkida(L);
	*tree = &a->ida.ida_rt;
	return &a->o;
}

/*
 * t:trace(fn) returns the function it replaces, so readers can chain.
 * An idr's and an IDA's alike: the IDA's events are its tree's.
 */
static int lidr_trace(lua_State *L)
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
static int lidr_keep_events(lua_State *L)
{
	struct idr *tree;
	struct obj *o = checktraced(L, &tree);
	bool traced = lua_getiuservalue(L, 1, UV_TRACE) == LUA_TFUNCTION;

	o->keep = lua_toboolean(L, 2);
	if (!o->keep)
		o->last.n = 0;
	idr_set_trace(tree, o->keep || traced ? trace_hook : NULL, o);
	return 0;
}

/* t:last_events(): the events of the last operation, as t:events(). */
static int lidr_last_events(lua_State *L)
{
	struct idr *tree;
	struct obj *o = checktraced(L, &tree);
	struct events last = o->last;
	int status;

	/* Taken off @o first: a finalizer may destroy it, see delivered(). */
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

/* {==================== Allocation ==================== */

/* "in [start, end)", or "at or above start" when @end sets no limit. */
static int no_space(lua_State *L, int err, int start, int end)
{
	if (end > 0)
		return fail(L, err, "no free id in [%d, %d)", start, end);
	return fail(L, err, "no free id at or above %d", start);
}

/*
 * After a C allocation of @id (or an error) from [@start, @end): store
 * the value at @arg and return the ID, or say why there is none.
 */
static int allocated(lua_State *L, struct lidr *t, int id, int arg,
		     unsigned int cursor, int start, int end)
{
	if (id == -ENOMEM)
		return fail_nomem(L);
	if (id == -EAGAIN)
		return fail(L, id, "no node cached: call pre_get and retry");
	if (id < 0)
		return no_space(L, id, start, end);
	publish(L, t, id, arg, cursor);
	lua_pushinteger(L, id);
	return 1;
}

typedef int alloc_fn(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);

/* The end of the IDs a call could have had: a tagged idr's stop at
 * 2^id_bits, whatever end was asked for. */
static int64_t ids_end(const struct lidr *t, int64_t end)
{
	int64_t cap = t->id_bits ? (int64_t)1 << t->id_bits : 0;

	return cap && (end <= 0 || end > cap) ? cap : end;
}

/* And their start: none is below the base, unless the range asked for
 * lies wholly below it (then the range is the news). */
static int ids_start(const struct lidr *t, int start, int end)
{
	struct idr_info info;
	int base;

	idr_info(&t->idr, &info);
	base = (int)info.base;

	return start < base && (end <= 0 || base < end) ? base : start;
}

static int alloc_with(lua_State *L, alloc_fn *fn)
{
	struct lidr *t = checkidr(L);
	int start = (int)opt_range(L, 3, 0, INT_MAX, 0);
	int end = (int)opt_range(L, 4, INT_MIN, INT_MAX, 0);
	unsigned int cursor = idr_get_cursor(&t->idr);
	int id = fn(&t->idr, marker(L, t, 2), start, end, GFP_KERNEL);

	end = (int)ids_end(t, end);
	return allocated(L, t, id, 2, cursor, ids_start(t, start, end), end);
}

static int lidr_alloc(lua_State *L)
{
	return alloc_with(L, idr_alloc);
}

static int lidr_alloc_cyclic(lua_State *L)
{
	return alloc_with(L, idr_alloc_cyclic);
}

static int lidr_alloc_u32(lua_State *L)
{
	struct lidr *t = checkidr(L);
	uint32_t id = (uint32_t)opt_range(L, 3, 0, UINT32_MAX, 0);
	unsigned long max = (unsigned long)opt_range(L, 4, 0, UINT32_MAX,
						     UINT32_MAX);
	int err = idr_alloc_u32(&t->idr, marker(L, t, 2), &id, max, GFP_KERNEL);

	if (err == -ENOMEM)
		return fail_nomem(L);
	if (err)
		return fail(L, err, "no free id in [%I, %I]", (LUAI_UACINT)id,
			    (LUAI_UACINT)ids_end(t, (int64_t)max + 1) - 1);
	publish(L, t, id, 2, idr_get_cursor(&t->idr));
	lua_pushinteger(L, id);
	return 1;
}

static int lidr_get_cursor(lua_State *L)
{
	lua_pushinteger(L, idr_get_cursor(&checkidr(L)->idr));
	return 1;
}

static int lidr_set_cursor(lua_State *L)
{
	struct lidr *t = checkidr(L);

	idr_set_cursor(&t->idr, (unsigned int)range_arg(L, 2, 0, UINT32_MAX));
	return 0;
}

/* }==================== Allocation ==================== */

/* {==================== Lookup and removal ==================== */

/*
 * Whether @id is allocated: idr_find() says NULL for a reserved ID and a
 * free one alike, idr_path() tells them apart.
 */
static bool in_use(const struct idr *idr, unsigned long id)
{
	struct idr_path p;

	idr_path(idr, id, &p);
	return p.end == IDR_PATH_FOUND;
}

/* The value at @id (nil if reserved), or nil, msg, "ENOENT" if free. */
static int lidr_find(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id = ulong_arg(L, 2);
	void *entry = idr_find(&t->idr, id);

	/* Events first: the message allocates (see the rule at the top). */
	if (!entry && !in_use(&t->idr, id)) {
		delivered(L, &t->o, 0);
		return fail(L, -ENOENT, "no such id %I", (LUAI_UACINT)id);
	}
	push_value(L, t, id, entry);
	return 1;
}

/*
 * The value removed (nil if the ID was reserved), or nil, msg, "ENOENT"
 * if nothing was there: idr_remove() says NULL for both, the count tells.
 */
static int lidr_remove(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id = ulong_arg(L, 2);
	unsigned long before = idr_count(&t->idr);
	void *entry = idr_remove(&t->idr, id);

	/* Events first: the message allocates (see the rule at the top). */
	if (idr_count(&t->idr) == before) {
		delivered(L, &t->o, 0);
		return fail(L, -ENOENT, "no such id %I", (LUAI_UACINT)id);
	}
	take_value(L, t, id, entry);
	return 1;
}

/*
 * Give back @id as if it had never been allocated: a tagged slot's
 * generation does not advance, so this is only for IDs no one was given
 * (idrsh's alloc_many undoes a failed batch with it).  The value it held,
 * or nil, msg, "ENOENT" if it was free.
 */
static int lidr_unalloc(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id = ulong_arg(L, 2);

	if (!in_use(&t->idr, id))
		return fail(L, -ENOENT, "no such id %I", (LUAI_UACINT)id);
	take_value(L, t, id, idr_unalloc(&t->idr, id));
	return 1;
}

/* The old value (nil if reserved); a failed store puts the old back. */
static int lidr_replace(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id = ulong_arg(L, 2);
	void *old;

	lua_settop(L, 3);
	old = idr_replace(&t->idr, marker(L, t, 3), id);
	if (IS_ERR(old)) {
		delivered(L, &t->o, 0);
		return fail(L, -ENOENT, "no such id %I", (LUAI_UACINT)id);
	}
	push_value(L, t, id, old);
	if (store(L, t, id, 3) != LUA_OK) {
		idr_replace(&t->idr, old, id);
		lua_error(L);
	}
	return 1;
}

static int lidr_get_next(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id = ulong_arg(L, 2);
	void *entry = idr_get_next_ul(&t->idr, &id);

	if (!entry) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushinteger(L, (lua_Integer)id);
	push_value(L, t, (lua_Integer)id, entry);
	return 2;
}

/* }==================== Lookup and removal ==================== */

/* {==================== Iteration ==================== */

/*
 * Where the generic for's next step starts: one past the last ID, or 0
 * at the first; false when the last was the last ID there can be.
 */
static bool pairs_from(lua_State *L, unsigned long *id)
{
	lua_Integer last;

	*id = 0;
	if (lua_isnil(L, 2))
		return true;
	last = luaL_checkinteger(L, 2);
	if (last < 0 || last >= UINT32_MAX)
		return false;
	*id = (unsigned long)last + 1;
	return true;
}

static int pairs_push(lua_State *L, struct lidr *t, unsigned long id,
		      void *entry)
{
	lua_pushinteger(L, (lua_Integer)id);
	push_value(L, t, (lua_Integer)id, entry);
	return 2;
}

/*
 * The generic for's step: the first entry above the last ID, found
 * afresh each time, so the loop body may remove and add.
 */
static int pairs_step(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id;
	void *entry;

	if (!pairs_from(L, &id) || !(entry = idr_get_next_ul(&t->idr, &id)))
		return 0;
	return pairs_push(L, t, id, entry);
}

/* pairs_step for t:pairs{ reserved = true }: reserved IDs give nil. */
static int pairs_all_step(lua_State *L)
{
	struct lidr *t = checkidr(L);
	unsigned long id;
	void *entry;

	if (!pairs_from(L, &id) || !idr_next_in_use(&t->idr, &id, &entry))
		return 0;
	return pairs_push(L, t, id, entry);
}

static void opt_known(lua_State *L, const char *const *keys);

static const char *const pairs_keys[] = { "reserved", NULL };

/* Whether t:pairs(opts) asks for the reserved IDs too. */
static bool opt_reserved(lua_State *L)
{
	bool on;

	if (lua_isnoneornil(L, 2))
		return false;
	luaL_checktype(L, 2, LUA_TTABLE);
	opt_known(L, pairs_keys);
	lua_getfield(L, 2, "reserved");
	on = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return on;
}

static int lidr_pairs(lua_State *L)
{
	checkidr(L);
	push_method(L, opt_reserved(L) ? pairs_all_step : pairs_step);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

/* fn(id, v) on each entry, in ID order, until it returns a true value. */
static int lidr_for_each(lua_State *L)
{
	unsigned long id = 0;
	void *entry;

	checkidr(L);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_settop(L, 2);
	while ((entry = idr_get_next_ul(&checkidr(L)->idr, &id))) {
		delivered(L, &toidr(L)->o, 0);
		lua_pushvalue(L, 2);
		lua_pushinteger(L, (lua_Integer)id);
		push_value(L, toidr(L), (lua_Integer)id, entry);
		lua_call(L, 2, 1);
		if (lua_toboolean(L, -1))
			return 1;
		lua_pop(L, 1);
		if (id++ >= UINT32_MAX)
			break;
	}
	lua_pushnil(L);
	return 1;
}

/* }==================== Iteration ==================== */

/* {==================== The 2004 API ==================== */

static int lidr_pre_get(lua_State *L)
{
	struct lidr *t = checkidr(L);

	lua_pushboolean(L, idr_pre_get(&t->idr, GFP_KERNEL));
	return 1;
}

static int get_new_from(lua_State *L, int start, bool above)
{
	struct lidr *t = toidr(L);
	unsigned int cursor = idr_get_cursor(&t->idr);
	int id, err;

	/* idr_get_new() for get_new, so that the trace names it. */
	err = above ? idr_get_new_above(&t->idr, marker(L, t, 2), start, &id)
		    : idr_get_new(&t->idr, marker(L, t, 2), &id);
	return allocated(L, t, err ? err : id, 2, cursor, start, 0);
}

static int lidr_get_new(lua_State *L)
{
	checkidr(L);
	return get_new_from(L, 0, false);
}

static int lidr_get_new_above(lua_State *L)
{
	checkidr(L);
	return get_new_from(L, int_arg(L, 3), true);
}

/* }==================== The 2004 API ==================== */

/* {==================== Tags ==================== */

static struct lidr *checktagged(lua_State *L)
{
	struct lidr *t = checkidr(L);

	if (!t->id_bits)
		luaL_error(L, "not a tagged idr (see idr.new{ tagged = ... })");
	return t;
}

static int lidr_alloc_tagged(lua_State *L)
{
	checktagged(L);
	return alloc_with(L, idr_alloc_tagged);
}

/* Events first: the message allocates (see the rule at the top). */
static int tag_fail(lua_State *L, struct lidr *t, int err, int tid)
{
	delivered(L, &t->o, 0);
	if (err == -ESTALE)
		return fail(L, err, "stale tagged id %d", tid);
	return fail(L, err, "no such tagged id %d", tid);
}

enum tag_op { TAG_CHECK, TAG_FIND, TAG_REMOVE };

/* A live tagged ID's check, value or removal; else nil, msg, "ESTALE" or
 * "ENOENT". */
static int tagged_op(lua_State *L, enum tag_op op)
{
	struct lidr *t = checktagged(L);
	int tid = int_arg(L, 2);
	int err = idr_tag_check(&t->idr, tid);

	if (err)
		return tag_fail(L, t, err, tid);
	if (op == TAG_CHECK)
		lua_pushboolean(L, 1);
	else if (op == TAG_FIND)
		push_value(L, t, tid, idr_find_tagged(&t->idr, tid));
	else
		take_value(L, t, tid, idr_remove_tagged(&t->idr, tid));
	return 1;
}

static int lidr_check(lua_State *L)
{
	return tagged_op(L, TAG_CHECK);
}

static int lidr_find_tagged(lua_State *L)
{
	return tagged_op(L, TAG_FIND);
}

static int lidr_remove_tagged(lua_State *L)
{
	return tagged_op(L, TAG_REMOVE);
}

static int lidr_untag(lua_State *L)
{
	struct lidr *t = checktagged(L);
	int tid = int_arg(L, 2);

	lua_pushinteger(L, idr_tag_id(&t->idr, tid));
	lua_pushinteger(L, idr_tag_gen(&t->idr, tid));
	return 2;
}

/* }==================== Tags ==================== */

/* {==================== Looking inside ==================== */

/* The tree under the idr or IDA at index 1; @t is NULL for an IDA. */
static const struct idr *checktree(lua_State *L, struct lidr **t)
{
	struct lida *a;

	*t = luaL_testudata(L, 1, IDR_MT);
	if (*t)
		return &checkidr(L)->idr;
	a = luaL_testudata(L, 1, IDA_MT);
	if (!a)
		luaL_typeerror(L, 1, "idr or ida");
	if (a->o.dead)
		luaL_error(L, "attempt to use a destroyed ida");
	return ida_tree(&a->ida);
}

/* A misspelt option would be ignored without a word: refuse it. */
static void opt_known(lua_State *L, const char *const *keys)
{
	lua_pushnil(L);
	while (lua_next(L, 2)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING
					? lua_tostring(L, -2)
					: NULL;
		int i;

		for (i = 0; k && keys[i] && strcmp(k, keys[i]); i++)
			;
		if (!k || !keys[i])
			luaL_argerror(
				L, 2,
				lua_pushfstring(
					L, "unknown option '%s'",
					k ? k : luaL_tolstring(L, -2, NULL)));
		lua_pop(L, 1);
	}
}

static const char *const path_ends[] = {
	[IDR_PATH_FOUND] = "found",
	[IDR_PATH_EMPTY] = "empty",
	[IDR_PATH_BELOW_BASE] = "below-base",
	[IDR_PATH_ABOVE_TOP] = "above-top",
	[IDR_PATH_NO_CHILD] = "no-child",
	[IDR_PATH_FREE_SLOT] = "free-slot",
	[IDR_PATH_RETIRED] = "retired",
};

static void push_step(lua_State *L, const struct idr_path_step *st)
{
	lua_createtable(L, 0, 7);
	set_int(L, "level", st->level);
	set_int(L, "shift", st->shift);
	set_int(L, "first", (lua_Integer)st->first);
	set_int(L, "last", (lua_Integer)st->last);
	set_int(L, "slot", st->slot);
	set_bool(L, "present", st->present);
	set_bool(L, "full", st->full);
}

static void path_arrays(lua_State *L, const struct idr_path *p)
{
	unsigned int i;

	lua_createtable(L, (int)p->digits, 0);
	for (i = 0; i < p->digits; i++) {
		lua_pushinteger(L, p->digit[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "digits");
	lua_createtable(L, (int)p->steps, 0);
	for (i = 0; i < p->steps; i++) {
		push_step(L, &p->step[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "steps");
}

static int lidr_path(lua_State *L)
{
	struct lidr *t;
	const struct idr *tree = checktree(L, &t);
	struct idr_path p;

	idr_path(tree, ulong_arg(L, 2), &p);
	/* The value first: the tables below may run a finalizer. */
	if (!p.ida && p.end == IDR_PATH_FOUND)
		push_value(L, t, (lua_Integer)p.id, p.entry);
	else
		lua_pushnil(L);
	lua_createtable(L, 0, 12);
	set_int(L, "id", (lua_Integer)p.id);
	set_int(L, "index", (lua_Integer)p.index);
	set_int(L, "height", p.height);
	path_arrays(L, &p);
	lua_pushstring(L, path_ends[p.end]);
	lua_setfield(L, -2, "end");
	if (p.id_bits) {
		set_int(L, "id_bits", p.id_bits);
		set_int(L, "tag", (lua_Integer)p.tag);
		set_int(L, "gen", (lua_Integer)p.gen);
	}
	if (p.ida) {
		set_bool(L, "ida", true);
		set_int(L, "bit", p.bit);
	} else {
		lua_pushvalue(L, -2);
		lua_setfield(L, -2, "value");
	}
	return 1;
}

static void stats_levels(lua_State *L, const struct idr_stats *st)
{
	unsigned int i;

	lua_createtable(L, (int)st->height, 0);
	for (i = 0; i < st->height; i++) {
		lua_pushinteger(L, (lua_Integer)st->level_nodes[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "level_nodes");
}

/* Slots in use at each level, and slots in all; [0] the leaves'. */
struct occupancy {
	lua_Integer used[IDR_LEVELS_MAX], slots[IDR_LEVELS_MAX];
};

static int count_slots(const struct idr_view *v, void *data)
{
	struct occupancy *o = data;

	o->used[v->level] += __builtin_popcountll(v->present);
	o->slots[v->level] += v->slots;
	return 0;
}

static void set_levels(lua_State *L, const char *k, const lua_Integer *n,
		       unsigned int height)
{
	unsigned int i;

	lua_createtable(L, (int)height, 0);
	for (i = 0; i < height; i++) {
		lua_pushinteger(L, n[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, k);
}

/*
 * How full each level is (@o, walked with the stats), and what a flat
 * array of the IDs from the first the tree hands out to the highest
 * would cost: of pointers, and for an IDA of bits (as idr_stats_print()
 * says it).
 */
static void stats_compare(lua_State *L, lua_Integer base, bool ida,
			  const struct idr_stats *st, const struct occupancy *o)
{
	lua_Integer span = st->highest + 1 - base;

	set_levels(L, "level_used", o->used, st->height);
	set_levels(L, "level_slots", o->slots, st->height);
	if (!st->ids)
		return;
	set_int(L, "flat_bytes", span * (lua_Integer)sizeof(void *));
	lua_pushnumber(
		L, (lua_Number)st->bytes /
			   (lua_Number)(span * (lua_Integer)sizeof(void *)));
	lua_setfield(L, -2, "flat_ratio");
	if (!ida)
		return;
	set_int(L, "bitmap_bytes", (span + 7) / 8);
	lua_pushnumber(L, (lua_Number)st->bytes / (lua_Number)((span + 7) / 8));
	lua_setfield(L, -2, "bitmap_ratio");
	set_int(L, "bitmap_bits", (lua_Integer)st->aux_nodes * IDA_BITMAP_BITS);
}

static int lidr_stats(lua_State *L)
{
	struct lidr *t;
	const struct idr *tree = checktree(L, &t);
	struct idr_stats st;
	struct idr_info info;
	struct occupancy o;
	lua_Integer base;

	/* All of it before the first table: that may run a finalizer that
	 * changes or destroys the tree (see the rule of re-entry). */
	idr_stats(tree, &st);
	idr_info(tree, &info);
	base = (lua_Integer)info.base;
	memset(&o, 0, sizeof(o));
	idr_walk(tree, count_slots, &o);
	lua_createtable(L, 0, 16);
	set_int(L, "ids", (lua_Integer)st.ids);
	set_int(L, "retired", (lua_Integer)st.retired);
	set_int(L, "height", st.height);
	set_int(L, "nodes", (lua_Integer)st.nodes);
	stats_levels(L, &st);
	set_int(L, "aux_nodes", (lua_Integer)st.aux_nodes);
	set_int(L, "packed", (lua_Integer)st.packed);
	set_int(L, "cached", st.cached);
	set_int(L, "preloaded", st.preloaded);
	set_int(L, "node_bytes", (lua_Integer)st.node_bytes);
	set_int(L, "bytes", (lua_Integer)st.bytes);
	set_int(L, "rcu_pending", (lua_Integer)st.rcu_pending);
	set_int(L, "rcu_pending_bytes", (lua_Integer)st.rcu_pending_bytes);
	lua_pushnumber(L, st.bytes_per_id);
	lua_setfield(L, -2, "bytes_per_id");
	set_int(L, "lowest", st.lowest);
	set_int(L, "highest", st.highest);
	stats_compare(L, base, t == NULL, &st, &o);
	return 1;
}

static int lidr_validate(lua_State *L)
{
	struct lidr *t;
	int err = idr_check(checktree(L, &t));

	if (err)
		return fail(L, err, "the tree's invariants do not hold");
	lua_pushboolean(L, 1);
	return 1;
}

/* }==================== Looking inside ==================== */

/* {==================== The node reader ==================== */

/*
 * t:top(), t:child(node, slot), t:next_child(node, slot), t:slot(node, i)
 * and t:census([node]): the tree one node at a time, for the views in
 * lua/view/, which stop when their budget is spent.  A node is a plain
 * table of its facts and holds no pointer: each call finds its node
 * again from the top by its level and first ID, in O(height) and
 * allocating nothing in C, so a table kept while the tree changed reads
 * the node as it is now, and one whose node is gone raises "stale node".
 * Walking allocates only the tables it returns.
 */

/* Where a node table says its node is. */
struct place {
	lua_Integer level, first;
};

/* Field @k of the node table at @arg: a non-negative integer. */
static lua_Integer place_field(lua_State *L, int arg, const char *k)
{
	lua_Integer v;
	int isnum;

	lua_getfield(L, arg, k);
	v = lua_tointegerx(L, -1, &isnum);
	if (!isnum || v < 0)
		luaL_argerror(L, arg,
			      lua_pushfstring(L,
					      "node expected (a table from "
					      "t:top() or t:child() with an "
					      "integer %s)",
					      k));
	lua_pop(L, 1);
	return v;
}

/* The node table at @arg (it may run Lua: read it before the tree). */
static void place_arg(lua_State *L, int arg, struct place *p)
{
	luaL_checktype(L, arg, LUA_TTABLE);
	p->level = place_field(L, arg, "level");
	p->first = place_field(L, arg, "first");
}

/* The node @p names, found again from the top; false if it is gone. */
static bool find_node(const struct idr *tree, const struct place *p,
		      struct idr_view *v)
{
	struct idr_view child;
	unsigned long id = (unsigned long)p->first, span;

	if (!idr_view_top(tree, v))
		return false;
	while ((lua_Integer)v->level > p->level) {
		span = (v->last - v->first) / v->slots + 1;
		if (id < v->first || id > v->last ||
		    !idr_view_child(tree, v,
				    (unsigned int)((id - v->first) / span),
				    &child))
			return false;
		*v = child;
	}
	return (lua_Integer)v->level == p->level && v->first == id;
}

/* The node table at index 2, found in the tree at index 1, alive. */
static const struct idr *node_arg(lua_State *L, struct idr_view *v)
{
	struct place p;
	struct lidr *t;
	const struct idr *tree;

	place_arg(L, 2, &p);
	tree = checktree(L, &t);
	if (!find_node(tree, &p, v))
		luaL_error(L,
			   "stale node: the tree has no node L%I at ID %I "
			   "now (read it again from t:top())",
			   (LUAI_UACINT)p.level, (LUAI_UACINT)p.first);
	return tree;
}

/* Slot argument @arg of @v: 0 .. slots - 1, or slots too if @past. */
static unsigned int slot_arg(lua_State *L, int arg, const struct idr_view *v,
			     bool past)
{
	return (unsigned int)range_arg(L, arg, 0,
				       (lua_Integer)v->slots - (past ? 0 : 1));
}

/*
 * A node's facts as a table; bitmaps are integers, slot n is bit n.
 * Eight fields, a table's hash part of eight: t:nodes() of a large tree
 * makes one a node (geometry.lua derives the shift and the slots used).
 */
static void push_node(lua_State *L, const struct idr_view *v)
{
	lua_createtable(L, 0, 8);
	set_int(L, "depth", v->depth);
	set_int(L, "level", v->level);
	set_int(L, "slots", v->slots);
	set_int(L, "packed", v->packed);
	set_int(L, "first", (lua_Integer)v->first);
	set_int(L, "last", (lua_Integer)v->last);
	set_int(L, "full", (lua_Integer)v->full);
	set_int(L, "present", (lua_Integer)v->present);
}

/* t:top(): the top node, or nil when the tree is empty. */
static int lidr_top(lua_State *L)
{
	struct lidr *t;
	struct idr_view v;

	if (!idr_view_top(checktree(L, &t), &v))
		return 0;
	push_node(L, &v);
	return 1;
}

/* t:child(node, slot): the node below a slot, or nil (none, a leaf). */
static int lidr_child(lua_State *L)
{
	struct idr_view v, child;
	const struct idr *tree = node_arg(L, &v);
	unsigned int slot = slot_arg(L, 3, &v, false);

	if (!idr_view_child(tree, &v, slot, &child))
		return 0;
	push_node(L, &child);
	return 1;
}

/* t:next_child(node, slot): the first child at or after @slot, as
 * slot, child; nil if none (slot may be node.slots: none left). */
static int lidr_next_child(lua_State *L)
{
	struct idr_view v, child;
	const struct idr *tree = node_arg(L, &v);
	unsigned int slot = slot_arg(L, 3, &v, true);

	if (!idr_view_next_child(tree, &v, &slot, &child))
		return 0;
	lua_pushinteger(L, slot);
	push_node(L, &child);
	return 2;
}

/*
 * t:children(node): its children, in slot order, as a list (empty for a
 * leaf): one descent for them all.  Their facts are copied out before
 * the first table is made (a finalizer it runs may change the tree).
 */
static int lidr_children(lua_State *L)
{
	struct idr_view v, kids[64]; /* a node has 64 slots at most */
	const struct idr *tree = node_arg(L, &v);
	unsigned int slot, n = 0;

	for (slot = 0; n < 64 && idr_view_next_child(tree, &v, &slot, &kids[n]);
	     slot++)
		n++;
	lua_createtable(L, (int)n, 0);
	for (slot = 0; slot < n; slot++) {
		push_node(L, &kids[slot]);
		lua_rawseti(L, -2, slot + 1);
	}
	return 1;
}

/* What a slot holds, read before any table is made. */
struct slot_facts {
	unsigned long first, last;
	bool present, full, leaf, ida, retired;
	unsigned int bits, id_bits;
	uint64_t gen;
	const void *entry;
};

static void slot_facts(const struct idr *tree, const struct idr_view *v,
		       unsigned int slot, struct slot_facts *f)
{
	unsigned long span = (v->last - v->first) / v->slots + 1;
	struct idr_info info;

	idr_info(tree, &info);
	memset(f, 0, sizeof(*f));
	f->first = v->first + slot * span;
	f->last = f->first + (span - 1);
	f->present = v->present >> slot & 1;
	f->full = v->full >> slot & 1;
	f->leaf = v->level == 0;
	f->ida = info.ida;
	f->id_bits = info.id_bits;
	if (!f->leaf)
		return;
	f->entry = idr_view_entry(v, slot);
	f->retired = idr_view_retired(tree, v, slot);
	f->gen = idr_view_gen(tree, v, slot);
	f->bits = idr_view_bits(v, slot);
}

/*
 * t:slot(node, i): { slot, first, last, present, full } and, in a leaf,
 * an idr's value (nil: free or reserved), reserved, retired and, tagged,
 * gen; an IDA's bits (the IDs its bitmap holds).
 */
static int lidr_slot(lua_State *L)
{
	struct idr_view v;
	const struct idr *tree = node_arg(L, &v);
	unsigned int slot = slot_arg(L, 3, &v, false);
	struct lidr *t = luaL_testudata(L, 1, IDR_MT);
	struct slot_facts f;

	slot_facts(tree, &v, slot, &f);
	/* The value first: the tables below may run a finalizer. */
	if (t && f.leaf && f.present)
		push_value(L, t, (lua_Integer)f.first, f.entry);
	else
		lua_pushnil(L);
	lua_createtable(L, 0, 10);
	set_int(L, "slot", slot);
	set_int(L, "first", (lua_Integer)f.first);
	set_int(L, "last", (lua_Integer)f.last);
	set_bool(L, "present", f.present);
	set_bool(L, "full", f.full);
	if (!f.leaf)
		return 1;
	if (f.ida) {
		set_int(L, "bits", f.bits);
		return 1;
	}
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, "value");
	set_bool(L, "reserved", f.present && !f.entry && !f.retired);
	set_bool(L, "retired", f.retired);
	if (f.id_bits)
		set_int(L, "gen", (lua_Integer)f.gen);
	return 1;
}

/* The IDs an IDA's bitmaps under @v hold (a few bitmaps a million). */
static lua_Integer ida_ids(const struct idr *tree, const struct idr_view *v)
{
	struct idr_view child;
	lua_Integer ids = 0;
	unsigned int slot;

	for (slot = 0; !v->level && slot < v->slots; slot++)
		ids += idr_view_bits(v, slot);
	for (slot = 0; idr_view_next_child(tree, v, &slot, &child); slot++)
		ids += ida_ids(tree, &child);
	return ids;
}

/*
 * t:census(): { nodes, ids, retired, height } of the whole tree, as the
 * library keeps them: O(1), but for an IDA's IDs, read from its bitmaps.
 */
static int lidr_census(lua_State *L)
{
	struct lidr *t;
	const struct idr *tree = checktree(L, &t);
	struct idr_info info;
	struct idr_view top;
	lua_Integer ids;

	idr_info(tree, &info);
	if (!info.ida)
		ids = (lua_Integer)idr_count(tree);
	else
		ids = idr_view_top(tree, &top) ? ida_ids(tree, &top) : 0;
	lua_createtable(L, 0, 4);
	set_int(L, "nodes", (lua_Integer)info.nodes);
	set_int(L, "ids", ids);
	set_int(L, "retired", (lua_Integer)info.retired);
	set_int(L, "height", info.height);
	return 1;
}

/* The nodes under @v, @v's own included: a leaf is counted by its
 * parent's bitmap, never read. */
static lua_Integer nodes_under(const struct idr *tree, const struct idr_view *v)
{
	struct idr_view child;
	lua_Integer n = 1;
	unsigned int slot;

	if (v->level == 1)
		return n + __builtin_popcountll(v->present);
	for (slot = 0; idr_view_next_child(tree, v, &slot, &child); slot++)
		n += nodes_under(tree, &child);
	return n;
}

/* t:nodes_under(node): the nodes of the subtree under @node, its own
 * included, counted in C: the cost of its nodes above the leaves. */
static int lidr_nodes_under(lua_State *L)
{
	struct idr_view v;
	const struct idr *tree = node_arg(L, &v);

	lua_pushinteger(L, nodes_under(tree, &v));
	return 1;
}

/* }==================== The node reader ==================== */

/* {==================== The IDA ==================== */

static struct lida *toida(lua_State *L)
{
	return luaL_checkudata(L, 1, IDA_MT);
}

/* As checkidr(): the IDA at index 1, alive. */
static struct lida *checkida(lua_State *L)
{
	struct lida *a = toida(L);

	if (a->o.dead)
		luaL_error(L, "attempt to use a destroyed ida");
	return a;
}

static int lida_new(lua_State *L)
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
static int lida_alloc(lua_State *L)
{
	struct lida *a = checkida(L);
	unsigned int min = (unsigned int)opt_range(L, 2, 0, UINT32_MAX, 0);
	unsigned int max = (unsigned int)opt_range(L, 3, 0, UINT32_MAX,
						   INT_MAX);
	int id = ida_alloc_range(&a->ida, min, max, GFP_KERNEL);

	if (id == -ENOMEM)
		return fail_nomem(L);
	if (id < 0)
		return fail(L, id, "no free id in [%I, %I]", (LUAI_UACINT)min,
			    (LUAI_UACINT)max);
	lua_pushinteger(L, id);
	return 1;
}

static int lida_free(lua_State *L)
{
	struct lida *a = checkida(L);
	unsigned long id = ulong_arg(L, 2);

	if (ida_free(&a->ida, (unsigned int)id))
		return fail(L, -ENOENT, "id %I is not allocated",
			    (LUAI_UACINT)id);
	lua_pushboolean(L, 1);
	return 1;
}

static int lida_exists(lua_State *L)
{
	struct lida *a = checkida(L);

	lua_pushboolean(L, ida_exists(&a->ida, (unsigned int)ulong_arg(L, 2)));
	return 1;
}

static int lida_find_first(lua_State *L)
{
	struct lida *a = checkida(L);
	unsigned int min = (unsigned int)opt_range(L, 2, 0, UINT32_MAX, 0);
	unsigned int max = (unsigned int)opt_range(L, 3, 0, UINT32_MAX,
						   INT_MAX);
	int id = ida_find_first_range(&a->ida, min, max);

	if (id == -EINVAL)
		return fail(L, id, "%I is above the largest id",
			    (LUAI_UACINT)min);
	if (id < 0)
		return fail(L, id, "no id in [%I, %I]", (LUAI_UACINT)min,
			    (LUAI_UACINT)max);
	lua_pushinteger(L, id);
	return 1;
}

static int ida_step(lua_State *L)
{
	struct lida *a = checkida(L);
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

static int lida_pairs(lua_State *L)
{
	checkida(L);
	push_method(L, ida_step);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

/* }==================== The IDA ==================== */

/* {==================== Both kinds ==================== */

/* What an object says it is: copied out before any table is made. */
struct info {
	lua_Integer base;
	unsigned int id_bits;
	bool retire;
	bool rcu;
};

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

/* What differs between the kinds in the methods they share. */
struct kind {
	const char *name; /* the metatable's, and the messages' word */
	void (*release)(lua_State *L, struct obj *o);
	unsigned long (*count)(const struct obj *o);
	bool (*is_empty)(const struct obj *o);
	void (*info)(const struct obj *o, struct info *in); /* or NULL */
};

static const struct kind idr_kind = {
	IDR_MT, lidr_release, lidr_count, lidr_is_empty, lidr_info,
};

static const struct kind ida_kind = {
	IDA_MT, lida_release, lida_count, lida_is_empty, NULL,
};

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

/*
 * __gc, __close and destroy: idempotent, and raises nothing, so a
 * destroyed object may still be closed.
 */
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
	return o && !o->dead ? delivered(L, o, nres) : nres;
}

/* @fn as method() runs it, for the kind of the running method. */
static void push_method(lua_State *L, lua_CFunction fn)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushcfunction(L, fn);
	lua_pushvalue(L, lua_upvalueindex(3));
	lua_pushcclosure(L, method, 3);
}

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
	set_int(L, "base", in.base);
	if (in.id_bits) {
		lua_createtable(L, 0, 3);
		set_int(L, "id_bits", in.id_bits);
		set_int(L, "gen_bits", 31 - (lua_Integer)in.id_bits);
		set_bool(L, "retire", in.retire);
		lua_setfield(L, -2, "tagged");
	}
	if (in.rcu)
		set_bool(L, "rcu", true);
	set_bool(L, "destroyed", dead);
	return 1;
}

/* }==================== Both kinds ==================== */

/* {==================== The module ==================== */

static int lidr_fault(lua_State *L)
{
	lua_Integer skip = opt_range(L, 1, 0, LUA_MAXINTEGER, 0);
	lua_Integer count = opt_range(L, 2, 0, LUA_MAXINTEGER, 0);

	lmem_check(L);
	atomic_store(&lmem.fault_count, 0);
	atomic_store(&lmem.fault_skip, (unsigned long)skip);
	atomic_store(&lmem.fault_count, (unsigned long)count);
	return 0;
}

static int lidr_mem(lua_State *L)
{
	lmem_check(L);
	lua_createtable(L, 0, 5);
	set_int(L, "bytes", (lua_Integer)atomic_load(&lmem.bytes));
	set_int(L, "allocs", (lua_Integer)atomic_load(&lmem.allocs));
	set_int(L, "frees", (lua_Integer)atomic_load(&lmem.frees));
	set_int(L, "failed", (lua_Integer)atomic_load(&lmem.failed));
	set_int(L, "thread_allocs", (lua_Integer)lmem_thread_allocs);
	return 1;
}

static const luaL_Reg idr_methods[] = {
	{ "alloc", lidr_alloc },
	{ "alloc_cyclic", lidr_alloc_cyclic },
	{ "alloc_u32", lidr_alloc_u32 },
	{ "get_cursor", lidr_get_cursor },
	{ "set_cursor", lidr_set_cursor },
	{ "find", lidr_find },
	{ "remove", lidr_remove },
	{ "unalloc", lidr_unalloc },
	{ "replace", lidr_replace },
	{ "get_next", lidr_get_next },
	{ "pairs", lidr_pairs },
	{ "for_each", lidr_for_each },
	{ "is_empty", obj_is_empty },
	{ "count", obj_count },
	{ "destroy", obj_destroy },
	{ "info", obj_info },
	{ "pre_get", lidr_pre_get },
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
	lmem_open(L);
	lua_newuserdatauv(L, 0, 0);
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, lmem_close);
	lua_setfield(L, -2, "__gc");
	lua_setmetatable(L, -2);
	lua_setfield(L, LUA_REGISTRYINDEX, "idr.fault");
	createmeta(L, &idr_kind, idr_meta, idr_methods);
	createmeta(L, &ida_kind, ida_meta, ida_methods);
	open_views(L);
	return 1;
}

/* }==================== The module ==================== */
