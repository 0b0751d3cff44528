/* SPDX-License-Identifier: MIT */
/*
 * snapshot.c - t:mark(): the tree as a compact snapshot, in one walk (the
 * format: snapshot.h), and the mark's fields.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

#define SCRATCH_MT "idr.mark.scratch"
#define ctz lidr_snapshot_ctz

/* {==================== Writing ==================== */

static void put(struct out *o, unsigned int byte)
{
	unsigned char *p;

	if (o->n == o->cap) {
		p = o->nomem ? NULL : realloc(o->p, o->cap ? 2 * o->cap : 256);
		if (!p) {
			o->nomem = true;
			return;
		}
		o->p = p;
		o->cap = o->cap ? 2 * o->cap : 256;
	}
	o->p[o->n++] = (unsigned char)byte;
}

static void put_varint(struct out *o, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		put(o, (unsigned int)(v & 0x7f) | 0x80);
	put(o, (unsigned int)v);
}

static void put_bitmap(struct out *o, uint64_t map)
{
	unsigned int n = (unsigned int)__builtin_popcountll(map), i;

	put(o, n);
	if (n <= FEW_BITS) {
		for (; map; map &= map - 1)
			put(o, ctz(map));
		return;
	}
	for (i = 0; i < 8; i++)
		put(o, (unsigned int)(map >> (8 * i)) & 0xff);
}

/* }==================== Writing ==================== */

/* {==================== Marking ==================== */

struct scratch *lidr_snapshot_scratch(lua_State *L)
{
	struct scratch *s = lua_newuserdatauv(L, sizeof(*s), 0);

	memset(s, 0, sizeof(*s));
	luaL_setmetatable(L, SCRATCH_MT);
	return s;
}

void lidr_snapshot_clear(struct scratch *s)
{
	free(s->nodes.p);
	free(s->runs.p);
	free(s->node_changes.v);
	free(s->id_changes.v);
	memset(s, 0, sizeof(*s));
}

static int scratch_gc(lua_State *L)
{
	lidr_snapshot_clear(luaL_checkudata(L, 1, SCRATCH_MT));
	return 0;
}

/* Stack of S.mark: 1 the tree, 4 scratch, 5 the idr's values, 6 the
 * last entry's value, 7 the values kept, in an array made big enough. */
struct marking {
	lua_State *L;
	const struct idr *tree;
	struct mark *m;
	struct out *nodes, *runs;
	uint64_t run; /* entries in the run under way */
};

uint64_t lidr_snapshot_entries(const struct idr *tree, const struct idr_view *v)
{
	uint64_t set, entries = v->present;

	for (set = v->present; set; set &= set - 1)
		if (idr_view_retired(tree, v, ctz(set)))
			entries &= ~(set & -set);
	return entries;
}

static void end_run(struct marking *k)
{
	if (k->run)
		put_varint(k->runs, k->run);
	k->run = 0;
}

/* The value of @id into the run under way, or a new one. */
static void keep_value(struct marking *k, lua_Integer id)
{
	lua_State *L = k->L;

	lua_rawgeti(L, 5, id);
	if (k->m->runs && lua_rawequal(L, -1, 6)) {
		lua_pop(L, 1);
		k->run++;
		return;
	}
	end_run(k);
	k->run = 1;
	lua_pushvalue(L, -1);
	/* Within the array part made for them: allocates nothing. */
	lua_rawseti(L, 7, (lua_Integer)++k->m->runs);
	lua_replace(L, 6);
}

static void mark_entries(struct marking *k, const struct idr_view *v,
			 uint64_t entries, unsigned int flags)
{
	if (!(flags & ENTRIES_SAME))
		put_bitmap(k->nodes, entries);
	for (; entries; entries &= entries - 1) {
		k->m->entries++;
		keep_value(k, (lua_Integer)(v->first + ctz(entries)));
	}
}

static void mark_maps(struct marking *k, const struct idr_view *v)
{
	unsigned int chunk = k->m->chunk, slot, i, n, byte;
	uint64_t set;

	for (set = v->present; set; set &= set - 1) {
		slot = ctz(set);
		if (idr_view_bits(v, slot) == chunk) {
			put(k->nodes, MAP_ALL);
			continue;
		}
		put(k->nodes, MAP_BYTES);
		for (i = 0; i < chunk; i += 8) {
			for (byte = n = 0; n < 8; n++)
				byte |= (unsigned int)idr_view_bit(v, slot,
								   i + n)
					<< n;
			put(k->nodes, byte);
		}
	}
}

static int mark_node(const struct idr_view *v, void *data)
{
	struct marking *k = data;
	struct mark *m = k->m;
	bool leaf = v->level == 0, idr_leaf = leaf && !m->ida;
	uint64_t entries = idr_leaf && m->kept
				   ? lidr_snapshot_entries(k->tree, v)
				   : 0,
		 set;
	unsigned int flags = v->full == v->present ? FULL_SAME
			     : v->full == 0	   ? FULL_NONE
						   : 0;

	if (v->depth == 0) {
		m->first = v->first;
		m->height = v->level + 1;
	}
	m->width[v->level] = v->last - v->first;
	m->slots = v->slots;
	/* A keyed block's runs of keys are views, not nodes (idr_stats()). */
	if (!(leaf && v->keyed))
		m->nodes++;
	if (idr_leaf && m->kept && entries == v->present)
		flags |= ENTRIES_SAME;
	if (v->keyed)
		flags |= KEYED;
	put(k->nodes, flags);
	put_bitmap(k->nodes, v->present);
	if (!(flags & (FULL_SAME | FULL_NONE)))
		put_bitmap(k->nodes, v->full);
	for (set = leaf && m->ida ? v->present : 0; set; set &= set - 1)
		m->entries += idr_view_bits(v, ctz(set));
	if (leaf && m->kept && m->ida)
		mark_maps(k, v);
	else if (idr_leaf && m->kept)
		mark_entries(k, v, entries, flags);
	return k->nodes->nomem || k->runs->nomem;
}

/* Mark @tree into @m's header and the scratch at 4: one walk. */
static void mark_walk(lua_State *L, const struct idr *tree, bool kept,
		      lua_Integer max, struct mark *m)
{
	struct scratch *s = lua_touserdata(L, 4);
	struct marking k = { L, tree, m, &s->nodes, &s->runs, 0 };
	struct idr_info info;

	idr_info(tree, &info);
	memset(m, 0, sizeof(*m));
	m->ida = info.ida;
	m->kept = kept;
	m->chunk = ida_bitmap_bits();
	m->max_entries = max;
	s->nodes.n = s->runs.n = 0;
	lua_pushnil(L);
	lua_replace(L, 6);
	idr_walk(tree, mark_node, &k);
	end_run(&k);
	m->count = m->ida ? m->entries : (lua_Integer)idr_count(tree);
	m->runs_at = s->nodes.n;
	m->size = s->nodes.n + s->runs.n;
	if (s->nodes.nomem || s->runs.nomem)
		luaL_error(L, "not enough memory");
}

const struct idr *lidr_snapshot_tree(lua_State *L)
{
	const struct idr *tree;

	if (luaL_testudata(L, 1, IDR_MT)) {
		tree = &lidr_checkidr(L)->idr;
		lua_getiuservalue(L, 1, UV_VALUES);
	} else if (luaL_testudata(L, 1, IDA_MT)) {
		tree = ida_tree(&lidr_checkida(L)->ida);
		lua_pushnil(L);
	} else {
		luaL_typeerror(L, 1, "idr or ida");
		return NULL;
	}
	lua_replace(L, 5);
	return tree;
}

/* The values an idr's mark may keep: one an entry, if it keeps them. */
static lua_Integer values_room(lua_State *L, const struct idr *tree,
			       lua_Integer max)
{
	lua_Integer n = lua_isnil(L, 5) ? 0 : (lua_Integer)idr_count(tree);

	if (n > max)
		return 0;
	if (n > INT_MAX)
		luaL_error(L, "too many values to mark");
	return n;
}

/* The mark of @head, the scratch's bytes and the values at 7, an array
 * of @room (kept as it is if they fill it). */
static void push_mark(lua_State *L, const struct mark *head, size_t room)
{
	const struct scratch *s = lua_touserdata(L, 4);
	struct mark *m = lua_newuserdatauv(L, sizeof(*m) + head->size, 1);
	size_t i;

	memcpy(m, head, sizeof(*m));
	if (s->nodes.n)
		memcpy(m->data, s->nodes.p, s->nodes.n);
	if (s->runs.n)
		memcpy(m->data + m->runs_at, s->runs.p, s->runs.n);
	if (m->runs == room) {
		lua_pushvalue(L, 7);
	} else {
		lua_createtable(L, (int)m->runs, 0);
		for (i = 1; i <= m->runs; i++) {
			lua_rawgeti(L, 7, (lua_Integer)i);
			lua_rawseti(L, -2, (lua_Integer)i);
		}
	}
	lua_setiuservalue(L, -2, 1);
	luaL_setmetatable(L, MARK_MT);
}

/* S.mark(t, tree, max_entries) -> a mark of @t, whose number in diff.lua
 * is @tree. */
static int mark(lua_State *L)
{
	lua_Integer serial = luaL_checkinteger(L, 2);
	lua_Integer max = luaL_checkinteger(L, 3), room = -1, need;
	const struct idr *tree;
	struct mark head;

	luaL_argcheck(L, max >= 0, 3, "negative max_entries");
	lua_settop(L, 3);
	luaL_checkstack(L, 8, NULL);
	lidr_snapshot_scratch(L);
	lua_settop(L, 6);
	/* Making the array may run a finalizer that changes the tree (or
	 * destroys it): the tree is read again after each allocation. */
	while ((need = values_room(L, tree = lidr_snapshot_tree(L), max)) >
	       room) {
		lua_settop(L, 6);
		lua_createtable(L, (int)need, 0);
		room = need;
	}
	mark_walk(L, tree,
		  lua_isnil(L, 5) || idr_count(tree) <= (lua_Unsigned)max, max,
		  &head);
	if (head.ida && head.entries > max)
		mark_walk(L, tree, false, max, &head);
	head.tree = serial;
	push_mark(L, &head, (size_t)room);
	lidr_snapshot_clear(lua_touserdata(L, 4));
	return 1;
}

/* }==================== Marking ==================== */

/* {==================== The module's functions ==================== */

/* S.tree(mark) -> the number diff.lua gave its tree; nil for a value that
 * is no mark. */
static int mark_tree(lua_State *L)
{
	const struct mark *m = luaL_testudata(L, 1, MARK_MT);

	if (!m)
		return 0;
	lua_pushinteger(L, m->tree);
	return 1;
}

/* A mark's fields, read-only. */
static int mark_index(lua_State *L)
{
	const struct mark *m = luaL_checkudata(L, 1, MARK_MT);
	const char *k = lua_tostring(L, 2);
	const struct {
		const char *name;
		lua_Integer v;
	} fields[] = {
		{ "tree", m->tree },
		{ "count", m->count },
		{ "height", m->height },
		{ "nodes", m->nodes },
		{ "max_entries", m->max_entries },
		{ "bytes", (lua_Integer)lua_rawlen(L, 1) },
		{ "values", (lua_Integer)m->runs },
	};
	size_t i;

	if (!k)
		return 0;
	if (strcmp(k, "kind") == 0) {
		lua_pushstring(L, m->ida ? "ida" : "idr");
		return 1;
	}
	if (strcmp(k, "entries") == 0) {
		lua_pushboolean(L, m->kept);
		return 1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(k, fields[i].name) == 0) {
			lua_pushinteger(L, fields[i].v);
			return 1;
		}
	}
	return 0;
}

static int mark_tostring(lua_State *L)
{
	const struct mark *m = luaL_checkudata(L, 1, MARK_MT);

	lua_pushfstring(L, "%s mark (%I nodes, %I IDs, %I bytes)",
			m->ida ? "ida" : "idr", (LUAI_UACINT)m->nodes,
			(LUAI_UACINT)m->count, (LUAI_UACINT)lua_rawlen(L, 1));
	return 1;
}

void lidr_snapshot_open(lua_State *L)
{
	static const luaL_Reg mark_meta[] = {
		{ "__index", mark_index },
		{ "__tostring", mark_tostring },
		{ NULL, NULL },
	};
	static const luaL_Reg scratch_meta[] = {
		{ "__gc", scratch_gc },
		{ NULL, NULL },
	};
	static const luaL_Reg funcs[] = {
		{ "mark", mark },
		{ "compare", lidr_snapshot_compare },
		{ "tree", mark_tree },
		{ NULL, NULL },
	};

	luaL_newmetatable(L, MARK_MT);
	luaL_setfuncs(L, mark_meta, 0);
	luaL_newmetatable(L, SCRATCH_MT);
	luaL_setfuncs(L, scratch_meta, 0);
	lua_pop(L, 2);
	luaL_newlib(L, funcs);
	lua_setfield(L, -2, "snapshot");
}

/* }==================== The module's functions ==================== */
