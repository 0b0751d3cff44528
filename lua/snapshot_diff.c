/* SPDX-License-Identifier: MIT */
/*
 * snapshot_diff.c - t:diff(): the tree now and a mark (snapshot.h), walked
 * in step, in ID order; a table made only for each change kept.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

#define ctz lidr_snapshot_ctz

/* {==================== Reading a mark ==================== */

/* Reads a mark's bytes; past the end it reads zeros. */
struct in {
	const unsigned char *p, *end;
};

static unsigned int get(struct in *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

static uint64_t get_varint(struct in *in)
{
	uint64_t v = 0;
	unsigned int shift = 0, b;

	do {
		b = get(in);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

static uint64_t get_bitmap(struct in *in)
{
	unsigned int n = get(in), i;
	uint64_t map = 0;

	if (n <= FEW_BITS) {
		for (i = 0; i < n; i++)
			map |= (uint64_t)1 << (get(in) & 63);
		return map;
	}
	for (i = 0; i < 8; i++)
		map |= (uint64_t)get(in) << (8 * i);
	return map;
}

/* An IDA leaf slot's bitmap in a mark. */
struct map {
	unsigned int how; /* MAP_ALL or MAP_BYTES */
	const unsigned char *bytes;
};

static struct map get_map(struct in *in, unsigned int chunk)
{
	struct map map = { get(in), in->p };

	if (map.how != MAP_BYTES)
		return map;
	if ((size_t)(in->end - in->p) < chunk / 8)
		map.how = MAP_ALL; /* cut short: never read past the end */
	in->p = map.how == MAP_ALL ? in->end : in->p + chunk / 8;
	return map;
}

static bool map_bit(const struct map *map, unsigned int n)
{
	return map->how == MAP_ALL || (map->bytes[n / 8] >> (n % 8) & 1);
}

/* A node of a mark. */
struct snode {
	unsigned int level;
	bool keyed; /* a keyed block, or a run of its keys */
	uint64_t first, last, present, full;
	uint64_t entries;	   /* an idr leaf's, entries kept */
	const unsigned char *maps; /* an IDA leaf's bitmaps, entries kept */
};

struct frame {
	uint64_t first, left; /* children not read yet */
	unsigned int level;
};

/* A mark's nodes in walk order, and its values in entry order. */
struct reader {
	const struct mark *m;
	struct in nodes, runs;
	struct frame stack[IDR_LEVELS_MAX];
	unsigned int depth;
	bool started, has;
	struct snode cur; /* when @has */
	size_t run;	  /* the value run under way, from 1 */
	uint64_t run_left;
};

static void skip_maps(struct reader *rd, uint64_t present)
{
	for (; present; present &= present - 1)
		get_map(&rd->nodes, rd->m->chunk);
}

static void read_node(struct reader *rd, unsigned int level, uint64_t first)
{
	struct snode *s = &rd->cur;
	unsigned int flags = get(&rd->nodes);

	s->level = level;
	s->keyed = flags & KEYED;
	s->first = first;
	s->last = first + rd->m->width[level];
	s->present = get_bitmap(&rd->nodes);
	s->full = flags & FULL_SAME   ? s->present
		  : flags & FULL_NONE ? 0
				      : get_bitmap(&rd->nodes);
	s->entries = 0;
	s->maps = rd->nodes.p;
	if (level == 0 && rd->m->kept && rd->m->ida)
		skip_maps(rd, s->present);
	else if (level == 0 && rd->m->kept)
		s->entries = flags & ENTRIES_SAME ? s->present
						  : get_bitmap(&rd->nodes);
	if (level > 0 && rd->depth < IDR_LEVELS_MAX)
		rd->stack[rd->depth++] = (struct frame){ first, s->present,
							 level };
}

static void next_node(struct reader *rd)
{
	struct frame *f;
	unsigned int slot, level;

	if (!rd->started) {
		rd->started = true;
		rd->has = rd->m->height > 0;
		if (rd->has)
			read_node(rd, rd->m->height - 1, rd->m->first);
		return;
	}
	while (rd->depth && !rd->stack[rd->depth - 1].left)
		rd->depth--;
	rd->has = rd->depth > 0;
	if (!rd->has)
		return;
	f = &rd->stack[rd->depth - 1];
	slot = ctz(f->left);
	f->left &= f->left - 1;
	level = f->level - 1;
	read_node(rd, level, f->first + slot * (rd->m->width[level] + 1));
}

/* The index in the mark's values of the next entry's value. */
static size_t next_value(struct reader *rd)
{
	if (!rd->run_left) {
		rd->run_left = get_varint(&rd->runs);
		rd->run++;
	}
	if (rd->run_left)
		rd->run_left--;
	return rd->run;
}

static void reader_init(struct reader *rd, const struct mark *m)
{
	memset(rd, 0, sizeof(*rd));
	rd->m = m;
	rd->nodes = (struct in){ m->data, m->data + m->runs_at };
	rd->runs = (struct in){ m->data + m->runs_at, m->data + m->size };
	next_node(rd);
}

/* }==================== Reading a mark ==================== */

/* {==================== Comparing ==================== */

/* Stack of S.compare: 1 the tree, 2 the mark, 4 scratch, 5 the idr's
 * values, 6 the mark's. */
#define VALUES 5
#define MARK_VALUES 6

enum change_kind {
	CH_HEIGHT,
	CH_NEW,
	CH_FREE,
	CH_BITS,
	CH_ADDED,
	CH_REMOVED,
	CH_REPLACED,
	CH_SKIPPED,
	CH_KINDS
};

static const char *const change_names[CH_KINDS] = {
	"height", "node-new", "node-free", "bits",
	"added",  "removed",  "replaced",  "entries-skipped",
};

struct change {
	unsigned char kind;
	unsigned char level, slots;
	bool keyed;	      /* a node change's: a keyed block */
	uint64_t first, last; /* a node's IDs; an ID, or a run's first, last */
	uint64_t full[2], present[2]; /* a node's, then and now */
	uint64_t n;		      /* IDs a folded run stands for, else 0 */
	size_t value; /* removed, replaced: the mark's value of the ID */
};

/* At most this many IDs fold into a run's one line. */
#define FOLD_MAX 8

/* Consecutive IDs added, or removed, under way. */
struct run {
	struct change item[FOLD_MAX];
	uint64_t n, last;
};

struct comparing {
	lua_State *L;
	const struct idr *tree;
	const struct mark *m;
	struct reader rd;
	struct scratch *f;
	size_t limit;	   /* changes kept of each list; 0: all */
	unsigned int fold; /* runs of this many IDs fold; 0: none */
	struct run run;
	uint64_t counts[CH_KINDS];
	lua_Integer ids; /* an IDA's IDs now */
	bool nomem;
};

static void store(struct comparing *c, struct changes *to,
		  const struct change *ch)
{
	struct change *v;

	if (c->limit && to->n >= c->limit)
		return;
	if (to->n == to->cap) {
		size_t cap = to->cap ? 2 * to->cap : 16;

		v = realloc(to->v, cap * sizeof(*v));
		if (!v) {
			c->nomem = true;
			return;
		}
		to->v = v;
		to->cap = cap;
	}
	to->v[to->n++] = *ch;
}

static void flush(struct comparing *c)
{
	struct run *r = &c->run;
	struct change ch;
	uint64_t i;

	if (!r->n)
		return;
	if (r->n >= c->fold) {
		ch = r->item[0];
		ch.last = r->last;
		ch.n = r->n;
		store(c, &c->f->id_changes, &ch);
	} else {
		for (i = 0; i < r->n; i++)
			store(c, &c->f->id_changes, &r->item[i]);
	}
	r->n = 0;
}

/* An ID's change, into the run under way if it extends it. */
static void id_change(struct comparing *c, unsigned int kind, uint64_t id,
		      size_t value)
{
	struct change ch = { .kind = (unsigned char)kind,
			     .first = id,
			     .last = id,
			     .value = value };
	struct run *r = &c->run;

	c->counts[kind]++;
	if (r->n && kind == r->item[0].kind && id == r->last + 1) {
		if (r->n < FOLD_MAX)
			r->item[r->n] = ch;
		r->n++;
		r->last = id;
		return;
	}
	flush(c);
	if (c->fold && (kind == CH_ADDED || kind == CH_REMOVED)) {
		r->item[0] = ch;
		r->n = 1;
		r->last = id;
	} else {
		store(c, &c->f->id_changes, &ch);
	}
}

static void node_change(struct comparing *c, unsigned int kind,
			const struct snode *s, const struct idr_view *v)
{
	struct change ch = { .kind = (unsigned char)kind };

	ch.level = (unsigned char)(s ? s->level : v->level);
	ch.keyed = s ? s->keyed : v->keyed;
	ch.slots = (unsigned char)(v ? v->slots : c->m->slots);
	ch.first = s ? s->first : v->first;
	ch.last = s ? s->last : v->last;
	if (s) {
		ch.full[0] = s->full;
		ch.present[0] = s->present;
	}
	if (v) {
		ch.full[1] = v->full;
		ch.present[1] = v->present;
	}
	c->counts[kind]++;
	store(c, &c->f->node_changes, &ch);
}

static bool same_value(struct comparing *c, uint64_t id, size_t value)
{
	bool same;

	lua_rawgeti(c->L, VALUES, (lua_Integer)id);
	lua_rawgeti(c->L, MARK_VALUES, (lua_Integer)value);
	same = lua_rawequal(c->L, -1, -2);
	lua_pop(c->L, 2);
	return same;
}

/* An idr leaf's entries, then (@s, NULL if new) and now (@v, NULL if
 * freed), in ID order. */
static void leaf_entries(struct comparing *c, const struct snode *s,
			 const struct idr_view *v)
{
	uint64_t then = s ? s->entries : 0,
		 now = v ? lidr_snapshot_entries(c->tree, v) : 0, set;
	uint64_t first = s ? s->first : v->first;

	for (set = then | now; set; set &= set - 1) {
		unsigned int slot = ctz(set);
		uint64_t id = first + slot;
		size_t value;

		if (!(then >> slot & 1)) {
			id_change(c, CH_ADDED, id, 0);
			continue;
		}
		value = next_value(&c->rd);
		if (!(now >> slot & 1))
			id_change(c, CH_REMOVED, id, value);
		else if (!same_value(c, id, value))
			id_change(c, CH_REPLACED, id, value);
	}
}

/* One IDA bitmap's IDs, then (@then NULL: none) and now. */
static void map_ids(struct comparing *c, const struct map *then,
		    const struct idr_view *v, unsigned int slot, uint64_t first)
{
	unsigned int chunk = c->m->chunk, n;
	bool now_all = v && idr_view_bits(v, slot) == chunk;

	if (then && then->how == MAP_ALL && now_all)
		return;
	for (n = 0; n < chunk; n++) {
		bool was = then && map_bit(then, n);
		bool is = v && idr_view_bit(v, slot, n);

		if (was != is)
			id_change(c, is ? CH_ADDED : CH_REMOVED, first + n, 0);
	}
}

/* An IDA leaf's IDs, then and now, in ID order. */
static void leaf_ids(struct comparing *c, const struct snode *s,
		     const struct idr_view *v)
{
	uint64_t then = s ? s->present : 0, now = v ? v->present : 0, set;
	uint64_t first = s ? s->first : v->first;
	struct in maps = { s ? s->maps : NULL, c->rd.nodes.end };

	for (set = then | now; set; set &= set - 1) {
		unsigned int slot = ctz(set);
		struct map map;

		if (then >> slot & 1)
			map = get_map(&maps, c->m->chunk);
		map_ids(c, then >> slot & 1 ? &map : NULL,
			now >> slot & 1 ? v : NULL, slot,
			first + (uint64_t)slot * c->m->chunk);
	}
}

/* A leaf's entries then (@s) and now (@v); either may be NULL. */
static void leaf_changes(struct comparing *c, const struct snode *s,
			 const struct idr_view *v)
{
	if (!c->m->kept || (s ? s->level : v->level) != 0)
		return;
	if (c->m->ida)
		leaf_ids(c, s, v);
	else
		leaf_entries(c, s, v);
}

/* A keyed block's run of keys is no node: its keys change the block. */
static bool is_run(const struct snode *s, const struct idr_view *v)
{
	return s ? s->keyed && s->level == 0 : v->keyed && v->level == 0;
}

static void gone(struct comparing *c)
{
	if (!is_run(&c->rd.cur, NULL))
		node_change(c, CH_FREE, &c->rd.cur, NULL);
	leaf_changes(c, &c->rd.cur, NULL);
}

static void made(struct comparing *c, const struct idr_view *v)
{
	if (!is_run(NULL, v))
		node_change(c, CH_NEW, NULL, v);
}

/*
 * The node then (@s) and now (@v) at one place: changed bits; or, a keyed
 * block where a node was or the other way round, one freed and one made
 * (a run of keys is none, so a leaf in its place is made, and the other
 * way round freed).
 */
static void same_place(struct comparing *c, const struct snode *s,
		       const struct idr_view *v)
{
	if (s->keyed != (bool)v->keyed) {
		if (!is_run(s, NULL))
			node_change(c, CH_FREE, s, NULL);
		made(c, v);
	} else if (is_run(s, NULL)) {
		return;
	} else if (s->full != v->full || s->present != v->present) {
		node_change(c, CH_BITS, s, v);
	}
}

/* Walk order: by first ID, the higher level first. */
static bool before(const struct snode *s, const struct idr_view *v)
{
	return s->first != v->first ? s->first < v->first : s->level > v->level;
}

static int compare_node(const struct idr_view *v, void *data)
{
	struct comparing *c = data;
	struct reader *rd = &c->rd;
	uint64_t set;

	for (set = c->m->ida && !v->level ? v->present : 0; set; set &= set - 1)
		c->ids += idr_view_bits(v, ctz(set));
	for (; rd->has && before(&rd->cur, v); next_node(rd))
		gone(c);
	if (rd->has && rd->cur.first == v->first && rd->cur.level == v->level) {
		same_place(c, &rd->cur, v);
		leaf_changes(c, &rd->cur, v);
		next_node(rd);
	} else {
		made(c, v);
		leaf_changes(c, NULL, v);
	}
	return c->nomem;
}

/* The tree at 1 and the mark's nodes, in step; then the mark's nodes left. */
static void compare_walk(const struct idr *tree, struct comparing *c)
{
	idr_walk(tree, compare_node, c);
	for (; !c->nomem && c->rd.has; next_node(&c->rd))
		gone(c);
	flush(c);
}

/* }==================== Comparing ==================== */

/* {==================== The changes as tables ==================== */

/* The slots set in @map, as a list. */
static void set_slots(lua_State *L, const char *k, uint64_t map)
{
	lua_Integer i = 0;

	lua_createtable(L, __builtin_popcountll(map), 0);
	for (; map; map &= map - 1) {
		lua_pushinteger(L, ctz(map));
		lua_rawseti(L, -2, ++i);
	}
	lua_setfield(L, -2, k);
}

static void push_kind(lua_State *L, unsigned int kind, int fields)
{
	lua_createtable(L, 0, fields);
	lua_pushstring(L, change_names[kind]);
	lua_setfield(L, -2, "change");
}

static void push_node_change(lua_State *L, const struct change *ch)
{
	int now = ch->kind != CH_FREE;

	push_kind(L, ch->kind, 8);
	lidr_set_int(L, "level", ch->level);
	lidr_set_int(L, "first", (lua_Integer)ch->first);
	lidr_set_int(L, "last", (lua_Integer)ch->last);
	if (ch->keyed) {
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, "keyed");
	}
	if (ch->kind == CH_BITS) {
		set_slots(L, "full_set", ch->full[1] & ~ch->full[0]);
		set_slots(L, "full_cleared", ch->full[0] & ~ch->full[1]);
		set_slots(L, "present_set", ch->present[1] & ~ch->present[0]);
		set_slots(L, "present_cleared",
			  ch->present[0] & ~ch->present[1]);
		return;
	}
	lidr_set_int(L, "full", (lua_Integer)ch->full[now]);
	lidr_set_int(L, "present", (lua_Integer)ch->present[now]);
	lidr_set_int(L, "slots", ch->slots);
}

/* Field @k: the value of @id now (@now), or the mark's @value. */
static void set_value(lua_State *L, const struct comparing *c, const char *k,
		      bool now, uint64_t id, size_t value)
{
	if (c->m->ida)
		return;
	if (now)
		lua_rawgeti(L, VALUES, (lua_Integer)id);
	else
		lua_rawgeti(L, MARK_VALUES, (lua_Integer)value);
	lua_setfield(L, -2, k);
}

static void push_id_change(lua_State *L, const struct comparing *c,
			   const struct change *ch)
{
	push_kind(L, ch->kind, 4);
	lidr_set_int(L, "id", (lua_Integer)ch->first);
	if (ch->n) {
		lidr_set_int(L, "last", (lua_Integer)ch->last);
		lidr_set_int(L, "n", (lua_Integer)ch->n);
	} else if (ch->kind == CH_REPLACED) {
		set_value(L, c, "from", false, ch->first, ch->value);
		set_value(L, c, "to", true, ch->first, 0);
	} else {
		set_value(L, c, "value", ch->kind == CH_ADDED, ch->first,
			  ch->value);
	}
}

static void push_counts(lua_State *L, const struct comparing *c)
{
	int k;

	lua_createtable(L, 0, CH_KINDS);
	for (k = 0; k < CH_KINDS; k++)
		if (c->counts[k])
			lidr_set_int(L, change_names[k],
				     (lua_Integer)c->counts[k]);
}

/* The list: the height, the nodes, the IDs, entries skipped; at most
 * @c->limit of them. */
static void push_changes(lua_State *L, const struct comparing *c,
			 lua_Integer height, lua_Integer count)
{
	const struct scratch *f = c->f;
	size_t i, n = 0, max = c->limit ? c->limit : SIZE_MAX;

	size_t total = c->counts[CH_HEIGHT] + f->node_changes.n +
		       f->id_changes.n + c->counts[CH_SKIPPED];

	if (total > max)
		total = max;
	lua_createtable(L, total < INT_MAX ? (int)total : 0, 0);
	if (c->counts[CH_HEIGHT] && n < max) {
		push_kind(L, CH_HEIGHT, 2);
		lidr_set_int(L, "from", c->m->height);
		lidr_set_int(L, "to", height);
		lua_rawseti(L, -2, (lua_Integer)++n);
	}
	for (i = 0; i < f->node_changes.n && n < max; i++) {
		push_node_change(L, &f->node_changes.v[i]);
		lua_rawseti(L, -2, (lua_Integer)++n);
	}
	for (i = 0; i < f->id_changes.n && n < max; i++) {
		push_id_change(L, c, &f->id_changes.v[i]);
		lua_rawseti(L, -2, (lua_Integer)++n);
	}
	if (c->counts[CH_SKIPPED] && n < max) {
		push_kind(L, CH_SKIPPED, 3);
		lidr_set_int(L, "from", c->m->count);
		lidr_set_int(L, "to", count);
		lidr_set_int(L, "max_entries", c->m->max_entries);
		lua_rawseti(L, -2, (lua_Integer)++n);
	}
}

/* }==================== The changes as tables ==================== */

/* {==================== The function ==================== */

/* The height and IDs of the tree now, read before any allocation. */
static void tree_now(const struct idr *tree, const struct comparing *c,
		     lua_Integer *height, lua_Integer *count)
{
	struct idr_view top;

	*height = idr_view_top(tree, &top) ? top.level + 1 : 0;
	*count = c->m->ida ? c->ids : (lua_Integer)idr_count(tree);
}

/*
 * S.compare(t, mark, limit, fold) -> list, counts: the changes from
 * @mark to @t now, at most @limit of them (0: all), a run of @fold or
 * more consecutive IDs added, or removed, as one { id, last, n } (0: no
 * run); and how many changes of each kind there are.
 */
int lidr_snapshot_compare(lua_State *L)
{
	const struct mark *m = luaL_checkudata(L, 2, MARK_MT);
	lua_Integer limit = luaL_checkinteger(L, 3);
	lua_Integer fold = luaL_checkinteger(L, 4), height, count;
	struct comparing c = { .L = L, .m = m };
	struct idr_info info;
	const struct idr *tree;

	luaL_argcheck(L, limit >= 0, 3, "negative limit");
	luaL_argcheck(L, fold >= 0 && fold <= FOLD_MAX, 4, "fold out of range");
	lua_settop(L, 3);
	luaL_checkstack(L, 8, NULL);
	c.f = lidr_snapshot_scratch(L);
	lua_pushnil(L);
	lua_getiuservalue(L, 2, 1);
	c.tree = tree = lidr_snapshot_tree(L);
	idr_info(tree, &info);
	if (info.ida != m->ida)
		return luaL_error(L, "a mark of an %s compared with an %s",
				  m->ida ? "ida" : "idr",
				  m->ida ? "idr" : "ida");
	c.limit = (size_t)limit;
	c.fold = (unsigned int)fold;
	reader_init(&c.rd, m);
	compare_walk(tree, &c);
	if (c.nomem)
		return luaL_error(L, "not enough memory");
	tree_now(tree, &c, &height, &count);
	c.counts[CH_HEIGHT] = height != m->height;
	c.counts[CH_SKIPPED] = !m->kept && count != m->count;
	push_changes(L, &c, height, count);
	push_counts(L, &c);
	lidr_snapshot_clear(c.f);
	return 2;
}

/* }==================== The function ==================== */
