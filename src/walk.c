/* SPDX-License-Identifier: MIT */
/*
 * walk.c - the public walk: a node as struct idr_view shows it, the walk,
 * the cursor, and what a view's slots hold.  It reads node.h's layout,
 * as check.c does, and changes nothing; view.c builds on it.
 */
#include "node.h"
#include "trace.h"
#include "walk.h"

/* The room of the node at @shift @link leads to, if it is packed. */
static unsigned int packed_room(const void *link, unsigned int shift)
{
	if (!link_packed(link))
		return 0;
	return shift ? pack_cap(linked(link)) : word_cap(leaf_word(link));
}

/* The view's place: its level and the IDs it covers, @index's node's. */
static void view_at(const struct idr *idr, unsigned int shift, uint64_t index,
		    unsigned int depth, struct idr_view *view)
{
	uint64_t span = capacity(shift);

	view->depth = depth;
	view->level = shift / IDR_BITS;
	view->shift = shift;
	view->slots = IDR_SLOTS;
	view->keyed = 0;
	idr__range(idr, index / span * span, span, &view->first, &view->last);
}

/*
 * A keyed block shows as the level-1 node it stands for, packed with its
 * room, and each of its leaf-sized runs of keys as a packed leaf with no
 * room (node: its first entry); both have keyed set, and the block's
 * bytes are the level-1 view's alone (idr__view_size()).
 */
static void keyed_view(const struct idr_keyed *k, struct idr_view *view)
{
	view->full = keyed_full(k);
	view->present = keyed_runs(k);
	view->packed = k->cap;
	view->keyed = k->n;
	view->node = (const struct idr_node *)k;
}

static void run_view(const struct idr_keyed *k, unsigned int d,
		     struct idr_view *view)
{
	unsigned int first;

	view->present = view->full = keyed_run(k, d, &first);
	view->packed = count_of(view->present);
	view->keyed = k->n;
	view->node = (const struct idr_node *)(keyed_entries(k) + first);
}

static void view_of(const struct idr *idr, const void *link, unsigned int shift,
		    uint64_t index, unsigned int depth, struct idr_view *view)
{
	const struct idr_node *node = linked(link);

	view_at(idr, shift, index, depth, view);
	if (link_keyed(link)) {
		keyed_view(keyed_of(link), view);
		return;
	}
	view->full = node->full;
	view->present = present_in(link, shift);
	view->packed = packed_room(link, shift);
	view->node = node;
}

/* The tree index of the first ID @view covers. */
static uint64_t view_index(const struct idr *idr, const struct idr_view *view)
{
	return idr->idr_flags & IDR__IDA ? view->first / IDR__CHUNK
					 : view->first - idr->idr_base;
}

/* The view of @parent's child at @slot, which is present. */
static void child_view(const struct idr *idr, const struct idr_view *parent,
		       unsigned int slot, struct idr_view *child)
{
	uint64_t first = view_index(idr, parent) +
			 ((uint64_t)slot << parent->shift);

	if (parent->keyed) {
		view_at(idr, 0, first, parent->depth + 1, child);
		run_view((const struct idr_keyed *)parent->node, slot, child);
		return;
	}
	view_of(idr, child_link(parent->node, slot), parent->shift - IDR_BITS,
		first, parent->depth + 1, child);
}

static int walk_node(const struct idr *idr, const struct idr_view *view,
		     int (*fn)(const struct idr_view *, void *), void *data)
{
	struct idr_view child;
	uint64_t set;
	int ret = fn(view, data);

	if (ret || view->level == 0)
		return ret;
	for (set = view->present; set; set &= set - 1) {
		child_view(idr, view, lowest(set), &child);
		ret = walk_node(idr, &child, fn, data);
		if (ret)
			return ret;
	}
	return 0;
}

int idr_walk(const struct idr *idr,
	     int (*fn)(const struct idr_view *view, void *data), void *data)
{
	struct idr_view top;

	if (!idr_view_top(idr, &top))
		return 0;
	return walk_node(idr, &top, fn, data);
}

bool idr_view_top(const struct idr *idr, struct idr_view *view)
{
	if (!idr->idr_rt)
		return false;
	view_of(idr, writer_top(idr), idr->idr_shift, 0, 0, view);
	return true;
}

bool idr_view_child(const struct idr *idr, const struct idr_view *parent,
		    unsigned int slot, struct idr_view *child)
{
	if (!parent->level || slot >= IDR_SLOTS ||
	    !(parent->present & bit(slot)))
		return false;
	child_view(idr, parent, slot, child);
	return true;
}

unsigned int idr__path_views(const struct idr *idr, uint64_t index,
			     struct idr_view *views)
{
	const void *link = writer_top(idr);
	unsigned int n = 0, shift = idr->idr_shift;

	if (!link || index >= capacity(shift))
		return 0;
	for (;; shift -= IDR_BITS) {
		view_of(idr, link, shift, index, n, &views[n]);
		n++;
		if (shift == 0)
			return n;
		if (link_keyed(link))
			break;
		link = child_link(linked(link), digit(index, shift));
		if (!link)
			return n;
	}
	/* A keyed block: on to its run that holds @index, if any. */
	if (!(views[n - 1].present & bit(digit(index, IDR_BITS))))
		return n;
	view_at(idr, 0, index, n, &views[n]);
	run_view(keyed_of(link), digit(index, IDR_BITS), &views[n]);
	return n + 1;
}

void *idr_view_entry(const struct idr_view *view, unsigned int slot)
{
	if (view->level || slot >= IDR_SLOTS || !(view->present & bit(slot)))
		return NULL;
	if (view->keyed)
		return ((void *const *)view->node)[rank_in(view->present, slot)];
	if (view->packed)
		return pack_slots(view->node)[rank_in(view->present, slot)];
	return view->node->slots[slot];
}

uint64_t idr_view_gen(const struct idr *idr, const struct idr_view *view,
		      unsigned int slot)
{
	if (!idr__tagged(idr) || view->level || slot >= IDR_SLOTS)
		return 0;
	return view->node->aux->bits[slot];
}

/*
 * The bitmap at @slot of an IDA leaf, or NULL.  Any other leaf's slot
 * holds the caller's pointer (or, packed, is not where slots[] says):
 * never read as a bitmap.  The view tells an IDA leaf by its range, the
 * IDs of IDR_SLOTS bitmaps where an idr's leaf covers IDR_SLOTS IDs.
 */
static const struct idr_node *view_bitmap(const struct idr_view *view,
					  unsigned int slot)
{
	if (view->level || view->last - view->first == SLOTS - 1 ||
	    slot >= IDR_SLOTS || !(view->present & bit(slot)))
		return NULL;
	return view->node->slots[slot];
}

unsigned int idr_view_bits(const struct idr_view *view, unsigned int slot)
{
	const struct idr_node *map = view_bitmap(view, slot);
	unsigned int w, n = 0;

	for (w = 0; map && w < IDR_SLOTS; w++)
		n += (unsigned int)__builtin_popcountll(map->bits[w]);
	return n;
}

bool idr_view_bit(const struct idr_view *view, unsigned int slot,
		  unsigned int n)
{
	const struct idr_node *map = view_bitmap(view, slot);

	return map && n < IDR__CHUNK && (map->bits[n / 64] >> (n % 64) & 1);
}

size_t idr__view_size(const struct idr_view *view)
{
	if (view->keyed)
		return view->level ? keyed_size(view->packed) : 0;
	return view->packed ? pack_size(view->packed, view->level)
			    : sizeof(struct idr_node);
}
