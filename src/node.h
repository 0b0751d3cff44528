/* SPDX-License-Identifier: MIT */
/*
 * node.h - a node's layout, the small helpers that read it and the
 * unrolled descent (DESCEND()), for the files that work on nodes: tree.c
 * changes them, seek.c searches them, pack.c packs them, check.c checks
 * and walk.c shows them.  The packed-node policy (when a node is packed,
 * how much room it keeps) is named here too, in PACK_*.
 *
 *   struct idr_node (IDR__NODE_SIZE bytes, a whole node):
 *   +------+--------------+---------+----------------------------+
 *   | full | aux or pack  | present | slots[IDR_SLOTS] (or bits) |
 *   +------+--------------+---------+----------------------------+
 *   A packed leaf keeps its entries side by side from "present" on (its
 *   full bitmap says which slots they are); a packed interior node keeps
 *   its children side by side from "slots" on.  See tree.c's head.
 */
#ifndef IDR_NODE_H
#define IDR_NODE_H

#include <stddef.h>

#include "defer.h"
#include "gen.h"

#define SLOTS IDR_SLOTS
#define ALL_SLOTS \
	(SLOTS == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (SLOTS & 63)) - 1)
#define SLOT_MASK (IDR_SLOTS - 1)

struct idr_node {
	uint64_t full;
	union {
		struct idr_node *aux; /* tagged leaf: its generations */
		/* packed: cap << 16 | shift << 8 | grown << 3 |
		 * interior << 2 | loose << 1 | 1; whole interior: shift << 8 */
		uintptr_t pack;
	};
	uint64_t present; /* a packed leaf's entries start here */
	union {
		void *slots[IDR_SLOTS];	  /* a packed node's children too */
		uint64_t bits[IDR_SLOTS]; /* IDA bitmap, generations */
	};
};
_Static_assert(sizeof(struct idr_node) == IDR__NODE_SIZE, "geom.h's size");

/* A packed leaf holds entries from where a node's present bitmap is. */
#define PACK_HEAD offsetof(struct idr_node, present)
/* A packed interior node holds its children where a whole one does. */
#define PACK_HEAD_INTERIOR offsetof(struct idr_node, slots)
/* Leaves at or below this many entries are packed by removals; packed
 * nodes grow no further than this. */
#define PACK_MAX (IDR_SLOTS * 3 / 4)
/* Room for more entries that packing a whole leaf leaves it. */
#define PACK_ROOM 2u
/*
 * Whole leaves with fewer entries stay whole: a few removals from empty,
 * a whole node goes back to the idr's cache, where the next new leaf
 * finds it, but a packed block goes back to malloc.
 */
#define PACK_MIN (PACK_ROOM + 1)
/*
 * Spare slots a tight leaf keeps rather than shrink, so that a shrink is
 * by 32 bytes or more: glibc splits off no chunk under 32, so a smaller
 * shrink gives back nothing (by 8 or 16 bytes) or only sometimes (24).
 */
#define PACK_SLACK 3u
#define PACK_INTERIOR 4u
/* A leaf a lone insertion grew keeps the room it was given: see
 * idr__room_kept(). */
#define PACK_GROWN 8u

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
static inline unsigned int shift_for(uint64_t index)
{
	unsigned int shift = 0;

	while (index >= capacity(shift))
		shift += IDR_BITS;
	return shift;
}

static inline bool is_packed(const struct idr_node *node)
{
	return node->pack & 1;
}

/* A packed leaf: its full bitmap is its present one. */
static inline bool is_packed_leaf(const struct idr_node *node)
{
	return (node->pack & (PACK_INTERIOR | 1)) == 1;
}

static inline unsigned int pack_cap(const struct idr_node *node)
{
	return (unsigned int)(node->pack >> 16);
}

/* An interior node's shift, which its pack word keeps (never a leaf's:
 * a tagged leaf's word is its aux pointer). */
static inline unsigned int shift_of(const struct idr_node *node)
{
	return (unsigned int)(node->pack >> 8) & 0xff;
}

/* Loose: packed from a whole leaf, with room kept on purpose. */
static inline bool is_loose(const struct idr_node *leaf)
{
	return leaf->pack & 2;
}

/* The pack word of a whole interior node at @shift (0: a leaf's). */
static inline uintptr_t whole_word(unsigned int shift)
{
	return (uintptr_t)shift << 8;
}

/* A packed node's, at @shift (0: a leaf). */
static inline uintptr_t pack_word(unsigned int cap, bool loose,
				  unsigned int shift)
{
	return (uintptr_t)cap << 16 | whole_word(shift) |
	       (uintptr_t)(shift != 0) << 2 | (uintptr_t)loose << 1 | 1;
}

/* The bytes of a packed node with room for @cap. */
static inline size_t pack_size(unsigned int cap, bool interior)
{
	return (interior ? PACK_HEAD_INTERIOR : PACK_HEAD) +
	       cap * sizeof(void *);
}

/* The chunk glibc's malloc gives a block of @size: steps of 16 bytes,
 * 8 of them its own header, at least 32. */
static inline size_t malloc_chunk(size_t size)
{
	size_t chunk = (size + 8 + 15) & ~(size_t)15;

	return chunk < 32 ? 32 : chunk;
}

/* The bytes @node takes, whatever its layout. */
static inline size_t node_size(const struct idr_node *node)
{
	if (!is_packed(node))
		return sizeof(*node);
	return pack_size(pack_cap(node), node->pack & PACK_INTERIOR);
}

static inline void **pack_slots(struct idr_node *leaf)
{
	return (void **)((char *)leaf + PACK_HEAD);
}

#if defined(__x86_64__) && !defined(__POPCNT__)
/* Whether the CPU has popcnt, found when the library loads (pack.c). */
extern IDR__HIDDEN bool idr__popcnt;
#define IDR__POPCNT_PROBE 1
#endif

/*
 * Without -mpopcnt, GCC calls libgcc for popcount, and the sum below is a
 * dozen dependent instructions; x86-64 CPUs since 2008 have the one
 * instruction, taken when the CPU says so (a branch that never changes,
 * so predicted).
 */
static inline unsigned int count_of(uint64_t bits)
{
#ifdef __POPCNT__
	return (unsigned int)__builtin_popcountll(bits);
#else
#ifdef IDR__POPCNT_PROBE
	if (__builtin_expect(idr__popcnt, 1)) {
		uint64_t n;

		__asm__("popcntq %1, %0" : "=r"(n) : "rm"(bits) : "cc");
		return (unsigned int)n;
	}
#endif
	bits -= bits >> 1 & 0x5555555555555555u;
	bits = (bits & 0x3333333333333333u) + (bits >> 2 & 0x3333333333333333u);
	bits = (bits + (bits >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (unsigned int)((bits * 0x0101010101010101u) >> 56);
#endif
}

/* Slots holding an entry or a child, whatever the layout. */
static inline uint64_t present_of(const struct idr_node *node)
{
	return is_packed_leaf(node) ? node->full : node->present;
}

/* The same for a leaf, which is packed only as a leaf. */
static inline uint64_t leaf_present(const struct idr_node *leaf)
{
	return is_packed(leaf) ? leaf->full : leaf->present;
}

/* A packed node that takes no more: an insertion must move it. */
static inline bool no_room(const struct idr_node *node)
{
	return is_packed(node) && count_of(present_of(node)) == pack_cap(node);
}

/* How many of @set's slots come before slot @off. */
static inline unsigned int rank_in(uint64_t set, unsigned int off)
{
	return count_of(set & (bit(off) - 1));
}

/* Where the entry at @off (present, if @leaf is packed) is kept. */
static inline void **leaf_slot(const struct idr_node *leaf, unsigned int off)
{
	struct idr_node *l = (struct idr_node *)leaf;

	if (is_packed(l))
		return pack_slots(l) + rank_in(l->full, off);
	return &l->slots[off];
}

/* Where interior @node keeps (or would keep) its child at @off. */
static inline void **child_slot(const struct idr_node *node, unsigned int off)
{
	struct idr_node *n = (struct idr_node *)node;

	if (is_packed(n))
		return &n->slots[rank_in(n->present, off)];
	return &n->slots[off];
}

/*
 * What an interior node's slot holds for @child: its address, with bit 0
 * set if it is packed.  So a descent knows a node's layout from the slot
 * that led there, without reading its pack word, which is on another
 * cache line than the slot it reads next: a find in a whole leaf reads
 * its entry's slot and nothing else of the leaf.  The idr's top link
 * (idr_top) also has bit 1 set when the top is a leaf: see top_link().
 */
static inline void *link_to(const struct idr_node *child)
{
	return (void *)((uintptr_t)child | (child->pack & 1));
}

static inline bool link_packed(const void *link)
{
	return (uintptr_t)link & 1;
}

#define TOP_LEAF ((uintptr_t)2)

static inline struct idr_node *linked(const void *link)
{
	return (struct idr_node *)((uintptr_t)link & ~(uintptr_t)1);
}

/* The slot's link to the child at @off of interior @node, or NULL. */
static inline void *link_at(const struct idr_node *node, unsigned int off,
			    bool packed)
{
	if (__builtin_expect(packed, 0))
		return node->present >> off & 1 ? *child_slot(node, off) : NULL;
	return node->slots[off];
}

/* The child at @off of interior @node, or NULL. */
static inline struct idr_node *child_of(const struct idr_node *node,
					unsigned int off)
{
	return linked(link_at(node, off, is_packed(node)));
}

/*
 * {==================== Readers' loads ====================
 *
 * The same for readers, who may run beside the writer on an RCU idr:
 * each word loaded once, atomically (defer.h).  The writer, alone to
 * store, reads its words with the plain helpers above.  A packed node's
 * rank comes from the bitmap already loaded: the one its slots match.
 */

static inline uint64_t present_rd(const struct idr_node *node)
{
	return idr__acquire(
		is_packed_leaf(node) ? &node->full : &node->present);
}

static inline void *link_rd(const struct idr_node *node, unsigned int off,
			    bool packed)
{
	if (__builtin_expect(packed, 0)) {
		uint64_t present = idr__acquire(&node->present);

		if (!(present >> off & 1))
			return NULL;
		return idr__deref(&node->slots[rank_in(present, off)]);
	}
	return idr__deref(&node->slots[off]);
}

static inline struct idr_node *child_rd(const struct idr_node *node,
					unsigned int off)
{
	return linked(link_rd(node, off, is_packed(node)));
}

/* The entry at @off of @leaf, whose present bitmap was @set (loaded
 * with present_rd()). */
static inline void *entry_rd(const struct idr_node *leaf, uint64_t set,
			     unsigned int off)
{
	struct idr_node *l = (struct idr_node *)leaf;

	if (is_packed(l))
		return idr__deref(pack_slots(l) + rank_in(set, off));
	return idr__deref(&l->slots[off]);
}

/*
 * The top's link and its shift, read as one word (idr_top): a reader
 * never pairs a new top with an old height.  An interior node keeps its
 * shift in its pack word; a leaf may not (a tagged one keeps its aux
 * pointer there), so the link says TOP_LEAF when the top is one.  Nodes
 * never change level, so the shift read from the node is right for as
 * long as the reader holds it, whatever the tree's height is by then.
 */
static inline void *top_link(const struct idr *idr, unsigned int *shift)
{
	void *link = idr__deref(&idr->idr_top);

	READER_PAUSE();
	*shift = 0;
	if ((uintptr_t)link & TOP_LEAF)
		return (char *)link - TOP_LEAF;
	if (link)
		*shift = shift_of(linked(link));
	return link;
}

/*
 * The descent to @index's leaf, unrolled: the height is known before the
 * first load, so one jump into a switch by height (the same jump for
 * every call on a tree, so it is predicted) replaces a loop whose exit
 * test waits on each load.  The switch is on the shift itself and never
 * takes its default, so the jump needs no division by IDR_BITS and no
 * range test (find 76 to 71 instructions).  DOWN(level) goes from the
 * node at @level to its child on @index's path, after STEP(node) records
 * it; a missing child ends the descent with MISSING.  @link, the slot
 * that led to @node, says whether it is packed (see link_to()).
 */
_Static_assert(IDR__LEVELS <= 11, "DESCEND() unrolls");
#define DOWN(level, STEP, MISSING)                                      \
	case (level)*IDR_BITS:                                          \
		STEP(linked(link));                                     \
		link = step_down(link, digit(index, (level)*IDR_BITS)); \
		READER_PAUSE();                                         \
		if (!link)                                              \
			MISSING;                                        \
		__attribute__((fallthrough))
#define DESCEND(STEP, MISSING)                          \
	switch (shift) {                                \
	default: /* never: IDR__LEVELS is at most 11 */ \
		__builtin_unreachable();                \
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
		return link_rd(linked(link), off, true);
	return idr__deref(&((struct idr_node *)link)->slots[off]);
}

/* }==================== Readers' loads ==================== */

static inline bool packable(const struct idr *idr)
{
	return !(idr->idr_flags & IDR__IDA) && !idr__tagged(idr);
}

#endif /* IDR_NODE_H */
