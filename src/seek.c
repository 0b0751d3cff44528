/* SPDX-License-Identifier: MIT */
/*
 * seek.c - the searches: a lookup (find's, a tagged idr's, replace's),
 * and the lowest-first searches down the bitmaps: the lowest free index
 * at or above a start (for allocation: the writer's) and the first
 * present one (for idr_get_next() and iteration: a reader's).
 *
 * A reader's search may run beside the writer on an RCU idr: it loads
 * the top with top_link() and every word below with node.h's readers'
 * loads, and takes a slot whose bit it read but whose child is gone (a
 * removal under way) as absent.  The writer's takes the same loads.
 * Last, the trace of a lookup's path (a find's or a removal's visits).
 */
#include "node.h"
#include "tree.h"
#include "walk.h"

/* {==================== Lookups ==================== */

#define NO_STEP(node) (void)(node)

/* The link to the leaf that would hold @index (tagged if the leaf is
 * packed: link_to()), or to the keyed block, or NULL.  A reader's
 * descent. */
static inline __attribute__((always_inline)) void *
leaf_of(const struct idr *idr, uint64_t index)
{
	unsigned int shift;
	void *link = top_link(idr, &shift);

	if (!link || index >= capacity(shift))
		return NULL;
	DESCEND(NO_STEP, return NULL)
	return link;
}

/*
 * The slot of @index's entry in the leaf (or keyed block) @link leads
 * to, or NULL if there is none.  The layout is a branch: without one (both addresses, a
 * mask) random finds in a dense tree of 10^6 took 54 ns against 31, and
 * no less when half the leaves were packed (the rank is on every find's
 * path to its entry).
 */
static inline void **leaf_find(const void *link, uint64_t index)
{
	struct idr_node *l = linked(link);
	bool packed = link_packed(link);
	unsigned int off = digit(index, 0);
	uint64_t set;

	if (packed && link_keyed(link))
		return keyed_slot(keyed_of(link), index);
	/* One load: a packed leaf's rank must come from the bitmap read. */
	set = idr__acquire(packed ? &l->full : &l->present);
	if (!(set >> off & 1))
		return NULL;
	READER_PAUSE();
	if (packed)
		return pack_slots(l) + rank_in(set, off);
	return &l->slots[off];
}

/* The leaf slot of a present index, or NULL.  The path find takes. */
void **idr__lookup(const struct idr *idr, uint64_t index)
{
	idr__trace_path(idr, index);
	return idr__lookup_quiet(idr, index);
}

void **idr__lookup_quiet(const struct idr *idr, uint64_t index)
{
	void *link = leaf_of(idr, index);

	return link ? leaf_find(link, index) : NULL;
}

/*
 * A whole leaf's slot is NULL when absent (and when reserved, which a
 * find reports the same): its entry is all a find reads of it, one
 * cache line where the bitmap's would be a second (random finds at
 * 10^6 miss on both).
 */
void *idr__find(const struct idr *idr, uint64_t index)
{
	void *link = leaf_of(idr, index);
	unsigned int off = digit(index, 0);
	void **slot;

	if (!link)
		return NULL;
	if (__builtin_expect(!link_packed(link), 1))
		return idr__deref(&((struct idr_node *)link)->slots[off]);
	slot = leaf_find(link, index);
	return slot ? idr__deref(slot) : NULL;
}

uint64_t *idr__gen(const struct idr *idr, uint64_t index, void ***slot)
{
	void *link = leaf_of(idr, index);

	if (slot)
		*slot = link ? leaf_find(link, index) : NULL;
	return link ? &linked(link)->aux->bits[digit(index, 0)] : NULL;
}

/* }==================== Lookups ==================== */

/* What a descent looks for in the leaves. */
enum seek {
	SEEK_FREE,    /* a free slot */
	SEEK_PRESENT, /* an entry */
};

/* The slots a search for @seek may enter in the node at @shift that
 * @link leads to. */
static inline uint64_t candidates(const struct idr *idr, const void *link,
				  unsigned int shift, enum seek seek,
				  unsigned int off)
{
	const struct idr_node *node = linked(link);
	bool free = seek == SEEK_FREE;
	uint64_t set;

	if (off >= IDR_SLOTS)
		return 0;
	if (free)
		set = ~node->full;
	else
		set = shift ? idr__acquire(&node->present) : present_rd(link);
	/* Worn out, a missing child holds no free ID. */
	if (free && shift && idr__worn_out(idr))
		set &= node->present;
	return set & from(off);
}

/*
 * The lowest index at or above *@at, in the range of keyed block @k
 * (which holds *@at), that @seek looks for, into *@at; false if none.
 */
static bool keyed_seek(const struct idr_keyed *k, uint64_t *at, enum seek seek)
{
	unsigned int key = key_of(*at), i = keyed_rank(k, key);

	if (seek == SEEK_PRESENT) {
		if (i == k->n)
			return false;
		key = k->key[i];
	} else {
		for (; i < k->n && k->key[i] == key; i++)
			key++;
		if (key == KEYED_SPAN)
			return false;
	}
	*at = (*at & ~(uint64_t)(KEYED_SPAN - 1)) | key;
	return true;
}

/*
 * The lowest index >= *@start under @node (the top, at @shift) whose leaf
 * slot is what @seek looks for, into *@start, with the nodes that lead
 * there in @path.  Going down, the first candidate slot at or after the
 * digit of *@start is entered; should that child have nothing at or after
 * *@start (only the child holding it can fail so), the search goes back
 * up and on to the next candidate.  Returns how many nodes of @path lead
 * to the index (0: there is none): the tree's height when it is in a leaf
 * that exists; a free index may also be under a missing child.  @link
 * leads to @path's last node on return, and to the top on the call.
 */
static unsigned int descend_first(const struct idr *idr, void **link,
				  unsigned int shift, uint64_t *start,
				  struct idr_node **path, enum seek seek)
{
	unsigned int depth = 0, off = digit(*start, shift), i;
	uint64_t at = *start, set;
	void *child;

	for (;;) {
		path[depth] = linked(*link);
		set = candidates(idr, *link, shift, seek, off);
		if (!set) {
			if (seek == SEEK_FREE && off < IDR_SLOTS)
				node_trace(idr, IDR_TRACE_NO_ROOM, at, shift,
					   path[depth]);
			/* Nothing here: on to the parent's next slot (an
			 * interior node: its link is its address, tagged
			 * when packed). */
			if (depth-- == 0)
				return 0;
			*link = link_to(path[depth]);
			shift += IDR_BITS;
			off = digit(at, shift) + 1;
			at = slot_start(at, shift, off & SLOT_MASK);
			continue;
		}
		i = lowest(set);
		if (i != digit(at, shift))
			at = slot_start(at, shift, i);
		node_trace(idr, IDR_TRACE_VISIT, at, shift, path[depth]);
		child = shift ? child_link_rd(path[depth], i) : NULL;
		READER_PAUSE();
		if (!child && shift && seek == SEEK_PRESENT) {
			/* An RCU reader beside a removal: the bit it read
			 * is gone from the slot.  On to the next. */
			off = i + 1;
			continue;
		}
		if (!child) {
			*start = at;
			return depth + 1;
		}
		if (link_keyed(child)) {
			/* What it holds, or on to the next slot.  A free
			 * index there is under no leaf: depth below height. */
			if (!keyed_seek(keyed_of(child), &at, seek)) {
				off = i + 1;
				continue;
			}
			if (idr__tracing(idr))
				idr__trace_at(idr, IDR_TRACE_VISIT, at,
					      IDR_BITS, digit(at, IDR_BITS),
					      keyed_full(keyed_of(child)));
			path[depth + 1] = (struct idr_node *)keyed_of(child);
			*link = child;
			*start = at;
			return depth + 2;
		}
		*link = child;
		shift -= IDR_BITS;
		depth++;
		off = digit(at, shift);
	}
}

/* idr__find_free(), also giving the path to the index (see above). */
int idr__find_free_path(const struct idr *idr, uint64_t start, uint64_t max,
			uint64_t *index, struct idr_node **path,
			unsigned int *depth)
{
	unsigned int shift = idr->idr_shift;
	void *link = writer_top(idr);

	*depth = 0;
	if (start > max)
		return -ENOSPC;
	*index = start;
	if (link && start < capacity(shift)) {
		*depth = descend_first(idr, &link, shift, index, path,
				       SEEK_FREE);
		if (!*depth)
			*index = capacity(shift);
	}
	if (!*depth && idr__worn_out(idr))
		return -ENOSPC;
	return *index <= max ? 0 : -ENOSPC;
}

/* What the leaf slot of @index holds (path[@depth - 1] is its leaf). */
static void *slot_entry(const struct idr *idr, struct idr_node **path,
			unsigned int depth, uint64_t index)
{
	void *link = path_link((struct idr *)idr, path, depth, index, 0);
	unsigned int off = digit(index, 0);

	return leaf_present(link) & bit(off) ? *leaf_slot(link, off) : NULL;
}

int idr__find_free(const struct idr *idr, uint64_t start, uint64_t max,
		   uint64_t *index, void **entry)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = 0, off;
	void *link;
	int err;

	*index = start;
	if (!idr__tracing(idr) && idr->idr_rt && start <= max &&
	    start < capacity(idr->idr_shift))
		depth = free_descent(idr->idr_rt, idr->idr_shift, index, path,
				     &link, &off);
	if (!depth) {
		err = idr__find_free_path(idr, start, max, index, path, &depth);
		if (err)
			return err;
	} else if (*index > max) {
		return -ENOSPC;
	}
	*entry = depth && depth == idr__height(idr)
			 ? slot_entry(idr, path, depth, *index)
			 : NULL;
	return 0;
}

bool idr__next_present(const struct idr *idr, uint64_t start, uint64_t *index,
		       void **entry)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth, shift;
	void *top = top_link(idr, &shift);
	uint64_t set;

	if (!top || start >= capacity(shift))
		return false;
	depth = descend_first(idr, &top, shift, &start, path, SEEK_PRESENT);
	if (!depth)
		return false;
	*index = start;
	if (link_keyed(top)) {
		*entry = idr__deref(keyed_slot(keyed_of(top), start));
		return true;
	}
	set = present_rd(top);
	READER_PAUSE();
	*entry = entry_rd(top, set, digit(start, 0));
	return true;
}

/* The entries and bitmap of the leaf (or keyed block's leaf-sized run)
 * that holds @start, which @link leads to (path[@depth - 1]). */
static void **leaf_entries(const void *link, struct idr_node **path,
			   unsigned int depth, uint64_t start, uint64_t *all,
			   bool *packed)
{
	struct idr_node *leaf = path[depth - 1];
	unsigned int first;

	*packed = link_packed(link);
	if (link_keyed(link)) {
		*all = keyed_run(keyed_of(link), digit(start, IDR_BITS),
				 &first);
		return keyed_entries(keyed_of(link)) + first;
	}
	*all = present_rd(link);
	return *packed ? pack_slots(leaf) : leaf->slots;
}

void *idr__iter_find(struct idr__iter *it, uint64_t start, uint64_t *index)
{
	const struct idr *idr = it->idr;
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth, off, shift;
	uint64_t set, all;
	void *entry, *top, **slots;
	bool packed;

	while ((top = top_link(idr, &shift)) && start < capacity(shift)) {
		depth = descend_first(idr, &top, shift, &start, path,
				      SEEK_PRESENT);
		if (!depth)
			break;
		slots = leaf_entries(top, path, depth, start, &all, &packed);
		READER_PAUSE();
		set = all & from(digit(start, 0));
		/* NULL entries are reserved IDs: iteration steps over them. */
		for (; set; set &= set - 1) {
			off = lowest(set);
			entry = idr__deref(
				slots + (packed ? rank_in(all, off) : off));
			if (!entry)
				continue;
			it->packed = packed;
			it->slots = slots;
			it->rank = rank_in(all, off) + 1;
			it->rest = set & (set - 1);
			it->first = (unsigned long)(start &
						    ~(uint64_t)SLOT_MASK);
			/* An RCU idr's loop takes no fast path (see
			 * idr_iter_step()): idr_mods is the writer's. */
			if (!idr__rcu(idr))
				it->mods = idr->idr_mods;
			*index = it->first + off;
			return entry;
		}
		start = (start | SLOT_MASK) + 1;
	}
	return NULL;
}

/* The visits of a lookup of @index, when tracing: a removal's path. */
static void trace_path(const struct idr *idr, uint64_t index)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(idr, index, views), i;

	for (i = 0; i < n; i++)
		idr__trace_at(idr, IDR_TRACE_VISIT, index, views[i].shift,
			      digit(index, views[i].shift), views[i].full);
}

void idr__trace_path(const struct idr *idr, uint64_t index)
{
	if (idr__tracing(idr))
		trace_path(idr, index);
}
