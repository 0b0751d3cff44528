/* SPDX-License-Identifier: MIT */
/*
 * lidr.h - what the binding's C files under lua/ share: the
 * objects' layout and the helpers more than one file calls.  Private:
 * not installed; the binding itself includes only installed headers.
 *
 * Conventions in the binding, after liolib.c: misuse (a wrong type, an
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
 *    user values are touched (lidr_checkidr() does it);
 *  - between a change to the C tree and the matching change to the table
 *    of values, the idr is busy (store() in lapi.c): a finalizer that
 *    runs then gets an error from any method that could see or change
 *    the two, and from destroy.  (Stopping the collector instead made
 *    every store end with a collection step: 140 times slower in a loop
 *    that allocates a table a value.)
 *
 * Names: a file's own helpers are static and unprefixed; what another
 * file calls is lidr_ (lida_ for the IDA's methods), hidden, and declared
 * here, under the file that defines it.
 */
#ifndef LIDR_H
#define LIDR_H

#include <stdbool.h>
#include <stddef.h>

#include "lua.h"
#include "lauxlib.h"

#include "idr.h"
#include "idr_view.h"

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
	bool rcu;	      /* idr.new{ rcu = true }: see lobject.c */
};

struct lida {
	struct obj o;
	struct ida ida;
};

/* What an object says it is: copied out before any table is made. */
struct info {
	lua_Integer base;
	unsigned int id_bits;
	bool retire;
	bool rcu;
};

/* What differs between the kinds in the methods they share. */
struct kind {
	const char *name; /* the metatable's, and the messages' word */
	void (*release)(lua_State *L, struct obj *o);
	unsigned long (*count)(const struct obj *o);
	bool (*is_empty)(const struct obj *o);
	void (*info)(const struct obj *o, struct info *in); /* or NULL */
};

#pragma GCC visibility push(hidden)

/* lidr.c: arguments and results, both kinds, the module */
lua_Integer lidr_range_arg(lua_State *L, int arg, lua_Integer lo,
			   lua_Integer hi);
lua_Integer lidr_opt_range(lua_State *L, int arg, lua_Integer lo,
			   lua_Integer hi, lua_Integer def);
unsigned long lidr_ulong_arg(lua_State *L, int arg);
bool lidr_opts(lua_State *L, int arg, const char *const *keys);
const char *lidr_errname(int err);
int lidr_fail(lua_State *L, int err, const char *fmt, ...);
int lidr_fail_nomem(lua_State *L);
void lidr_set_int(lua_State *L, const char *k, lua_Integer v);
void lidr_set_bool(lua_State *L, const char *k, bool v);
void lidr_push_method(lua_State *L, lua_CFunction fn);

/* lmem.c: the allocator */
void lidr_mem_open(lua_State *L);
int lidr_fault(lua_State *L);
int lidr_mem(lua_State *L);

/* lobject.c: the idr object */
extern const struct kind lidr_idr_kind;
struct lidr *lidr_toidr(lua_State *L);
struct lidr *lidr_checkidr(lua_State *L);
int lidr_new(lua_State *L);
int lidr_rcu_barrier(lua_State *L);

/* ltrace.c: tracing */
int lidr_delivered(lua_State *L, struct obj *t, int nres);
int lidr_trace(lua_State *L);
int lidr_keep_events(lua_State *L);
int lidr_last_events(lua_State *L);

/* lapi.c: values, allocation, lookup, iteration, the 2004 API, tags */
void lidr_push_value(lua_State *L, struct lidr *t, lua_Integer id,
		     const void *entry);
int lidr_alloc(lua_State *L);
int lidr_alloc_cyclic(lua_State *L);
int lidr_alloc_u32(lua_State *L);
int lidr_get_cursor(lua_State *L);
int lidr_set_cursor(lua_State *L);
int lidr_find(lua_State *L);
int lidr_remove(lua_State *L);
int lidr_unalloc(lua_State *L);
int lidr_clear(lua_State *L);
int lidr_replace(lua_State *L);
int lidr_get_next(lua_State *L);
bool lidr_opt_reserved(lua_State *L);
int lidr_pairs(lua_State *L);
int lidr_for_each(lua_State *L);
int lidr_pre_get(lua_State *L);
int lidr_cache_count(lua_State *L);
int lidr_get_new(lua_State *L);
int lidr_get_new_above(lua_State *L);
int lidr_alloc_tagged(lua_State *L);
int lidr_find_tagged(lua_State *L);
int lidr_remove_tagged(lua_State *L);
int lidr_check(lua_State *L);
int lidr_untag(lua_State *L);

/* lreader.c: looking inside, the node reader */
int lidr_path(lua_State *L);
int lidr_stats(lua_State *L);
int lidr_validate(lua_State *L);
int lidr_top(lua_State *L);
int lidr_child(lua_State *L);
int lidr_next_child(lua_State *L);
int lidr_children(lua_State *L);
int lidr_slot(lua_State *L);
int lidr_census(lua_State *L);
int lidr_nodes_under(lua_State *L);

/* snapshot.c: t:mark() and t:diff() (see snapshot.h): sets field
 * "snapshot" of the table on top, the views run so far, to their C part */
void lidr_snapshot_open(lua_State *L);

/* lsave.c: what saving and loading a tagged idr need beyond the reader */
int lsave_get_seed(lua_State *L);
int lsave_set_seed(lua_State *L);
int lsave_get_gen(lua_State *L);
int lsave_tagged_id(lua_State *L);
int lsave_set_gen(lua_State *L);
/* Sets view "file" in the views' table on top (see lsave.c). */
void lsave_open_file(lua_State *L);

/* lida.c: the IDA */
extern const struct kind lidr_ida_kind;
struct lida *lidr_checkida(lua_State *L);
int lida_new(lua_State *L);
int lida_alloc(lua_State *L);
int lida_free(lua_State *L);
int lida_clear(lua_State *L);
int lida_exists(lua_State *L);
int lida_find_first(lua_State *L);
int lida_pairs(lua_State *L);

#pragma GCC visibility pop

#endif /* LIDR_H */
