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
 *   A packed interior node keeps its children side by side from "slots"
 *   on.  A packed leaf is its full bitmap and its entries, side by side
 *   (the bitmap says which slots they are), then its pack word in the
 *   first slot left free:
 *   +------+-------------------+-----------+----------+
 *   | full | entries (n of them) | pack word | (room)   |
 *   +------+-------------------+-----------+----------+
 *   One with no room left has no pack word, and the link to it says so
 *   (LINK_NO_ROOM).  So a leaf packed to fit its entries costs 8 bytes
 *   for them all, where a pack word up front cost 16.  See pack.c.
 */
#ifndef IDR_NODE_H
#define IDR_NODE_H

#include <stddef.h>

#include "defer.h"
#include "gen.h"
#include "pool.h"
#include "trace.h"

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

/* A packed leaf holds entries from right after its full bitmap. */
#define PACK_HEAD offsetof(struct idr_node, aux)
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

/* An interior node's pack word says whether it is packed; a leaf's
 * layout is in the link to it (link_packed()). */
static inline bool is_packed(const struct idr_node *node)
{
	return node->pack & 1;
}

/* The room of the packed node whose pack word is @word. */
static inline unsigned int word_cap(uintptr_t word)
{
	return (unsigned int)(word >> 16);
}

/* An interior node's room, when it is packed. */
static inline unsigned int pack_cap(const struct idr_node *node)
{
	return word_cap(node->pack);
}

/* An interior node's shift, which its pack word keeps. */
static inline unsigned int shift_of(const struct idr_node *node)
{
	return (unsigned int)(node->pack >> 8) & 0xff;
}

/* Loose: packed from a whole leaf, with room kept on purpose. */
static inline bool is_loose(uintptr_t word)
{
	return word & 2;
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

/* The bytes the default allocator takes for a block of @size: a pool
 * cell (pool.h) up to its size, a chunk of glibc's above. */
static inline size_t block_bytes(size_t size)
{
	return size <= IDR__POOL_CELL ? IDR__POOL_CELL : malloc_chunk(size);
}

/* The bytes of a leaf whose pack word is @word (0: a whole one). */
static inline size_t leaf_size(uintptr_t word)
{
	return word & 1 ? pack_size(word_cap(word), false)
			: sizeof(struct idr_node);
}

/* The bytes of interior @node, whatever its layout. */
static inline size_t interior_size(const struct idr_node *node)
{
	return is_packed(node) ? pack_size(pack_cap(node), true)
			       : sizeof(*node);
}

static inline void **pack_slots(const struct idr_node *leaf)
{
	return (void **)((char *)leaf + PACK_HEAD);
}

/*
 * Where a packed leaf of @n entries keeps its pack word: in the first
 * free slot, but in slot 1 when it is empty, since an RCU reader may
 * still read the entry just taken out of slot 0 (see leaf_take() in
 * tree.c).  Every packed leaf has room for 2 at least.
 */
static inline uintptr_t *word_at(const struct idr_node *leaf, unsigned int n)
{
	return (uintptr_t *)pack_slots(leaf) + (n ? n : 1);
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

/* Report @event at @node (or none), at @shift, that holds @index. */
static inline void node_trace(const struct idr *idr, enum idr_trace_event event,
			      uint64_t index, unsigned int shift,
			      const struct idr_node *node)
{
	if (idr__tracing(idr))
		idr__trace_at(idr, event, index, shift, digit(index, shift),
			      node ? node->full : 0);
}

/* {==================== Links ==================== */

/*
 * What an interior node's slot holds for a child: its address, with
 * LINK_PACKED set if it is packed, and LINK_NO_ROOM if it is a packed
 * leaf with no room (and so no pack word).  So a descent knows a node's
 * layout from the slot that led there, without reading the node, and a
 * find in a whole leaf reads its entry's slot and nothing else of it.
 * The idr's top link (idr_top) also has TOP_LEAF set when the top is a
 * leaf: see top_link().  Blocks are 8-byte aligned at least.
 */
#define LINK_PACKED ((uintptr_t)1)
#define TOP_LEAF ((uintptr_t)2)
#define LINK_NO_ROOM ((uintptr_t)4)
/* In a slot (never the top), where TOP_LEAF is not: a keyed block. */
#define LINK_KEYED ((uintptr_t)2)

static inline bool link_keyed(const void *link)
{
	return (uintptr_t)link & LINK_KEYED;
}

static inline bool link_packed(const void *link)
{
	return (uintptr_t)link & LINK_PACKED;
}

static inline struct idr_node *linked(const void *link)
{
	return (struct idr_node *)((uintptr_t)link &
				   ~(LINK_PACKED | LINK_NO_ROOM));
}

/* The link to interior @node, or to a whole leaf. */
static inline void *link_to(const struct idr_node *node)
{
	return (void *)((uintptr_t)node | (node->pack & LINK_PACKED));
}

/* The link to @leaf, packed with room for @cap (0: whole), holding @n. */
static inline void *link_to_leaf(const struct idr_node *leaf, unsigned int cap,
				 unsigned int n)
{
	uintptr_t bits = !cap	    ? 0
			 : cap == n ? LINK_PACKED | LINK_NO_ROOM
				    : LINK_PACKED;

	return (void *)((uintptr_t)leaf | bits);
}

/* The slots of the leaf @link leads to that hold an entry. */
static inline uint64_t leaf_present(const void *link)
{
	const struct idr_node *leaf = linked(link);

	return link_packed(link) ? leaf->full : leaf->present;
}

/* The slots of the node @link leads to, at @shift, that hold an entry
 * or a child. */
static inline uint64_t present_in(const void *link, unsigned int shift)
{
	return shift ? linked(link)->present : leaf_present(link);
}

/* The pack word of the packed leaf @link leads to, of @n entries: made
 * up (tight) if it has no room. */
static inline uintptr_t packed_word(const void *link, unsigned int n)
{
	if ((uintptr_t)link & LINK_NO_ROOM)
		return pack_word(n, false, 0);
	return *word_at(linked(link), n);
}

/* The pack word of the leaf @link leads to: 0 if it is whole. */
static inline uintptr_t leaf_word(const void *link)
{
	if (!link_packed(link))
		return 0;
	return packed_word(link, count_of(linked(link)->full));
}

/* A packed node that takes no more: an insertion must move it.  @link
 * leads to it, at @shift. */
static inline bool no_room(const void *link, unsigned int shift)
{
	const struct idr_node *node = linked(link);

	if (!shift)
		return (uintptr_t)link & LINK_NO_ROOM;
	return is_packed(node) && count_of(node->present) == pack_cap(node);
}

/* How many of @set's slots come before slot @off. */
static inline unsigned int rank_in(uint64_t set, unsigned int off)
{
	return count_of(set & (bit(off) - 1));
}

/* Where the entry at @off (present, if packed) of the leaf @link leads
 * to is kept. */
static inline void **leaf_slot(const void *link, unsigned int off)
{
	struct idr_node *l = linked(link);

	if (link_packed(link))
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

/* The slot's link to the child at @off of interior @node, or NULL. */
static inline void *link_at(const struct idr_node *node, unsigned int off,
			    bool packed)
{
	if (__builtin_expect(packed, 0))
		return node->present >> off & 1 ? *child_slot(node, off) : NULL;
	return node->slots[off];
}

/* The link to the child at @off of interior @node, or NULL. */
static inline void *child_link(const struct idr_node *node, unsigned int off)
{
	return link_at(node, off, is_packed(node));
}

/* The child at @off of interior @node, or NULL. */
static inline struct idr_node *child_of(const struct idr_node *node,
					unsigned int off)
{
	return linked(child_link(node, off));
}

/* The top's link, for the writer: the readers' word without TOP_LEAF. */
static inline void *writer_top(const struct idr *idr)
{
	return (void *)((uintptr_t)idr->idr_top & ~TOP_LEAF);
}

/* Where the link to path[@depth - 1], at @shift on @index's path, is
 * kept: its parent's slot, or the idr's top. */
static inline void **path_home(struct idr *idr, struct idr_node **path,
			       unsigned int depth, uint64_t index,
			       unsigned int shift)
{
	if (depth == 1)
		return &idr->idr_top;
	return child_slot(path[depth - 2], digit(index, shift + IDR_BITS));
}

/* The link to path[@depth - 1] (see path_home()). */
static inline void *path_link(struct idr *idr, struct idr_node **path,
			      unsigned int depth, uint64_t index,
			      unsigned int shift)
{
	return (void *)((uintptr_t)*path_home(idr, path, depth, index, shift) &
			~TOP_LEAF);
}

/* Set or clear LINK_NO_ROOM in the link at @home. */
static inline void set_no_room(void **home, bool no_room)
{
	uintptr_t link = (uintptr_t)*home & ~LINK_NO_ROOM;

	idr__publish(home, (void *)(link | (no_room ? LINK_NO_ROOM : 0)));
}

/*
 * The writer's search for the lowest free index at or above *@at, from
 * the top @node at @shift, in the usual case: one descent down the full
 * bitmaps that never has to go back up.  The depth of the index's leaf,
 * with *@at the index, path[0 .. depth - 1] its nodes, *@link the link
 * to the leaf below the top (the top's is writer_top()) and *@off its
 * slot there; 0 when the descent meets a subtree with no free index past
 * *@at, a keyed block or a missing child (seek.c's
 * idr__find_free_path() then searches).  The tree is not empty and *@at
 * below its capacity.
 */
static inline __attribute__((always_inline)) unsigned int
free_descent(struct idr_node *node, unsigned int shift, uint64_t *at,
	     struct idr_node **path, void **link, unsigned int *off)
{
	unsigned int depth = 0, i;
	uint64_t index = *at, open;
	void *l = NULL;

	for (;;) {
		path[depth++] = node;
		open = ~node->full & from(digit(index, shift));
		if (!open)
			return 0;
		i = lowest(open);
		if (i != digit(index, shift))
			index = slot_start(index, shift, i);
		if (!shift)
			break;
		l = child_link(node, i);
		if (!l || link_keyed(l))
			return 0;
		node = linked(l);
		shift -= IDR_BITS;
	}
	*at = index;
	*link = l;
	*off = i;
	return depth;
}

/* }==================== Links ==================== */

/*
 * {==================== Keyed blocks ====================
 *
 * A level-1 node's range (KEYED_SPAN indices) that holds few IDs keeps
 * them in one block instead, hung where that node would be: each ID's
 * key (its index's bits below the block's digit), sorted, then the
 * entries in the same order.
 *   +---+-----+------------------+--------------------------+
 *   | n | cap | key[cap] (16-bit) | entry[cap] (from 8-aligned) |
 *   +---+-----+------------------+--------------------------+
 * A sparse idr's lone ID took a leaf of its own and most of a level-1
 * node (71 bytes an ID, 10^6 random IDs in [0, 2^31)); one such block
 * holds a level-1 node's few IDs in 32 to 64 bytes.  Only a slot of a
 * node at KEYED_SHIFT holds one, never the top, and only a packable
 * idr's.  The link to it has LINK_KEYED set, and LINK_PACKED too, so
 * that a descent meets it on the path it takes for any packed node
 * (step_down()), and a whole tree's descent costs nothing more.
 *
 * Once readers can reach a block, nothing in it changes but an entry
 * replaced in place: an insertion publishes a copy and retires the
 * block (on an RCU idr, after readers), and so does an RCU idr's
 * removal; a plain idr's, which may not malloc, takes the ID out in
 * place and shrinks the block with realloc.  Past KEYED_MAX IDs,
 * an insertion makes the level-1 node and its leaves (tree.c), whole
 * nodes the caller reserved: KEYED_MAX + 2 at most.
 */
#define KEYED_MAX 8u
#define KEYED_SHIFT (2 * IDR_BITS)
#define KEYED_SPAN (IDR_SLOTS << IDR_BITS)
_Static_assert(KEYED_SPAN <= 1u << 16 && KEYED_MAX < KEYED_SPAN,
	       "keys are 16-bit, and a block never fills its range");

struct idr_keyed {
	uint8_t n, cap;
	uint16_t key[];
};

static inline struct idr_keyed *keyed_of(const void *link)
{
	return (struct idr_keyed *)((uintptr_t)link &
				    ~(LINK_PACKED | LINK_KEYED));
}

static inline void *link_to_keyed(const struct idr_keyed *k)
{
	return (void *)((uintptr_t)k | LINK_PACKED | LINK_KEYED);
}

/* Where a block with room for @cap keeps its entries, and its bytes. */
static inline size_t keyed_head(unsigned int cap)
{
	return (offsetof(struct idr_keyed, key) + cap * sizeof(uint16_t) + 7) &
	       ~(size_t)7;
}

static inline size_t keyed_size(unsigned int cap)
{
	return keyed_head(cap) + cap * sizeof(void *);
}

static inline void **keyed_entries(const struct idr_keyed *k)
{
	return (void **)((char *)k + keyed_head(k->cap));
}

static inline unsigned int key_of(uint64_t index)
{
	return (unsigned int)index & (KEYED_SPAN - 1);
}

/* How many of @k's keys are below @key. */
static inline unsigned int keyed_rank(const struct idr_keyed *k,
				      unsigned int key)
{
	unsigned int i = 0;

	while (i < k->n && k->key[i] < key)
		i++;
	return i;
}

/* The slot of @index's entry in @k, or NULL if it holds no such ID. */
static inline void **keyed_slot(const struct idr_keyed *k, uint64_t index)
{
	unsigned int key = key_of(index), i = keyed_rank(k, key);

	return i < k->n && k->key[i] == key ? keyed_entries(k) + i : NULL;
}

/* The keys of @k in its leaf-sized run @d (keys >> IDR_BITS == @d), as
 * a leaf's bitmap; and the rank of the run's first key in *@first. */
static inline uint64_t keyed_run(const struct idr_keyed *k, unsigned int d,
				 unsigned int *first)
{
	unsigned int i = keyed_rank(k, d << IDR_BITS);
	uint64_t set = 0;

	*first = i;
	for (; i < k->n && k->key[i] >> IDR_BITS == d; i++)
		set |= bit(k->key[i] & SLOT_MASK);
	return set;
}

/* The runs of @k that fill their leaf's slots: a level-1 node's full
 * bitmap (none but at the fewest bits a level). */
static inline uint64_t keyed_full(const struct idr_keyed *k)
{
	uint64_t full = 0;
	unsigned int d, first;

	for (d = 0; KEYED_MAX >= IDR_SLOTS && d < IDR_SLOTS; d++)
		if (keyed_run(k, d, &first) == ALL_SLOTS)
			full |= bit(d);
	return full;
}

/* The leaf-sized runs of @k that hold a key, as a level-1 node's bitmap. */
static inline uint64_t keyed_runs(const struct idr_keyed *k)
{
	uint64_t set = 0;
	unsigned int i;

	for (i = 0; i < k->n; i++)
		set |= bit(k->key[i] >> IDR_BITS);
	return set;
}

/* The bytes of the node @link leads to, at @shift. */
static inline size_t link_size(const void *link, unsigned int shift)
{
	if (link_keyed(link))
		return keyed_size(keyed_of(link)->cap);
	return shift ? interior_size(linked(link)) : leaf_size(leaf_word(link));
}

/* }==================== Keyed blocks ==================== */

/*
 * {==================== Readers' loads ====================
 *
 * The same for readers, who may run beside the writer on an RCU idr:
 * each word loaded once, atomically (defer.h).  The writer, alone to
 * store, reads its words with the plain helpers above.  A packed node's
 * rank comes from the bitmap already loaded: the one its slots match.
 */

/* The entries of the leaf @link leads to. */
static inline uint64_t present_rd(const void *link)
{
	const struct idr_node *leaf = linked(link);

	return idr__acquire(link_packed(link) ? &leaf->full : &leaf->present);
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

/* The link to the child at @off of interior @node, or NULL. */
static inline void *child_link_rd(const struct idr_node *node, unsigned int off)
{
	return link_rd(node, off, is_packed(node));
}

/* The entry at @off of the leaf @link leads to, whose present bitmap was
 * @set (loaded with present_rd()). */
static inline void *entry_rd(const void *link, uint64_t set, unsigned int off)
{
	struct idr_node *l = linked(link);

	if (link_packed(link))
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
	if (__builtin_expect((uintptr_t)link & 1, 0)) {
		/* A keyed block ends the descent: its link stands for the
		 * leaf (only a level-1 node's place holds one). */
		if (link_keyed(link))
			return link;
		return link_rd(linked(link), off, true);
	}
	return idr__deref(&((struct idr_node *)link)->slots[off]);
}

/* }==================== Readers' loads ==================== */

static inline bool packable(const struct idr *idr)
{
	return !(idr->idr_flags & IDR__IDA) && !idr__tagged(idr);
}

#endif /* IDR_NODE_H */
