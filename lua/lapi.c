/* SPDX-License-Identifier: MIT */
/*
 * lapi.c - the Lua binding's idr API: the values of an idr,
 * allocation, lookup and removal, iteration, the 2004 API and tags.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "lidr.h"

/* An ID as int-taking calls want it. */
static int int_arg(lua_State *L, int arg)
{
	return (int)lidr_range_arg(L, arg, 0, INT_MAX);
}

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
void lidr_push_value(lua_State *L, struct lidr *t, lua_Integer id,
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
	lidr_push_value(L, t, id, entry);
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

/* {==================== Allocation ==================== */

/* "in [start, end)", or "at or above start" when @end sets no limit. */
static int no_space(lua_State *L, int err, int start, int end)
{
	if (end > 0)
		return lidr_fail(L, err, "no free id in [%d, %d)", start, end);
	return lidr_fail(L, err, "no free id at or above %d", start);
}

/*
 * After a C allocation of @id (or an error) from [@start, @end): store
 * the value at @arg and return the ID, or say why there is none.
 */
static int allocated(lua_State *L, struct lidr *t, int id, int arg,
		     unsigned int cursor, int start, int end)
{
	if (id == -ENOMEM)
		return lidr_fail_nomem(L);
	if (id == -EAGAIN)
		return lidr_fail(L, id,
				 "no node cached: call pre_get and retry");
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
	struct lidr *t = lidr_checkidr(L);
	int start = (int)lidr_opt_range(L, 3, 0, INT_MAX, 0);
	int end = (int)lidr_opt_range(L, 4, INT_MIN, INT_MAX, 0);
	unsigned int cursor = idr_get_cursor(&t->idr);
	int id = fn(&t->idr, marker(L, t, 2), start, end, GFP_KERNEL);

	end = (int)ids_end(t, end);
	return allocated(L, t, id, 2, cursor, ids_start(t, start, end), end);
}

int lidr_alloc(lua_State *L)
{
	return alloc_with(L, idr_alloc);
}

int lidr_alloc_cyclic(lua_State *L)
{
	return alloc_with(L, idr_alloc_cyclic);
}

int lidr_alloc_u32(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	uint32_t id = (uint32_t)lidr_opt_range(L, 3, 0, UINT32_MAX, 0);
	unsigned long max = (unsigned long)lidr_opt_range(L, 4, 0, UINT32_MAX,
							  UINT32_MAX);
	int err = idr_alloc_u32(&t->idr, marker(L, t, 2), &id, max, GFP_KERNEL);

	if (err == -ENOMEM)
		return lidr_fail_nomem(L);
	if (err)
		return lidr_fail(L, err, "no free id in [%I, %I]",
				 (LUAI_UACINT)id,
				 (LUAI_UACINT)ids_end(t, (int64_t)max + 1) - 1);
	publish(L, t, id, 2, idr_get_cursor(&t->idr));
	lua_pushinteger(L, id);
	return 1;
}

int lidr_get_cursor(lua_State *L)
{
	lua_pushinteger(L, idr_get_cursor(&lidr_checkidr(L)->idr));
	return 1;
}

int lidr_set_cursor(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);

	idr_set_cursor(&t->idr,
		       (unsigned int)lidr_range_arg(L, 2, 0, UINT32_MAX));
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

/*
 * nil, "no such id ID", "ENOENT": the events of the call that found
 * nothing go first, since the message allocates (see the rule at the top).
 * A tagged idr looked at the ID under the bits above it: the message
 * names that ID, and the value given, "no such id 15 (tagged 63)".
 */
static int no_such_id(lua_State *L, struct lidr *t, unsigned long id)
{
	lua_Integer looked = plain(t, (lua_Integer)id);

	lidr_delivered(L, &t->o, 0);
	if (looked != (lua_Integer)id)
		return lidr_fail(L, -ENOENT, "no such id %I (tagged %I)",
				 (LUAI_UACINT)looked, (LUAI_UACINT)id);
	return lidr_fail(L, -ENOENT, "no such id %I", (LUAI_UACINT)id);
}

/* The value at @id (nil if reserved), or nil, msg, "ENOENT" if free. */
int lidr_find(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id = lidr_ulong_arg(L, 2);
	void *entry = idr_find(&t->idr, id);

	if (!entry && !in_use(&t->idr, id))
		return no_such_id(L, t, id);
	lidr_push_value(L, t, id, entry);
	return 1;
}

/*
 * After a removal of @id that gave @entry and left the count at @before:
 * taken, its value returned; or, the ID still allocated, nil and why.
 * An RCU idr with no memory for the copy of a packed leaf keeps the ID,
 * holding NULL (idr_remove()): the entry goes back, in place (no
 * allocation), so that nothing changed.
 */
static int removed(lua_State *L, struct lidr *t, unsigned long id, void *entry,
		   unsigned long before)
{
	if (idr_count(&t->idr) != before) {
		take_value(L, t, id, entry);
		return 1;
	}
	if (entry)
		idr_replace(&t->idr, entry, id);
	if (entry || in_use(&t->idr, id))
		return lidr_fail_nomem(L);
	return no_such_id(L, t, id);
}

/*
 * The value removed (nil if the ID was reserved), or nil, msg, "ENOENT"
 * if nothing was there: idr_remove() says NULL for both, the count tells.
 */
int lidr_remove(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id = lidr_ulong_arg(L, 2);
	unsigned long before = idr_count(&t->idr);

	return removed(L, t, id, idr_remove(&t->idr, id), before);
}

/*
 * Give back @id as if it had never been allocated: a tagged slot's
 * generation does not advance, so this is only for IDs no one was given
 * (idrsh's alloc_many undoes a failed batch with it).  The value it held,
 * or nil, msg, "ENOENT" if it was free.
 */
int lidr_unalloc(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id = lidr_ulong_arg(L, 2);
	unsigned long before = idr_count(&t->idr);

	if (!in_use(&t->idr, id))
		return no_such_id(L, t, id);
	return removed(L, t, id, idr_unalloc(&t->idr, id), before);
}

/*
 * idr_destroy(), the object kept: every ID and node freed, and the values
 * with them; the base, the cursor, the tagging (its generations as the
 * seed, so that old tags stay stale) and the trace function stay.
 * destroy() ends the object instead.
 */
int lidr_clear(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);

	idr_destroy(&t->idr);
	lua_newtable(L);
	lua_setiuservalue(L, 1, UV_VALUES);
	return 0;
}

/* The old value (nil if reserved); a failed store puts the old back. */
int lidr_replace(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id = lidr_ulong_arg(L, 2);
	void *old;

	lua_settop(L, 3);
	old = idr_replace(&t->idr, marker(L, t, 3), id);
	if (IS_ERR(old))
		return no_such_id(L, t, id);
	lidr_push_value(L, t, id, old);
	if (store(L, t, id, 3) != LUA_OK) {
		idr_replace(&t->idr, old, id);
		lua_error(L);
	}
	return 1;
}

int lidr_get_next(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id = lidr_ulong_arg(L, 2);
	void *entry = idr_get_next_ul(&t->idr, &id);

	if (!entry) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushinteger(L, (lua_Integer)id);
	lidr_push_value(L, t, (lua_Integer)id, entry);
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
	lidr_push_value(L, t, (lua_Integer)id, entry);
	return 2;
}

/*
 * The generic for's step: the first entry above the last ID, found
 * afresh each time, so the loop body may remove and add.
 */
static int pairs_step(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id;
	void *entry;

	if (!pairs_from(L, &id) || !(entry = idr_get_next_ul(&t->idr, &id)))
		return 0;
	return pairs_push(L, t, id, entry);
}

/* pairs_step for t:pairs{ reserved = true }: reserved IDs give nil. */
static int pairs_all_step(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);
	unsigned long id;
	void *entry;

	if (!pairs_from(L, &id) || !idr_next_in_use(&t->idr, &id, &entry))
		return 0;
	return pairs_push(L, t, id, entry);
}

static const char *const pairs_keys[] = { "reserved", NULL };

/* Whether t:pairs(opts) asks for the reserved IDs too. */
bool lidr_opt_reserved(lua_State *L)
{
	bool on;

	if (!lidr_opts(L, 2, pairs_keys))
		return false;
	/* Options take booleans, as the views' do: reserved = 1 is a slip. */
	if (lua_getfield(L, 2, "reserved") > LUA_TBOOLEAN)
		luaL_argerror(L, 2, "reserved must be a boolean");
	on = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return on;
}

int lidr_pairs(lua_State *L)
{
	lidr_checkidr(L);
	lidr_push_method(L, lidr_opt_reserved(L) ? pairs_all_step : pairs_step);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

/* fn(id, v) on each entry, in ID order, until it returns a true value. */
int lidr_for_each(lua_State *L)
{
	unsigned long id = 0;
	void *entry;

	lidr_checkidr(L);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_settop(L, 2);
	while ((entry = idr_get_next_ul(&lidr_checkidr(L)->idr, &id))) {
		lidr_delivered(L, &lidr_toidr(L)->o, 0);
		lua_pushvalue(L, 2);
		lua_pushinteger(L, (lua_Integer)id);
		lidr_push_value(L, lidr_toidr(L), (lua_Integer)id, entry);
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

int lidr_pre_get(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);

	lua_pushboolean(L, idr_pre_get(&t->idr, GFP_KERNEL));
	return 1;
}

/* t:cache_count(): what t:stats().cached says, without the walk. */
int lidr_cache_count(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);

	lua_pushinteger(L, idr_cache_count(&t->idr));
	return 1;
}

static int get_new_from(lua_State *L, int start, bool above)
{
	struct lidr *t = lidr_toidr(L);
	unsigned int cursor = idr_get_cursor(&t->idr);
	int id, err;

	/* idr_get_new() for get_new, so that the trace names it. */
	err = above ? idr_get_new_above(&t->idr, marker(L, t, 2), start, &id)
		    : idr_get_new(&t->idr, marker(L, t, 2), &id);
	return allocated(L, t, err ? err : id, 2, cursor, start, 0);
}

int lidr_get_new(lua_State *L)
{
	lidr_checkidr(L);
	return get_new_from(L, 0, false);
}

int lidr_get_new_above(lua_State *L)
{
	lidr_checkidr(L);
	return get_new_from(L, int_arg(L, 3), true);
}

/* }==================== The 2004 API ==================== */

/* {==================== Tags ==================== */

static struct lidr *checktagged(lua_State *L)
{
	struct lidr *t = lidr_checkidr(L);

	if (!t->id_bits)
		luaL_error(L, "not a tagged idr (see idr.new{ tagged = ... })");
	return t;
}

int lidr_alloc_tagged(lua_State *L)
{
	checktagged(L);
	return alloc_with(L, idr_alloc_tagged);
}

/* Events first: the message allocates (see the rule at the top). */
static int tag_fail(lua_State *L, struct lidr *t, int err, int tid)
{
	lidr_delivered(L, &t->o, 0);
	if (err == -ESTALE)
		return lidr_fail(L, err, "stale tagged id %d", tid);
	return lidr_fail(L, err, "no such tagged id %d", tid);
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
		lidr_push_value(L, t, tid, idr_find_tagged(&t->idr, tid));
	else
		take_value(L, t, tid, idr_remove_tagged(&t->idr, tid));
	return 1;
}

int lidr_check(lua_State *L)
{
	return tagged_op(L, TAG_CHECK);
}

int lidr_find_tagged(lua_State *L)
{
	return tagged_op(L, TAG_FIND);
}

int lidr_remove_tagged(lua_State *L)
{
	return tagged_op(L, TAG_REMOVE);
}

int lidr_untag(lua_State *L)
{
	struct lidr *t = checktagged(L);
	int tid = int_arg(L, 2);

	lua_pushinteger(L, idr_tag_id(&t->idr, tid));
	lua_pushinteger(L, idr_tag_gen(&t->idr, tid));
	return 2;
}

/* }==================== Tags ==================== */
