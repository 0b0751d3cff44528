/* SPDX-License-Identifier: MIT */
/*
 * lreader.c - the Lua binding's looking inside: t:path(),
 * t:stats(), t:validate(), and the node reader (t:top(), t:child() ...).
 */
#include <stdint.h>
#include <string.h>

#include "lidr.h"

/* {==================== Looking inside ==================== */

/* The tree under the idr or IDA at index 1; @t is NULL for an IDA. */
static const struct idr *checktree(lua_State *L, struct lidr **t)
{
	struct lida *a;

	*t = luaL_testudata(L, 1, IDR_MT);
	if (*t)
		return &lidr_checkidr(L)->idr;
	a = luaL_testudata(L, 1, IDA_MT);
	if (!a)
		luaL_typeerror(L, 1, "idr or ida");
	if (a->o.dead)
		luaL_error(L, "attempt to use a destroyed ida");
	return ida_tree(&a->ida);
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

/* @keyed: the IDs of the keyed block the step met, or 0 (a node). */
static void push_step(lua_State *L, const struct idr_path_step *st,
		      unsigned int keyed)
{
	lua_createtable(L, 0, 8);
	lidr_set_int(L, "level", st->level);
	lidr_set_int(L, "shift", st->shift);
	lidr_set_int(L, "first", (lua_Integer)st->first);
	lidr_set_int(L, "last", (lua_Integer)st->last);
	lidr_set_int(L, "slot", st->slot);
	lidr_set_bool(L, "present", st->present);
	lidr_set_bool(L, "full", st->full);
	if (keyed)
		lidr_set_int(L, "keyed", keyed);
}

/* The keyed field of each view on @p's path, top first (a cursor walk
 * down the steps: idr_path_step does not say what it met). */
static void path_keyed(const struct idr *idr, const struct idr_path *p,
		       unsigned int *keyed)
{
	struct idr_view v, child;
	unsigned int i;

	memset(keyed, 0, sizeof(*keyed) * IDR_LEVELS_MAX);
	if (!p->steps || !idr_view_top(idr, &v))
		return;
	for (i = 0; i < p->steps; i++) {
		keyed[i] = v.keyed;
		if (!idr_view_child(idr, &v, p->step[i].slot, &child))
			return;
		v = child;
	}
}

static void path_arrays(lua_State *L, const struct idr_path *p,
			const unsigned int *keyed)
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
		push_step(L, &p->step[i], keyed[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "steps");
}

int lidr_path(lua_State *L)
{
	struct lidr *t;
	const struct idr *tree = checktree(L, &t);
	struct idr_path p;
	unsigned int keyed[IDR_LEVELS_MAX];

	idr_path(tree, lidr_ulong_arg(L, 2), &p);
	path_keyed(tree, &p, keyed);
	/* The value first: the tables below may run a finalizer. */
	if (!p.ida && p.end == IDR_PATH_FOUND)
		lidr_push_value(L, t, (lua_Integer)p.id, p.entry);
	else
		lua_pushnil(L);
	lua_createtable(L, 0, 12);
	lidr_set_int(L, "id", (lua_Integer)p.id);
	lidr_set_int(L, "index", (lua_Integer)p.index);
	lidr_set_int(L, "height", p.height);
	path_arrays(L, &p, keyed);
	lua_pushstring(L, path_ends[p.end]);
	lua_setfield(L, -2, "end");
	if (p.id_bits) {
		lidr_set_int(L, "id_bits", p.id_bits);
		lidr_set_int(L, "tag", (lua_Integer)p.tag);
		lidr_set_int(L, "gen", (lua_Integer)p.gen);
	}
	if (p.ida) {
		lidr_set_bool(L, "ida", true);
		lidr_set_int(L, "bit", p.bit);
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

/* Slots in use at each level, and slots in all; [0] the leaves'; and
 * the keyed blocks, with the IDs they hold. */
struct occupancy {
	lua_Integer used[IDR_LEVELS_MAX], slots[IDR_LEVELS_MAX];
	lua_Integer keyed_blocks, keyed_ids;
};

static int count_slots(const struct idr_view *v, void *data)
{
	struct occupancy *o = data;

	/* A keyed block's runs of keys are no leaves: no slots of their own. */
	if (v->keyed && v->level == 0)
		return 0;
	if (v->keyed) {
		o->keyed_blocks++;
		o->keyed_ids += v->keyed;
	}

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
	lidr_set_int(L, "flat_bytes", span * (lua_Integer)sizeof(void *));
	lua_pushnumber(
		L, (lua_Number)st->bytes /
			   (lua_Number)(span * (lua_Integer)sizeof(void *)));
	lua_setfield(L, -2, "flat_ratio");
	if (!ida)
		return;
	lidr_set_int(L, "bitmap_bytes", (span + 7) / 8);
	lua_pushnumber(L, (lua_Number)st->bytes / (lua_Number)((span + 7) / 8));
	lua_setfield(L, -2, "bitmap_ratio");
	lidr_set_int(L, "bitmap_bits",
		     (lua_Integer)st->aux_nodes * IDA_BITMAP_BITS);
}

int lidr_stats(lua_State *L)
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
	lidr_set_int(L, "ids", (lua_Integer)st.ids);
	lidr_set_int(L, "retired", (lua_Integer)st.retired);
	lidr_set_int(L, "height", st.height);
	lidr_set_int(L, "nodes", (lua_Integer)st.nodes);
	stats_levels(L, &st);
	lidr_set_int(L, "aux_nodes", (lua_Integer)st.aux_nodes);
	lidr_set_int(L, "packed", (lua_Integer)st.packed);
	lidr_set_int(L, "keyed_blocks", o.keyed_blocks);
	lidr_set_int(L, "keyed_ids", o.keyed_ids);
	lidr_set_int(L, "cached", st.cached);
	lidr_set_int(L, "preloaded", st.preloaded);
	lidr_set_int(L, "node_bytes", (lua_Integer)st.node_bytes);
	lidr_set_int(L, "bytes", (lua_Integer)st.bytes);
	lidr_set_int(L, "rcu_pending", (lua_Integer)st.rcu_pending);
	lidr_set_int(L, "rcu_pending_bytes", (lua_Integer)st.rcu_pending_bytes);
	lua_pushnumber(L, st.bytes_per_id);
	lua_setfield(L, -2, "bytes_per_id");
	lidr_set_int(L, "lowest", st.lowest);
	lidr_set_int(L, "highest", st.highest);
	stats_compare(L, base, t == NULL, &st, &o);
	return 1;
}

int lidr_validate(lua_State *L)
{
	struct lidr *t;
	int err = idr_check(checktree(L, &t));

	if (err)
		return lidr_fail(L, err, "the tree's invariants do not hold");
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
	return (unsigned int)lidr_range_arg(
		L, arg, 0, (lua_Integer)v->slots - (past ? 0 : 1));
}

/*
 * A node's facts as a table; bitmaps are integers, slot n is bit n.
 * Eight fields, a table's hash part of eight: t:nodes() of a large tree
 * makes one a node (geometry.lua derives the shift and the slots used).
 * A keyed block's views have a ninth, keyed.
 */
static void push_node(lua_State *L, const struct idr_view *v)
{
	lua_createtable(L, 0, 8);
	lidr_set_int(L, "depth", v->depth);
	lidr_set_int(L, "level", v->level);
	lidr_set_int(L, "slots", v->slots);
	lidr_set_int(L, "packed", v->packed);
	lidr_set_int(L, "first", (lua_Integer)v->first);
	lidr_set_int(L, "last", (lua_Integer)v->last);
	lidr_set_int(L, "full", (lua_Integer)v->full);
	lidr_set_int(L, "present", (lua_Integer)v->present);
	/* Only a keyed block's views: other nodes keep to eight fields. */
	if (v->keyed)
		lidr_set_int(L, "keyed", v->keyed);
}

/* t:top(): the top node, or nil when the tree is empty. */
int lidr_top(lua_State *L)
{
	struct lidr *t;
	struct idr_view v;

	if (!idr_view_top(checktree(L, &t), &v))
		return 0;
	push_node(L, &v);
	return 1;
}

/* t:child(node, slot): the node below a slot, or nil (none, a leaf). */
int lidr_child(lua_State *L)
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
int lidr_next_child(lua_State *L)
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
int lidr_children(lua_State *L)
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
int lidr_slot(lua_State *L)
{
	struct idr_view v;
	const struct idr *tree = node_arg(L, &v);
	unsigned int slot = slot_arg(L, 3, &v, false);
	struct lidr *t = luaL_testudata(L, 1, IDR_MT);
	struct slot_facts f;

	slot_facts(tree, &v, slot, &f);
	/* The value first: the tables below may run a finalizer. */
	if (t && f.leaf && f.present)
		lidr_push_value(L, t, (lua_Integer)f.first, f.entry);
	else
		lua_pushnil(L);
	lua_createtable(L, 0, 10);
	lidr_set_int(L, "slot", slot);
	lidr_set_int(L, "first", (lua_Integer)f.first);
	lidr_set_int(L, "last", (lua_Integer)f.last);
	lidr_set_bool(L, "present", f.present);
	lidr_set_bool(L, "full", f.full);
	if (!f.leaf)
		return 1;
	if (f.ida) {
		lidr_set_int(L, "bits", f.bits);
		return 1;
	}
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, "value");
	lidr_set_bool(L, "reserved", f.present && !f.entry && !f.retired);
	lidr_set_bool(L, "retired", f.retired);
	if (f.id_bits)
		lidr_set_int(L, "gen", (lua_Integer)f.gen);
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
int lidr_census(lua_State *L)
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
	lidr_set_int(L, "nodes", (lua_Integer)info.nodes);
	lidr_set_int(L, "ids", ids);
	lidr_set_int(L, "retired", (lua_Integer)info.retired);
	lidr_set_int(L, "height", info.height);
	return 1;
}

/* The nodes under @v, @v's own included: a leaf is counted by its
 * parent's bitmap, never read; a keyed block is one node, its runs of
 * keys none, as idr_stats() counts.  Past @most it stops: the result is
 * then more than @most, and the nodes read about @most. */
static lua_Integer nodes_under(const struct idr *tree, const struct idr_view *v,
			       lua_Integer most)
{
	struct idr_view child;
	lua_Integer n = 1;
	unsigned int slot;

	if (v->keyed)
		return n;
	if (v->level == 1)
		return n + __builtin_popcountll(v->present);
	for (slot = 0; n <= most && idr_view_next_child(tree, v, &slot, &child);
	     slot++)
		n += nodes_under(tree, &child, most - n);
	return n;
}

/* t:nodes_under(node [, most]): the nodes of the subtree under @node,
 * its own included, counted in C: the cost of its nodes above the
 * leaves, or of about @most of them (a count past @most is cut short,
 * and is more than @most). */
int lidr_nodes_under(lua_State *L)
{
	struct idr_view v;
	const struct idr *tree = node_arg(L, &v);
	lua_Integer most = luaL_optinteger(L, 3, LUA_MAXINTEGER);

	luaL_argcheck(L, most >= 0, 3, "most must be 0 or more");
	lua_pushinteger(L, nodes_under(tree, &v, most));
	return 1;
}

/* }==================== The node reader ==================== */
