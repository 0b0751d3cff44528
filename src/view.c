/* SPDX-License-Identifier: MIT */
/*
 * view.c - looking inside: the cursor's next child and an idr's facts,
 * the path of one ID, what a tree costs, and the names of trace events.
 * Built on tree.c's walk; reads only.
 */
#include <string.h>

#include "gen.h"
#include "nodes.h"
#include "tag.h"
#include "tree.h"
#include "walk.h"

/* {==================== The cursor and the facts ==================== */

bool idr_view_next_child(const struct idr *idr, const struct idr_view *parent,
			 unsigned int *slot, struct idr_view *child)
{
	unsigned int i;

	for (i = *slot; parent->level && i < parent->slots; i++) {
		if (idr_view_child(idr, parent, i, child)) {
			*slot = i;
			return true;
		}
	}
	return false;
}

void idr_info(const struct idr *idr, struct idr_info *info)
{
	memset(info, 0, sizeof(*info));
	info->base = idr->idr_base;
	info->id_bits = idr->idr_id_bits;
	info->retire = idr__tagged(idr) && idr__retiring(idr);
	info->ida = idr->idr_flags & IDR__IDA;
	info->height = idr__height(idr);
	info->rcu = idr->idr_rcu != NULL;
	info->bits = IDR_BITS;
	info->slots = IDR_SLOTS;
	info->retired = idr->idr_retired;
	info->nodes = idr->idr_nodes;
}

/* A tagged idr's retired slots stay in the tree, with no entry: skipped. */
bool idr_next_in_use(const struct idr *idr, unsigned long *id, void **entry)
{
	uint64_t index = *id > idr->idr_base ? *id - idr->idr_base : 0;
	void *found;

	if (idr->idr_flags & IDR__IDA)
		return false;
	while (idr__next_present(idr, index, &index, &found)) {
		if (!idr__tagged(idr) || !idr__tag_retired(idr, index)) {
			*id = (unsigned long)(index + idr->idr_base);
			*entry = found;
			return true;
		}
		index++;
	}
	return false;
}

/* }==================== The cursor and the facts ==================== */

/* {==================== The path of an ID ==================== */

static unsigned int levels_for(uint64_t index)
{
	unsigned int n = 1;

	while (n * IDR_BITS < 64 && index >> (n * IDR_BITS))
		n++;
	return n;
}

_Static_assert(IDR__LEVELS_FOR(sizeof(unsigned long) * 8) <= IDR_LEVELS_MAX,
	       "an unsigned long index's digits fit idr_path's arrays");

static void path_digits(struct idr_path *path)
{
	unsigned int n = levels_for(path->index), i;

	if (path->height > n)
		n = path->height;
	path->digits = n;
	for (i = 0; i < n; i++)
		path->digit[i] = (unsigned int)(path->index >>
						((n - 1 - i) * IDR_BITS)) &
				 (IDR_SLOTS - 1);
}

/* Split @id into the tree index (and an IDA's bit); false below base. */
static bool path_index(const struct idr *idr, struct idr_path *path)
{
	unsigned long rest = path->id;

	if (path->id_bits) {
		path->tag = rest >> path->id_bits;
		rest &= (unsigned long)idr__id_max(idr);
	}
	if (path->ida) {
		path->index = rest / IDR__CHUNK;
		path->bit = rest % IDR__CHUNK;
		return true;
	}
	if (rest < idr->idr_base)
		return false;
	path->index = rest - idr->idr_base;
	return true;
}

/* Why the walk ended at the leaf slot of @leaf. */
static enum idr_path_end leaf_end(const struct idr *idr,
				  const struct idr_view *leaf,
				  struct idr_path *path)
{
	unsigned int slot = path->index & (IDR_SLOTS - 1);

	if (!(leaf->present >> slot & 1))
		return IDR_PATH_FREE_SLOT;
	if (path->ida)
		return idr_view_bit(leaf, slot, path->bit) ? IDR_PATH_FOUND
							   : IDR_PATH_FREE_SLOT;
	if (path->id_bits && idr__tag_retired(idr, path->index))
		return IDR_PATH_RETIRED;
	path->entry = idr_view_entry(leaf, slot);
	return IDR_PATH_FOUND;
}

static void path_steps(const struct idr *idr, struct idr_path *path)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int i;

	path->steps = idr__path_views(idr, path->index, views);
	for (i = 0; i < path->steps; i++) {
		struct idr_path_step *step = &path->step[i];
		unsigned int slot = path->digit[path->digits - path->height + i];

		step->level = views[i].level;
		step->shift = views[i].shift;
		step->first = views[i].first;
		step->last = views[i].last;
		step->slot = slot;
		step->present = views[i].present >> slot & 1;
		step->full = views[i].full >> slot & 1;
	}
	if (!idr->idr_rt)
		path->end = IDR_PATH_EMPTY;
	else if (path->steps == 0)
		path->end = IDR_PATH_ABOVE_TOP;
	else if (path->steps < path->height)
		path->end = IDR_PATH_NO_CHILD;
	else
		path->end = leaf_end(idr, &views[path->steps - 1], path);
	if (path->id_bits && path->steps && path->steps == path->height)
		path->gen = idr_view_gen(idr, &views[path->steps - 1],
					 path->index & (IDR_SLOTS - 1));
	else if (path->id_bits)
		path->gen = idr->idr_gen_seed;
}

int idr_path(const struct idr *idr, unsigned long id, struct idr_path *path)
{
	memset(path, 0, sizeof(*path));
	path->id = id;
	path->height = idr__height(idr);
	path->id_bits = idr->idr_id_bits;
	path->ida = idr->idr_flags & IDR__IDA;
	if (!path_index(idr, path)) {
		path->end = IDR_PATH_BELOW_BASE;
		return 0;
	}
	path_digits(path);
	path_steps(idr, path);
	return 0;
}

/* }==================== The path of an ID ==================== */

/* {==================== Statistics ==================== */

struct census {
	const struct idr *idr;
	struct idr_stats *stats;
};

bool idr_view_retired(const struct idr *idr, const struct idr_view *leaf,
		      unsigned int slot)
{
	return idr->idr_id_bits && !leaf->level && slot < leaf->slots &&
	       !idr_view_entry(leaf, slot) &&
	       idr__tag_retired(idr, leaf->first - idr->idr_base + slot);
}

/* The lowest and highest set bits of an IDA leaf slot's bitmap. */
static void bitmap_ends(const struct idr_view *leaf, unsigned int slot,
			struct idr_stats *stats)
{
	unsigned long first = leaf->first + (unsigned long)slot * IDR__CHUNK;
	unsigned int n;

	for (n = 0; stats->lowest < 0 && n < IDR__CHUNK; n++)
		if (idr_view_bit(leaf, slot, n))
			stats->lowest = (long)(first + n);
	for (n = IDR__CHUNK; n-- > 0;)
		if (idr_view_bit(leaf, slot, n)) {
			stats->highest = (long)(first + n);
			break;
		}
}

static void count_leaf(const struct census *c, const struct idr_view *leaf)
{
	bool ida = c->idr->idr_flags & IDR__IDA;
	unsigned int slot;

	c->stats->aux_nodes += ida ? (unsigned long)__builtin_popcountll(
					     leaf->present)
				   : c->idr->idr_id_bits != 0;
	for (slot = 0; slot < IDR_SLOTS; slot++) {
		if (!(leaf->present >> slot & 1))
			continue;
		if (ida) {
			c->stats->ids += idr_view_bits(leaf, slot);
			bitmap_ends(leaf, slot, c->stats);
			continue;
		}
		if (idr_view_retired(c->idr, leaf, slot))
			continue;
		if (c->stats->lowest < 0)
			c->stats->lowest = (long)(leaf->first + slot);
		c->stats->highest = (long)(leaf->first + slot);
	}
}

static int count_node(const struct idr_view *view, void *data)
{
	const struct census *c = data;
	/* A keyed block's run of keys is a view, not a block of its own. */
	bool block = !view->keyed || view->level;

	c->stats->nodes += block;
	c->stats->level_nodes[view->level] += block;
	c->stats->packed += block && view->packed != 0;
	c->stats->bytes += idr__view_size(view);
	if (view->level == 0)
		count_leaf(c, view);
	return 0;
}

int idr_stats(const struct idr *idr, struct idr_stats *stats)
{
	struct census c = { idr, stats };

	memset(stats, 0, sizeof(*stats));
	stats->lowest = stats->highest = -1;
	stats->height = idr__height(idr);
	idr_walk(idr, count_node, &c);
	if (!(idr->idr_flags & IDR__IDA))
		stats->ids = idr->idr_count;
	stats->retired = idr->idr_retired;
	stats->cached = idr_cache_count(idr);
	stats->preloaded = idr__preloaded();
	stats->node_bytes = IDR__NODE_SIZE;
	stats->bytes += stats->node_bytes * (stats->aux_nodes + stats->cached);
	/* An RCU idr's callbacks change these from their own thread. */
	stats->rcu_pending = __atomic_load_n(&idr->idr_rcu_pending,
					     __ATOMIC_ACQUIRE);
	stats->rcu_pending_bytes = __atomic_load_n(&idr->idr_rcu_pending_bytes,
						   __ATOMIC_RELAXED);
	if (stats->ids)
		stats->bytes_per_id = (double)stats->bytes / (double)stats->ids;
	return 0;
}

/* }==================== Statistics ==================== */

const char *idr_trace_name(enum idr_trace_event event)
{
	static const char *const names[] = {
		[IDR_TRACE_VISIT] = "visit",
		[IDR_TRACE_NODE_NEW] = "node-new",
		[IDR_TRACE_NODE_FREE] = "node-free",
		[IDR_TRACE_GROW] = "grow",
		[IDR_TRACE_SHRINK] = "shrink",
		[IDR_TRACE_SLOT_SET] = "slot-set",
		[IDR_TRACE_SLOT_CLEAR] = "slot-clear",
		[IDR_TRACE_FULL] = "full",
		[IDR_TRACE_OPEN] = "open",
		[IDR_TRACE_CACHE_TAKE] = "cache-take",
		[IDR_TRACE_PRELOAD_TAKE] = "preload-take",
		[IDR_TRACE_MALLOC] = "malloc",
		[IDR_TRACE_ATTACH] = "attach",
		[IDR_TRACE_DETACH] = "detach",
		[IDR_TRACE_CACHE_PUT] = "cache-put",
		[IDR_TRACE_FREE] = "free",
		[IDR_TRACE_SUBTREE_FULL] = "subtree-full",
		[IDR_TRACE_SUBTREE_OPEN] = "subtree-open",
		[IDR_TRACE_BITMAP_FULL] = "bitmap-full",
		[IDR_TRACE_BITMAP_OPEN] = "bitmap-open",
		[IDR_TRACE_BIT_SET] = "bit-set",
		[IDR_TRACE_BIT_CLEAR] = "bit-clear",
		[IDR_TRACE_PACK] = "pack",
		[IDR_TRACE_NO_ROOM] = "no-room",
		[IDR_TRACE_OP] = "op",
		[IDR_TRACE_DONE] = "done",
	};

	if ((unsigned int)event >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[event];
}
