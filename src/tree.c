/* SPDX-License-Identifier: MIT */
/*
 * tree.c - nodes, bitmaps, growing and shrinking, lowest-free search.
 *
 * Conventions in this file:
 *   @index  an ID minus the idr's base (or an IDA's bitmap number); at
 *           most IDR_INDEX_MAX.
 *   @shift  the index bits below a node's digit: 0 for a leaf, and
 *           IDR_BITS more for each level up.  A node with shift s covers
 *           IDR_SLOTS << s consecutive indices.  Nodes do not store it:
 *           the idr keeps the top's, and each walk counts down from it.
 *   @off    a slot number in a node, 0 .. IDR_SLOTS - 1.
 *   full    bit @off set: leaf, the slot is taken (an IDA's: its bitmap
 *           is full); interior, the child has no free index left.
 *   present bit @off set: the slot holds an entry (leaf) or a child.
 *
 * Packed nodes (blocks just big enough for what a node holds) are
 * pack.c's; this file links them into the tree.
 *
 * Every operation that adds nodes is told beforehand how many it needs
 * (idr__nodes_needed) and is handed exactly that many (a lone insertion
 * mallocs its packed blocks first, all or none), so the tree is never
 * left half changed by a failed allocation.
 */
#include <string.h>

#include "alloc.h"
#include "node.h"
#include "nodes.h"
#include "pack.h"
#include "tree.h"
#include "walk.h"

/* {==================== Tracing ==================== */

/* Whether to report events: see idr__tracing() in tree.h. */
static inline bool tracing(const struct idr *idr)
{
	return idr__tracing(idr);
}

/* Report @event at the node at @shift that holds @index. */
static inline void trace(const struct idr *idr, enum idr_trace_event event,
			 uint64_t index, unsigned int shift,
			 const struct idr_node *node)
{
	if (tracing(idr))
		idr__trace_at(idr, event, index, shift, digit(index, shift),
			      node ? node->full : 0);
}

/* Event @leaf_event at a leaf, or @subtree_event higher up. */
static inline enum idr_trace_event by_level(unsigned int shift,
					    enum idr_trace_event leaf_event,
					    enum idr_trace_event subtree_event)
{
	return shift ? subtree_event : leaf_event;
}

/* Why a leaf slot's full bit changed: the slot, or an IDA's bitmap. */
static enum idr_trace_event leaf_bit_event(const struct idr *idr, bool set)
{
	if (idr->idr_flags & IDR__IDA)
		return set ? IDR_TRACE_BITMAP_FULL : IDR_TRACE_BITMAP_OPEN;
	return set ? IDR_TRACE_FULL : IDR_TRACE_OPEN;
}

/* A node left the tree: say so, and where its memory went. */
static void trace_gone(const struct idr *idr, uint64_t index,
		       unsigned int shift, bool cached)
{
	if (tracing(idr)) {
		idr__trace_at(idr, IDR_TRACE_NODE_FREE, index, shift,
			      digit(index, shift), 0);
		idr__trace_at(idr,
			      cached ? IDR_TRACE_CACHE_PUT : IDR_TRACE_FREE,
			      index, shift, digit(index, shift), 0);
	}
}

/* }==================== Tracing ==================== */

/* {==================== Nodes as IDA bitmaps ==================== */

uint64_t *idr__node_bits(struct idr_node *node)
{
	return node->bits;
}

/* A bitmap's header words are free: they summarise its words. */
uint64_t *idr__node_words_full(struct idr_node *node)
{
	return &node->full;
}

uint64_t *idr__node_words_used(struct idr_node *node)
{
	return &node->present;
}

/* }==================== Nodes as IDA bitmaps ==================== */

/* {==================== Search ==================== */

/* What a descent looks for in the leaves. */
enum seek {
	SEEK_FREE,    /* a free slot */
	SEEK_PRESENT, /* an entry */
};

/* The slots a search for @seek may enter. */
static inline uint64_t
candidates(const struct idr *idr, const struct idr_node *node,
	   unsigned int shift, enum seek seek, unsigned int off)
{
	bool free = seek == SEEK_FREE;
	uint64_t set;

	if (off >= IDR_SLOTS)
		return 0;
	set = free ? ~node->full : present_of(node);
	/* Worn out, a missing child holds no free ID. */
	if (free && shift && idr__worn_out(idr))
		set &= node->present;
	return set & from(off);
}

/*
 * The lowest index >= *@start under @node (the top, at @shift) whose leaf
 * slot is what @seek looks for, into *@start, with the nodes that lead
 * there in @path.  Going down, the first candidate slot at or after the
 * digit of *@start is entered; should that child have nothing at or after
 * *@start (only the child holding it can fail so), the search goes back
 * up and on to the next candidate.  Returns how many nodes of @path lead
 * to the index (0: there is none): the tree's height when it is in a leaf
 * that exists; a free index may also be under a missing child.
 */
static unsigned int descend_first(const struct idr *idr, struct idr_node *node,
				  unsigned int shift, uint64_t *start,
				  struct idr_node **path, enum seek seek)
{
	unsigned int depth = 0, off = digit(*start, shift), i;
	uint64_t at = *start, set;

	for (;;) {
		path[depth] = node;
		set = candidates(idr, node, shift, seek, off);
		if (!set) {
			if (seek == SEEK_FREE && off < IDR_SLOTS)
				trace(idr, IDR_TRACE_NO_ROOM, at, shift, node);
			/* Nothing here: on to the parent's next slot. */
			if (depth-- == 0)
				return 0;
			node = path[depth];
			shift += IDR_BITS;
			off = digit(at, shift) + 1;
			at = slot_start(at, shift, off & SLOT_MASK);
			continue;
		}
		i = lowest(set);
		if (i != digit(at, shift))
			at = slot_start(at, shift, i);
		trace(idr, IDR_TRACE_VISIT, at, shift, node);
		if (shift == 0 || !child_of(node, i)) {
			*start = at;
			return depth + 1;
		}
		node = child_of(node, i);
		shift -= IDR_BITS;
		depth++;
		off = digit(at, shift);
	}
}

/* idr__find_free(), also giving the path to the index (see above). */
static int find_free_path(const struct idr *idr, uint64_t start, uint64_t max,
			  uint64_t *index, struct idr_node **path,
			  unsigned int *depth)
{
	unsigned int shift = idr->idr_shift;

	*depth = 0;
	if (start > max)
		return -ENOSPC;
	*index = start;
	if (idr->idr_rt && start < capacity(shift)) {
		*depth = descend_first(idr, idr->idr_rt, shift, index, path,
				       SEEK_FREE);
		if (!*depth)
			*index = capacity(shift);
	}
	if (!*depth && idr__worn_out(idr))
		return -ENOSPC;
	return *index <= max ? 0 : -ENOSPC;
}

/* The lowest free index in [@start, @max]: 0, or -ENOSPC. */
int idr__find_free(const struct idr *idr, uint64_t start, uint64_t max,
		   uint64_t *index)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth;

	return find_free_path(idr, start, max, index, path, &depth);
}

bool idr__next_present(const struct idr *idr, uint64_t start, uint64_t *index,
		       void **entry)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth;

	if (!idr->idr_rt || start >= capacity(idr->idr_shift))
		return false;
	depth = descend_first(idr, idr->idr_rt, idr->idr_shift, &start, path,
			      SEEK_PRESENT);
	if (!depth)
		return false;
	*index = start;
	*entry = *leaf_slot(path[depth - 1], digit(start, 0));
	return true;
}

/* How many entries @leaf has before slot @off. */
static inline unsigned int rank_of(const struct idr_node *leaf,
				   unsigned int off)
{
	return count_of(leaf_present(leaf) & (bit(off) - 1));
}

void *idr__iter_find(struct idr__iter *it, uint64_t start, uint64_t *index)
{
	const struct idr *idr = it->idr;
	struct idr_node *path[IDR__LEVELS], *leaf;
	unsigned int depth, off;
	uint64_t set;
	void *entry;

	while (idr->idr_rt && start < capacity(idr->idr_shift)) {
		depth = descend_first(idr, idr->idr_rt, idr->idr_shift, &start,
				      path, SEEK_PRESENT);
		if (!depth)
			break;
		leaf = path[depth - 1];
		set = leaf_present(leaf) & from(digit(start, 0));
		/* NULL entries are reserved IDs: iteration steps over them. */
		for (; set; set &= set - 1) {
			off = lowest(set);
			entry = *leaf_slot(leaf, off);
			if (!entry)
				continue;
			it->packed = is_packed(leaf);
			it->slots = it->packed ? pack_slots(leaf) : leaf->slots;
			it->rank = rank_of(leaf, off) + 1;
			it->rest = set & (set - 1);
			it->first = (unsigned long)(start &
						    ~(uint64_t)SLOT_MASK);
			it->mods = idr->idr_mods;
			*index = it->first + off;
			return entry;
		}
		start = (start | SLOT_MASK) + 1;
	}
	return NULL;
}

/*
 * The descent to @index's leaf, unrolled: the height is known before the
 * first load, so one jump into a switch by height (the same jump for
 * every call on a tree, so it is predicted) replaces a loop whose exit
 * test waits on each load.  DOWN(level) goes from the node at @level to
 * its child on @index's path, after STEP(node) records it; a missing
 * child ends the descent with MISSING.  @link, the slot that led to
 * @node, says whether it is packed (see link_to()).
 */
_Static_assert(IDR__LEVELS <= 11, "DESCEND() unrolls");
#define DOWN(level, STEP, MISSING)                                      \
	case level:                                                     \
		STEP(linked(link));                                     \
		link = step_down(link, digit(index, (level)*IDR_BITS)); \
		if (!link)                                              \
			MISSING;                                        \
		__attribute__((fallthrough))
#define DESCEND(STEP, MISSING)                          \
	switch (shift / IDR_BITS) {                     \
	default: /* never: IDR__LEVELS is at most 11 */ \
		DOWN(10, STEP, MISSING);                \
		DOWN(9, STEP, MISSING);                 \
		DOWN(8, STEP, MISSING);                 \
		DOWN(7, STEP, MISSING);                 \
		DOWN(6, STEP, MISSING);                 \
		DOWN(5, STEP, MISSING);                 \
		DOWN(4, STEP, MISSING);                 \
		DOWN(3, STEP, MISSING);                 \
		DOWN(2, STEP, MISSING);                 \
		DOWN(1, STEP, MISSING);                 \
	case 0:                                         \
		STEP(linked(link));                     \
	}
/*
 * From @link, a slot's link to an interior node, to its child's at @off.
 * A whole node's link is its address: the usual case reads the slot and
 * nothing else, with no masking in the chain of dependent loads.
 */
static inline void *step_down(void *link, unsigned int off)
{
	if (__builtin_expect((uintptr_t)link & 1, 0))
		return link_at(linked(link), off, true);
	return ((struct idr_node *)link)->slots[off];
}

#define NO_STEP(node) (void)(node)
#define RECORD(node) (path[depth++] = (node))

/* The leaf that would hold @index, or NULL. */
static inline __attribute__((always_inline)) struct idr_node *
leaf_of(const struct idr *idr, uint64_t index)
{
	struct idr_node *node = idr->idr_rt;
	unsigned int shift = idr->idr_shift;
	void *link;

	if (!node || index >= capacity(shift))
		return NULL;
	link = link_to(node);
	DESCEND(NO_STEP, return NULL)
	return link; /* a leaf's: never tagged */
}

/*
 * Record the nodes from the top down to the leaf that holds @index in
 * @path; the number of them, or 0 if the path ends before a leaf.
 */
static inline __attribute__((always_inline)) unsigned int
descend(const struct idr *idr, uint64_t index, struct idr_node **path)
{
	struct idr_node *node = idr->idr_rt;
	unsigned int depth = 0, shift = idr->idr_shift;
	void *link;

	if (!node || index >= capacity(shift))
		return 0;
	link = link_to(node);
	DESCEND(RECORD, return 0)
	return depth;
}

/*
 * The slot of the entry at @off of @leaf, or NULL if there is none.  The
 * layout is a branch: a form without one (both addresses computed, one
 * selected by a mask) was tried and was slower, 54 ns against 31 for
 * random finds in a dense tree of 10^6, and no faster when half the
 * leaves are packed, because without -mpopcnt the rank is a dozen
 * dependent instructions on every find's path to its entry.
 */
static inline void **leaf_find(const struct idr_node *leaf, unsigned int off)
{
	if (!(leaf_present(leaf) >> off & 1))
		return NULL;
	return leaf_slot(leaf, off);
}

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
	if (tracing(idr))
		trace_path(idr, index);
}

/* The leaf slot of a present index, or NULL.  The path find takes. */
void **idr__lookup(const struct idr *idr, uint64_t index)
{
	idr__trace_path(idr, index);
	return idr__lookup_quiet(idr, index);
}

void **idr__lookup_quiet(const struct idr *idr, uint64_t index)
{
	struct idr_node *leaf = leaf_of(idr, index);

	return leaf ? leaf_find(leaf, digit(index, 0)) : NULL;
}

/* A tagged idr's generation counter for @index, or NULL if no leaf. */
uint64_t *idr__gen(const struct idr *idr, uint64_t index)
{
	struct idr_node *leaf = leaf_of(idr, index);

	return leaf ? &leaf->aux->bits[digit(index, 0)] : NULL;
}

/* }==================== Search ==================== */

/* {==================== Insertion ==================== */

/*
 * How many nodes inserting @index takes: every new level on top (each
 * holds the old top at slot 0), then every node missing on the path
 * down, and a whole node for the packed one with no room that must take
 * the first of them (or the entry).  Above the old top, the path leaves
 * the slot-0 chain at the highest new level whose digit of @index is not
 * 0, so it meets no old node there.
 */
static unsigned int path_needed(const struct idr *idr, uint64_t index)
{
	const struct idr_node *node = idr->idr_rt;
	unsigned int top = shift_for(index), shift = idr->idr_shift;
	unsigned int s;

	if (!node)
		return top / IDR_BITS + 1;
	for (s = top; s > shift; s -= IDR_BITS)
		if (digit(index, s))
			return (top - shift) / IDR_BITS + s / IDR_BITS;
	for (; shift; shift -= IDR_BITS) {
		const struct idr_node *child = child_of(node,
							digit(index, shift));

		if (!child)
			return shift / IDR_BITS + no_room(node);
		node = child;
	}
	return no_room(node);
}

/* A new leaf of a tagged idr also takes a node for its generations. */
unsigned int idr__nodes_needed(const struct idr *idr, uint64_t index)
{
	unsigned int need = path_needed(idr, index);

	return need && idr__tagged(idr) ? need + 1 : need;
}

static struct idr_node *leaf_new(struct idr *idr, struct idr__nodes *spare)
{
	struct idr_node *leaf = idr__node_take(spare);
	unsigned int off;

	if (idr__tagged(idr)) {
		leaf->aux = idr__node_take(spare);
		for (off = 0; off < IDR_SLOTS; off++)
			leaf->aux->bits[off] = idr->idr_gen_seed;
	}
	return leaf;
}

static struct idr_node *node_new_at(struct idr *idr, unsigned int shift,
				    struct idr__nodes *spare)
{
	return shift ? idr__node_take(spare) : leaf_new(idr, spare);
}

/* node-new for @node, made at @shift; a tagged leaf's gens node next. */
static void trace_made(const struct idr *idr, uint64_t index,
		       unsigned int shift, const struct idr_node *node)
{
	trace(idr, IDR_TRACE_NODE_NEW, index, shift, node);
	if (tracing(idr) && !shift && idr__tagged(idr))
		idr__trace_node(idr, IDR_TRACE_NODE_NEW, index, IDR_AUX_GENS);
}

/* Point the parent (or the idr) of the node at @shift on @index's path,
 * path[@depth - 1], at @node, which takes its place. */
static void relink(struct idr *idr, struct idr_node **path, unsigned int depth,
		   uint64_t index, unsigned int shift, struct idr_node *node)
{
	if (depth == 1)
		idr->idr_rt = node;
	else
		*child_slot(path[depth - 2],
			    digit(index, shift + IDR_BITS)) = link_to(node);
	path[depth - 1] = node;
}

/*
 * Put @node, new, in the place of path[@depth - 1] (at @shift), which it
 * copies, and free the old one: node-new, attach, node-free, free.
 */
static struct idr_node *replace_node(struct idr *idr, struct idr_node **path,
				     unsigned int depth, uint64_t index,
				     unsigned int shift, struct idr_node *node)
{
	struct idr_node *old = path[depth - 1];

	trace(idr, IDR_TRACE_NODE_NEW, index, shift, node);
	relink(idr, path, depth, index, shift, node);
	if (depth > 1)
		trace(idr, IDR_TRACE_ATTACH, index, shift + IDR_BITS,
		      path[depth - 2]);
	idr__free(old, node_size(old));
	trace_gone(idr, index, shift, false);
	return node;
}

/* path[@depth - 1], at @shift, ready to take one more: unpacked into a
 * whole node from @spare if it is packed with no room. */
static struct idr_node *room_made(struct idr *idr, struct idr_node **path,
				  unsigned int depth, uint64_t index,
				  unsigned int shift, struct idr__nodes *spare)
{
	struct idr_node *node = path[depth - 1], *whole;

	if (!no_room(node))
		return node;
	whole = idr__node_take(spare);
	idr__unpack_into(whole, node);
	return replace_node(idr, path, depth, index, shift, whole);
}

/* Store @entry at the free slot @off of @leaf, which has room. */
static inline void leaf_put(struct idr *idr, struct idr_node *leaf,
			    unsigned int off, void *entry)
{
	unsigned int n;
	void **s;

	idr->idr_mods++;
	if (!is_packed(leaf)) {
		leaf->slots[off] = entry;
		leaf->present |= bit(off);
		return;
	}
	n = count_of(leaf->full);
	s = leaf_slot(leaf, off);
	memmove(s + 1, s, (size_t)(pack_slots(leaf) + n - s) * sizeof(*s));
	*s = entry;
	leaf->full |= bit(off);
}

/* The new top @top, the old one at its slot 0, its bit, the height. */
static void trace_grow(const struct idr *idr, const struct idr_node *top)
{
	unsigned int shift = idr->idr_shift;

	idr__trace_at(idr, IDR_TRACE_NODE_NEW, 0, shift, 0, 0);
	idr__trace_at(idr, IDR_TRACE_ATTACH, 0, shift, 0, 0);
	if (top->full)
		idr__trace_at(idr, IDR_TRACE_SUBTREE_FULL, 0, shift, 0,
			      top->full);
	idr__trace_at(idr, IDR_TRACE_GROW, 0, shift, 0, top->full);
}

/* Add levels on top until the tree covers @index. */
static void grow(struct idr *idr, uint64_t index, struct idr__nodes *spare)
{
	unsigned int top = shift_for(index);

	if (!idr->idr_rt) {
		idr->idr_shift = (unsigned char)top;
		idr->idr_rt = node_new_at(idr, top, spare);
		idr->idr_nodes++;
		trace_made(idr, index, top, idr->idr_rt);
		return;
	}
	while (idr->idr_shift < top) {
		struct idr_node *old = idr->idr_rt;
		struct idr_node *node = idr__node_take(spare);

		node->slots[0] = link_to(old);
		node->present = bit(0);
		if (old->full == ALL_SLOTS)
			node->full = bit(0);
		idr->idr_rt = node;
		idr->idr_shift += IDR_BITS;
		idr->idr_nodes++;
		if (tracing(idr))
			trace_grow(idr, node);
	}
}

/* Set @index's leaf bit and each ancestor's that is now full. */
static inline void mark_full(const struct idr *idr, struct idr_node **path,
			     unsigned int depth, uint64_t index)
{
	bool traced = tracing(idr);
	unsigned int shift = 0;

	do {
		struct idr_node *node = path[--depth];

		node->full |= bit(digit(index, shift));
		if (traced)
			idr__trace_at(idr,
				      by_level(shift, leaf_bit_event(idr, true),
					       IDR_TRACE_SUBTREE_FULL),
				      index, shift, digit(index, shift),
				      node->full);
		if (node->full != ALL_SLOTS)
			return;
		shift += IDR_BITS;
	} while (depth > 0);
}

/*
 * Clear @index's full bit at every level: each now has a free index.
 * A level whose bit was clear already had one, and so has every level
 * above it (a parent's bit is set only when its child is all full): the
 * clearing stops there, which for most removals is past the leaf.
 */
static inline void mark_open(const struct idr *idr, struct idr_node **path,
			     unsigned int depth, uint64_t index)
{
	bool traced = tracing(idr);
	unsigned int shift = 0;

	while (depth > 0) {
		struct idr_node *node = path[--depth];
		uint64_t b = bit(digit(index, shift));

		if (!(node->full & b))
			return;
		node->full &= ~b;
		if (traced)
			idr__trace_at(
				idr,
				by_level(shift, leaf_bit_event(idr, false),
					 IDR_TRACE_SUBTREE_OPEN),
				index, shift, digit(index, shift), node->full);
		shift += IDR_BITS;
	}
}

/*
 * Store @entry at the free index @index, taking the nodes it needs from
 * @spare, which holds exactly idr__nodes_needed() of them.  @fill says
 * whether the leaf slot is full (an idr's always is).
 */
void idr__insert(struct idr *idr, uint64_t index, void *entry,
		 enum idr__fill fill, struct idr__nodes *spare)
{
	struct idr_node *path[IDR__LEVELS];
	struct idr_node *node, *child;
	unsigned int depth = 0, shift, off;

	grow(idr, index, spare);
	node = idr->idr_rt;
	for (shift = idr->idr_shift; shift; shift -= IDR_BITS) {
		off = digit(index, shift);
		path[depth++] = node;
		child = child_of(node, off);
		if (!child) {
			node = room_made(idr, path, depth, index, shift, spare);
			child = node_new_at(idr, shift - IDR_BITS, spare);
			idr__pack_child_put(node, off, child);
			idr->idr_nodes++;
			trace_made(idr, index, shift - IDR_BITS, child);
			trace(idr, IDR_TRACE_ATTACH, index, shift, node);
		}
		node = child;
	}
	path[depth++] = node;
	node = room_made(idr, path, depth, index, 0, spare);
	leaf_put(idr, node, digit(index, 0), entry);
	trace(idr, IDR_TRACE_SLOT_SET, index, 0, node);
	if (fill == IDR__SLOT_FULL)
		mark_full(idr, path, depth, index);
	idr->idr_count++;
}

/* {==================== Lone IDs ==================== */

/*
 * Store @entry at the free @index, asked for by itself (a range of one).
 * Such IDs are usually scattered (handles, keys), and a whole node for
 * each, with one slot used, is what made a sparse idr cost 771 bytes an
 * ID.  So the nodes it adds are born packed with room for one, and a
 * packed node on its path with no room moves to a block with room for
 * twice what it will hold (each as much as malloc's block holds anyway).
 * Every block is malloc'd before the tree changes, all or none.
 * IDR__NEEDS_NODES (nothing changed) when malloc refuses, the tree must
 * grow, or a packed node would grow past PACK_MAX: the caller then
 * reserves whole nodes as for any insertion.
 */
int idr__insert_lone(struct idr *idr, uint64_t index, void *entry)
{
	struct idr_node *path[IDR__LEVELS], *node = idr->idr_rt, *child;
	unsigned int depth = 0, shift = idr->idr_shift, i;
	struct idr__lone_blocks b;

	if (!packable(idr) || !node || index >= capacity(shift))
		return IDR__NEEDS_NODES;
	for (;; shift -= IDR_BITS) {
		path[depth++] = node;
		if (!shift || !(child = child_of(node, digit(index, shift))))
			break;
		node = child;
	}
	if (!idr__lone_malloc(&b, node, shift))
		return IDR__NEEDS_NODES;
	if (tracing(idr))
		idr__trace_supply(idr, IDR_TRACE_MALLOC, b.n_made + !!b.grown);
	if (b.grown)
		node = replace_node(idr, path, depth, index, shift,
				    idr__lone_grow(&b, node, shift));
	for (i = 0; i < b.n_made; i++, shift -= IDR_BITS) {
		child = b.made[i];
		idr__pack_child_put(node, digit(index, shift), child);
		idr->idr_nodes++;
		trace_made(idr, index, shift - IDR_BITS, child);
		trace(idr, IDR_TRACE_ATTACH, index, shift, node);
		path[depth++] = node = child;
	}
	leaf_put(idr, node, digit(index, 0), entry);
	trace(idr, IDR_TRACE_SLOT_SET, index, 0, node);
	mark_full(idr, path, depth, index);
	idr->idr_count++;
	return IDR__STORED;
}

/* }==================== Lone IDs ==================== */

/* idr__alloc_fast() for any tree and search: the general descent. */
static int alloc_slow(struct idr *idr, void *entry, uint64_t start,
		      uint64_t max, uint64_t *index)
{
	struct idr_node *path[IDR__LEVELS], *leaf;
	unsigned int depth;
	int err = find_free_path(idr, start, max, index, path, &depth);

	if (err)
		return err;
	if (!depth || depth != idr__height(idr))
		return IDR__NEEDS_NODES;
	leaf = path[depth - 1];
	if (no_room(leaf))
		return IDR__NEEDS_NODES;
	leaf_put(idr, leaf, digit(*index, 0), entry);
	trace(idr, IDR_TRACE_SLOT_SET, *index, 0, leaf);
	mark_full(idr, path, depth, *index);
	idr->idr_count++;
	return IDR__STORED;
}

/*
 * The common allocation in one descent: find the lowest free index in
 * [@start, @max] and, when it is in a leaf with room, store @entry
 * there.  0 when stored; 1 when the index needs nodes first (idr__insert
 * after a reservation); -ENOSPC.  The loop below is the usual case, with
 * no trace and no going back up; anything else takes alloc_slow().
 */
int idr__alloc_fast(struct idr *idr, void *entry, uint64_t start, uint64_t max,
		    uint64_t *index)
{
	struct idr_node *path[IDR__LEVELS], *node = idr->idr_rt;
	unsigned int shift = idr->idr_shift, depth = 0, i;
	uint64_t at = start, open;

	if (tracing(idr) || idr__tagged(idr) || !node ||
	    start >= capacity(shift))
		return alloc_slow(idr, entry, start, max, index);
	for (;;) {
		path[depth++] = node;
		open = ~node->full & from(digit(at, shift));
		if (!open)
			return alloc_slow(idr, entry, start, max, index);
		i = lowest(open);
		if (i != digit(at, shift))
			at = slot_start(at, shift, i);
		if (!shift)
			break;
		node = child_of(node, i);
		if (!node)
			return alloc_slow(idr, entry, start, max, index);
		shift -= IDR_BITS;
	}
	*index = at;
	if (at > max)
		return -ENOSPC;
	if (no_room(node))
		return IDR__NEEDS_NODES;
	leaf_put(idr, node, i, entry);
	mark_full(idr, path, depth, at);
	idr->idr_count++;
	return IDR__STORED;
}

/* }==================== Insertion ==================== */

/* {==================== Deletion ==================== */

void idr__set_full(struct idr *idr, uint64_t index, enum idr__fill fill)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = descend(idr, index, path);

	if (fill == IDR__SLOT_FULL)
		mark_full(idr, path, depth, index);
	else
		mark_open(idr, path, depth, index);
}

/* A tagged leaf freed by idr_destroy() hands its generations on to the
 * seed: see idr__gen_pass_on(). */
static void absorb_gens(struct idr *idr, const struct idr_node *leaf)
{
	unsigned int off;

	/* A live slot (idr_destroy) is freed now: one more. */
	for (off = 0; off < IDR_SLOTS; off++)
		idr__gen_pass_on(idr, leaf->aux->bits[off] +
					      (leaf->present >> off & 1));
}

void idr__trace_gone(const struct idr *idr, uint64_t index, unsigned int aux,
		     bool cached)
{
	if (tracing(idr)) {
		idr__trace_node(idr, IDR_TRACE_NODE_FREE, index, aux);
		idr__trace_node(idr,
				cached ? IDR_TRACE_CACHE_PUT : IDR_TRACE_FREE,
				index, aux);
	}
}

/* A node of an untagged tree (a tagged one keeps its leaves: prune()). */
static void node_release_at(struct idr *idr, struct idr_node *node,
			    uint64_t index, unsigned int shift)
{
	bool cached = false;

	if (is_packed(node))
		idr__free(node, node_size(node));
	else
		cached = idr__node_release(idr, node);
	idr->idr_nodes--;
	trace_gone(idr, index, shift, cached);
}

/* Clear @off in interior @node: no longer present, so no longer full. */
static void clear_slot(struct idr_node *node, unsigned int off)
{
	void **s = child_slot(node, off);

	if (is_packed(node)) {
		void **end = node->slots + count_of(node->present);

		memmove(s, s + 1, (size_t)(end - s - 1) * sizeof(*s));
	} else {
		*s = NULL;
	}
	node->present &= ~bit(off);
	node->full &= ~bit(off);
}

/* Lower the tree while its top node only keeps slot 0. */
static void shrink(struct idr *idr)
{
	struct idr_node *top = idr->idr_rt;

	while (top && idr->idr_shift && top->present == bit(0)) {
		struct idr_node *child = child_of(top, 0);
		unsigned int shift = idr->idr_shift;

		clear_slot(top, 0);
		trace(idr, IDR_TRACE_DETACH, 0, shift, top);
		idr->idr_rt = child;
		idr->idr_shift -= IDR_BITS;
		node_release_at(idr, top, 0, shift);
		top = child;
		trace(idr, IDR_TRACE_SHRINK, 0, idr->idr_shift, top);
	}
}

/*
 * Take the entry at @off out of @leaf, which holds @n entries (counted
 * once by the caller, which compacts the leaf with it); mark_open() then
 * clears its bit.
 */
static void *leaf_take(struct idr_node *leaf, unsigned int off, unsigned int n)
{
	void **s = leaf_slot(leaf, off), *entry = *s;

	if (is_packed(leaf)) {
		void **end = pack_slots(leaf) + n;

		memmove(s, s + 1, (size_t)(end - s - 1) * sizeof(*s));
	} else {
		*s = NULL;
		leaf->present &= ~bit(off);
	}
	return entry;
}

/* After a removal left @n entries in path[@depth - 1]: pack it, or shrink
 * it if packed (pack.c says when), in its place. */
static void leaf_compact(struct idr *idr, struct idr_node **path,
			 unsigned int depth, uint64_t index, unsigned int n)
{
	struct idr_node *small;

	if (!idr__pack_due(path[depth - 1], n))
		return;
	small = idr__pack_leaf(path[depth - 1], n);
	if (!small)
		return;
	relink(idr, path, depth, index, 0, small);
	trace(idr, IDR_TRACE_PACK, index, 0, small);
}

/*
 * After a removal at @index: a node left empty goes, and its slot in the
 * parent with it; then the tree lowers while it can.  @path and @depth
 * are the removal's descent.
 */
static void prune(struct idr *idr, struct idr_node **path, unsigned int depth,
		  uint64_t index)
{
	unsigned int shift = 0;

	for (; depth > 1 && !present_of(path[depth - 1]); depth--) {
		shift += IDR_BITS;
		clear_slot(path[depth - 2], digit(index, shift));
		trace(idr, IDR_TRACE_DETACH, index, shift, path[depth - 2]);
		node_release_at(idr, path[depth - 1], index, shift - IDR_BITS);
	}
	if (!present_of(path[0])) {
		shift = idr->idr_shift;
		idr->idr_rt = NULL;
		idr->idr_shift = 0;
		node_release_at(idr, path[0], index, shift);
	}
	shrink(idr);
}

/* Free @index; false (and nothing changed) if it is not present. */
bool idr__delete(struct idr *idr, uint64_t index, void **entry)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = descend(idr, index, path);
	unsigned int off = digit(index, 0), n;

	if (!depth || !(leaf_present(path[depth - 1]) & bit(off)))
		return false;
	idr->idr_mods++;
	n = count_of(leaf_present(path[depth - 1]));
	*entry = leaf_take(path[depth - 1], off, n);
	trace(idr, IDR_TRACE_SLOT_CLEAR, index, 0, path[depth - 1]);
	mark_open(idr, path, depth, index);
	if (leaf_present(path[depth - 1]) && packable(idr))
		leaf_compact(idr, path, depth, index, n - 1);
	/* A tagged idr keeps its leaves: they hold the generations. */
	if (!idr__tagged(idr))
		prune(idr, path, depth, index);
	idr->idr_count--;
	return true;
}

static void free_subtree(struct idr *idr, struct idr_node *node,
			 unsigned int shift)
{
	uint64_t set;

	if (shift == 0 && is_packed(node)) {
		idr__free(node, node_size(node));
		return;
	}
	for (set = node->present; set; set &= set - 1) {
		void *child = shift ? child_of(node, lowest(set))
				    : node->slots[lowest(set)];

		if (shift)
			free_subtree(idr, child, shift - IDR_BITS);
		else if (idr->idr_flags & IDR__IDA)
			idr__free(child, sizeof(*node));
	}
	if (shift == 0 && node->aux) {
		absorb_gens(idr, node);
		idr__free(node->aux, sizeof(*node));
	}
	idr__free(node, node_size(node));
}

/* Free every node of the tree.  Generations keep moving forward. */
void idr__free_all(struct idr *idr)
{
	if (idr->idr_rt)
		free_subtree(idr, idr->idr_rt, idr->idr_shift);
	idr->idr_rt = NULL;
	idr->idr_shift = 0;
	idr->idr_count = 0;
	idr->idr_mods++;
	idr->idr_retired = 0;
	idr->idr_nodes = 0;
}

/* }==================== Deletion ==================== */
