/* SPDX-License-Identifier: MIT */
/*
 * tree.c - nodes, bitmaps, growing and shrinking, lowest-free search.
 *
 * Conventions in this file:
 *   @index  an ID minus the idr's base; at most IDR_INDEX_MAX.
 *   @shift  the index bits below a node's digit: 0 for a leaf, and
 *           IDR_BITS more for each level up.  A node with shift s covers
 *           IDR_SLOTS << s consecutive indices.
 *   @off    a slot number in a node, 0 .. IDR_SLOTS - 1.
 *   full    bit @off set: leaf, the slot is in use; interior, the child
 *           exists and has no free index left.
 *   present bit @off set: the slot holds an entry (leaf) or child.
 *
 * Every operation that adds nodes is told beforehand how many it needs
 * (idr__nodes_needed) and is handed exactly that many, so the tree is
 * never left half changed by a failed allocation.
 */
#include <string.h>

#include "tree.h"

#define ALL_SLOTS                                                            \
	(IDR_SLOTS == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (IDR_SLOTS & 63)) - 1)
#define SLOT_MASK (IDR_SLOTS - 1)
#define MAX_LEVELS ((32 + IDR_BITS - 1) / IDR_BITS)

struct idr_node {
	uint64_t full;
	uint64_t present;
	unsigned char shift;
	void *slots[IDR_SLOTS];
};

static inline unsigned int digit(uint64_t index, unsigned int shift)
{
	return (unsigned int)(index >> shift) & SLOT_MASK;
}

static inline uint64_t bit(unsigned int off)
{
	return (uint64_t)1 << off;
}

/* Bits at and above @off. */
static inline uint64_t from(unsigned int off)
{
	return ALL_SLOTS & ~(bit(off) - 1);
}

static inline unsigned int lowest(uint64_t bits)
{
	return (unsigned int)__builtin_ctzll(bits);
}

/* The first index of slot @off in the node at @shift that holds @index. */
static inline uint64_t slot_start(uint64_t index, unsigned int shift,
				  unsigned int off)
{
	uint64_t node_start = index >> shift >> IDR_BITS << IDR_BITS << shift;

	return node_start | (uint64_t)off << shift;
}

/* One past the last index a top node at @shift covers. */
static inline uint64_t capacity(unsigned int shift)
{
	return (uint64_t)IDR_SLOTS << shift;
}

/* The shift of the smallest top node that covers @index. */
static unsigned int shift_for(uint64_t index)
{
	unsigned int shift = 0;

	while (index >= capacity(shift))
		shift += IDR_BITS;
	return shift;
}

unsigned int idr__max_levels(void)
{
	return MAX_LEVELS;
}

unsigned int idr__height(const struct idr *idr)
{
	return idr->idr_rt ? idr->idr_rt->shift / IDR_BITS + 1 : 0;
}

/* {==================== Spare nodes ==================== */

static void push(struct idr__nodes *list, struct idr_node *node)
{
	node->slots[0] = list->head;
	list->head = node;
	list->nr++;
}

static struct idr_node *pop(struct idr__nodes *list)
{
	struct idr_node *node = list->head;

	list->head = node->slots[0];
	list->nr--;
	return node;
}

/* Add malloc'd nodes until @list holds @want; on failure keep what it has. */
int idr__nodes_fill(struct idr__nodes *list, unsigned int want)
{
	while (list->nr < want) {
		struct idr_node *node = idr__malloc(sizeof(*node));

		if (!node)
			return -ENOMEM;
		push(list, node);
	}
	return 0;
}

void idr__nodes_move(struct idr__nodes *to, struct idr__nodes *from,
		     unsigned int n)
{
	while (n-- > 0)
		push(to, pop(from));
}

void idr__nodes_drain(struct idr__nodes *list, unsigned int keep)
{
	while (list->nr > keep)
		idr__free(pop(list), sizeof(struct idr_node));
}

static struct idr_node *node_take(struct idr__nodes *spare,
				  unsigned int shift)
{
	struct idr_node *node = pop(spare);

	memset(node, 0, sizeof(*node));
	node->shift = (unsigned char)shift;
	return node;
}

static void node_release(struct idr_node *node)
{
	idr__free(node, sizeof(*node));
}

/* }==================== Spare nodes ==================== */

/* {==================== Search ==================== */

/*
 * The lowest index >= @start under @node whose leaf slot is not full.
 * At most one child per level is entered without success: after the
 * slot holding @start, any non-full slot has a free index in it.
 */
static bool node_find_free(const struct idr_node *node, uint64_t start,
			   uint64_t *index)
{
	unsigned int off = digit(start, node->shift);
	uint64_t open = ~node->full & from(off);

	for (; open; open &= open - 1) {
		unsigned int i = lowest(open);
		uint64_t first = i == off ? start
					  : slot_start(start, node->shift, i);
		const struct idr_node *child = node->slots[i];

		if (node->shift == 0 || !child) {
			*index = first;
			return true;
		}
		if (node_find_free(child, first, index))
			return true;
	}
	return false;
}

/* The lowest free index in [@start, @max]: 0, or -ENOSPC. */
int idr__find_free(const struct idr *idr, uint64_t start, uint64_t max,
		   uint64_t *index)
{
	const struct idr_node *top = idr->idr_rt;

	if (start > max)
		return -ENOSPC;
	*index = start;
	if (top && start < capacity(top->shift) &&
	    !node_find_free(top, start, index))
		*index = capacity(top->shift);
	return *index <= max ? 0 : -ENOSPC;
}

/* The lowest present slot at or above @start under @node. */
static bool node_next_present(const struct idr_node *node, uint64_t start,
			      uint64_t *index, void **entry)
{
	unsigned int off = digit(start, node->shift);
	uint64_t set = node->present & from(off);

	for (; set; set &= set - 1) {
		unsigned int i = lowest(set);
		uint64_t first = i == off ? start
					  : slot_start(start, node->shift, i);

		if (node->shift == 0) {
			*index = first;
			*entry = node->slots[i];
			return true;
		}
		if (node_next_present(node->slots[i], first, index, entry))
			return true;
	}
	return false;
}

bool idr__next_present(const struct idr *idr, uint64_t start,
		       uint64_t *index, void **entry)
{
	const struct idr_node *top = idr->idr_rt;

	if (!top || start >= capacity(top->shift))
		return false;
	return node_next_present(top, start, index, entry);
}

/*
 * Record the nodes from the top down to the leaf that holds @index in
 * @path; the number of them, or 0 if the path ends before a leaf.
 */
static unsigned int descend(const struct idr *idr, uint64_t index,
			    struct idr_node **path)
{
	struct idr_node *node = idr->idr_rt;
	unsigned int depth = 0;

	if (!node || index >= capacity(node->shift))
		return 0;
	for (;;) {
		path[depth++] = node;
		if (node->shift == 0)
			return depth;
		node = node->slots[digit(index, node->shift)];
		if (!node)
			return 0;
	}
}

/* The leaf slot of a present index, or NULL.  The path find takes. */
void **idr__lookup(const struct idr *idr, uint64_t index)
{
	struct idr_node *node = idr->idr_rt;

	if (!node || index >= capacity(node->shift))
		return NULL;
	while (node->shift) {
		node = node->slots[digit(index, node->shift)];
		if (!node)
			return NULL;
	}
	if (!(node->present & bit(digit(index, 0))))
		return NULL;
	return &node->slots[digit(index, 0)];
}

/* }==================== Search ==================== */

/* {==================== Insertion ==================== */

/*
 * How many nodes inserting @index takes: every new level on top (each
 * holds the old top at slot 0), then every node missing on the path
 * down.  Above the old top, the path leaves the slot-0 chain at the
 * highest new level whose digit of @index is not 0.
 */
unsigned int idr__nodes_needed(const struct idr *idr, uint64_t index)
{
	const struct idr_node *node = idr->idr_rt;
	unsigned int top = shift_for(index), shift;

	if (!node)
		return top / IDR_BITS + 1;
	for (shift = top; shift > node->shift; shift -= IDR_BITS)
		if (digit(index, shift))
			return (top - node->shift) / IDR_BITS + shift / IDR_BITS;
	while (node->shift) {
		const struct idr_node *child =
			node->slots[digit(index, node->shift)];

		if (!child)
			return node->shift / IDR_BITS;
		node = child;
	}
	return 0;
}

/* Add levels on top until the tree covers @index. */
static void grow(struct idr *idr, uint64_t index, struct idr__nodes *spare)
{
	unsigned int top = shift_for(index);

	if (!idr->idr_rt) {
		idr->idr_rt = node_take(spare, top);
		return;
	}
	while (idr->idr_rt->shift < top) {
		struct idr_node *old = idr->idr_rt;
		struct idr_node *node = node_take(spare, old->shift + IDR_BITS);

		node->slots[0] = old;
		node->present = bit(0);
		if (old->full == ALL_SLOTS)
			node->full = bit(0);
		idr->idr_rt = node;
	}
}

/*
 * Store @entry at the free index @index, taking the nodes it needs from
 * @spare, which holds exactly idr__nodes_needed() of them.
 */
void idr__insert(struct idr *idr, uint64_t index, void *entry,
		 struct idr__nodes *spare)
{
	struct idr_node *path[MAX_LEVELS];
	struct idr_node *node;
	unsigned int depth = 0, off;

	grow(idr, index, spare);
	for (node = idr->idr_rt; node->shift; node = node->slots[off]) {
		off = digit(index, node->shift);
		if (!node->slots[off]) {
			node->slots[off] = node_take(spare,
						     node->shift - IDR_BITS);
			node->present |= bit(off);
		}
		path[depth++] = node;
	}
	off = digit(index, 0);
	node->slots[off] = entry;
	node->present |= bit(off);
	node->full |= bit(off);
	while (node->full == ALL_SLOTS && depth > 0) {
		node = path[--depth];
		node->full |= bit(digit(index, node->shift));
	}
	idr->idr_count++;
}

/* }==================== Insertion ==================== */

/* {==================== Deletion ==================== */

/* Lower the tree while its top node only keeps slot 0. */
static void shrink(struct idr *idr)
{
	struct idr_node *top = idr->idr_rt;

	while (top && top->shift && top->present == bit(0)) {
		struct idr_node *child = top->slots[0];

		node_release(top);
		top = child;
	}
	idr->idr_rt = top;
}

/* Clear @off in @node: it is no longer present, so no longer full. */
static void clear_slot(struct idr_node *node, unsigned int off)
{
	node->slots[off] = NULL;
	node->present &= ~bit(off);
	node->full &= ~bit(off);
}

/* Free @index; false (and nothing changed) if it is not present. */
bool idr__delete(struct idr *idr, uint64_t index, void **entry)
{
	struct idr_node *path[MAX_LEVELS];
	unsigned int depth = descend(idr, index, path);
	unsigned int off = digit(index, 0);

	if (!depth || !(path[depth - 1]->present & bit(off)))
		return false;
	*entry = path[depth - 1]->slots[off];
	clear_slot(path[depth - 1], off);
	/* Every ancestor now has a free index; a child left empty goes. */
	for (; depth > 1; depth--) {
		struct idr_node *parent = path[depth - 2];

		off = digit(index, parent->shift);
		parent->full &= ~bit(off);
		if (!path[depth - 1]->present) {
			node_release(path[depth - 1]);
			clear_slot(parent, off);
		}
	}
	if (!path[0]->present) {
		node_release(path[0]);
		idr->idr_rt = NULL;
	}
	shrink(idr);
	idr->idr_count--;
	return true;
}

static void free_subtree(struct idr_node *node)
{
	uint64_t set;

	if (node->shift)
		for (set = node->present; set; set &= set - 1)
			free_subtree(node->slots[lowest(set)]);
	node_release(node);
}

void idr__free_all(struct idr *idr)
{
	if (idr->idr_rt)
		free_subtree(idr->idr_rt);
	idr->idr_rt = NULL;
	idr->idr_count = 0;
}

/* }==================== Deletion ==================== */

/* {==================== Invariants ==================== */

/* Count the entries under @node; -1 if any invariant is broken. */
static long check_node(const struct idr_node *node, unsigned int shift)
{
	long entries = 0;
	unsigned int off;

	if (node->shift != shift || !node->present ||
	    (node->present & ~ALL_SLOTS) || (node->full & ~node->present))
		return -1;
	for (off = 0; off < IDR_SLOTS; off++) {
		const struct idr_node *child = node->slots[off];
		bool present = node->present & bit(off);
		long n;

		if (shift == 0) {
			if (!present && child)
				return -1;
			entries += present;
			continue;
		}
		if (present != (child != NULL))
			return -1;
		if (!child)
			continue;
		n = check_node(child, shift - IDR_BITS);
		if (n < 0 || (child->full == ALL_SLOTS) !=
				     !!(node->full & bit(off)))
			return -1;
		entries += n;
	}
	if (shift == 0 && node->full != node->present)
		return -1;
	return entries;
}

int idr_check(const struct idr *idr)
{
	const struct idr_node *top = idr->idr_rt;
	long entries;

	if (!top)
		return idr->idr_count == 0 ? 0 : -EUCLEAN;
	if (top->shift % IDR_BITS || top->shift / IDR_BITS >= MAX_LEVELS)
		return -EUCLEAN;
	/* The tree is no taller than it must be. */
	if (top->shift && !(top->present & ~bit(0)))
		return -EUCLEAN;
	entries = check_node(top, top->shift);
	if (entries < 0 || (unsigned long)entries != idr->idr_count)
		return -EUCLEAN;
	return 0;
}

/* }==================== Invariants ==================== */
