/* SPDX-License-Identifier: MIT */
/*
 * pack.c - packed nodes: blocks just big enough for what a node holds.
 *
 * A leaf of a plain idr (not an IDA's, not a tagged one) that has lost
 * many entries is *packed*: its entries sit side by side, in slot order,
 * in a block just big enough (cap), and slot @off is entry number
 * popcount(full below @off).  Its full bitmap is then its present bitmap
 * too.  Removal packs and shrinks leaves with realloc (which gives memory
 * back, never takes it); an insertion into a packed leaf with no room
 * left unpacks it into a whole node, counted like any new node.  Packing
 * leaves room for PACK_ROOM more (see idr__pack_due() in pack.h), so that churn
 * around one count does not unpack and pack again at every step.
 *
 * An interior node of such an idr is packed the same way, its children
 * side by side where a whole node's slots begin (both bitmaps kept).
 * Interior nodes and leaves are born packed when an ID is asked for by
 * itself (idr__insert_lone() in tree.c), and such an insertion moves a
 * packed node with no room to a block with room for twice its entries.
 * Every other insertion makes whole nodes and unpacks a packed one that
 * has no room.  A parent's slot tags a packed child (link_to()).
 *
 * Everything here works on one node; tree.c links the blocks in.
 */
#include <string.h>

#include "alloc.h"
#include "pack.h"

/* On an RCU idr the child goes last (see must_move()): nothing moves,
 * and the slot is set before the bit that lets readers see it. */
void idr__pack_child_put(struct idr_node *node, unsigned int off,
			 struct idr_node *child)
{
	void **s = child_slot(node, off);

	if (is_packed(node)) {
		void **end = node->slots + count_of(node->present);

		memmove(s + 1, s, (size_t)(end - s) * sizeof(*s));
	}
	idr__publish(s, link_to(child));
	idr__set_bits(&node->present, bit(off));
}

void idr__unpack_into(struct idr_node *node, struct idr_node *pack,
		      unsigned int skip)
{
	uint64_t set = present_of(pack),
		 gone = skip < IDR_SLOTS ? bit(skip) : 0;
	void **from = is_packed_leaf(pack) ? pack_slots(pack) : pack->slots;

	node->full = pack->full & ~gone;
	node->present = set & ~gone;
	node->pack = whole_word(is_packed_leaf(pack) ? 0 : shift_of(pack));
	for (; set; set &= set - 1, from++)
		if (!(set & gone & -set))
			node->slots[lowest(set)] = *from;
}

struct idr_node *idr__pack_copy(const struct idr_node *node, unsigned int shift,
				unsigned int skip, unsigned int cap)
{
	uint64_t set = present_of(node),
		 gone = skip < IDR_SLOTS ? bit(skip) : 0;
	struct idr_node *to = idr__malloc(pack_size(cap, shift));
	void *const *from = shift ? node->slots : pack_slots((void *)node);
	void **put;

	if (!to)
		return NULL;
	put = shift ? to->slots : pack_slots(to);
	for (; set; set &= set - 1, from++)
		if (!(set & gone & -set))
			*put++ = *from;
	to->full = node->full & ~gone;
	if (shift)
		to->present = node->present & ~gone;
	to->pack = cap == pack_cap(node) ? node->pack
					 : pack_word(cap, false, shift);
	return to;
}

/* {==================== Removal: packing and shrinking ==================== */

/* Copy the @n entries of whole @leaf side by side into a block of @cap:
 * @leaf's own, shrunk, or (@copy) a new one. */
static struct idr_node *pack_whole(struct idr_node *leaf, unsigned int n,
				   unsigned int cap, bool copy)
{
	void *entries[IDR_SLOTS];
	struct idr_node *small;
	unsigned int k = 0;
	uint64_t set = leaf->present, full = leaf->full;

	for (; set; set &= set - 1)
		entries[k++] = leaf->slots[lowest(set)];
	if (copy)
		small = idr__malloc(pack_size(cap, false));
	else
		small = idr__shrink(leaf, sizeof(*leaf), pack_size(cap, false));
	if (small) {
		memcpy(pack_slots(small), entries, n * sizeof(void *));
		small->full = full;
	}
	return small;
}

/*
 * Pack a leaf that has become sparse, or shrink a packed one that has
 * more room than it keeps.  Hysteresis: the insertion that finds a
 * packed leaf full unpacks it, so a whole leaf is packed loose, with
 * PACK_ROOM to spare, which it keeps through a few removals; only then
 * does it shrink, tight, to no room.  So churn costs at most one unpack
 * (one node) when it starts at a full packed leaf, and nothing after.
 */
struct idr_node *idr__pack_leaf(struct idr_node *leaf, unsigned int n,
				bool copy)
{
	struct idr_node *small;
	unsigned int cap = n;
	bool loose = false;

	if (is_packed(leaf) && copy) {
		small = idr__pack_copy(leaf, 0, IDR_SLOTS, n);
	} else if (is_packed(leaf)) {
		small = idr__shrink(leaf, node_size(leaf), pack_size(n, false));
	} else {
		cap = n + PACK_ROOM < IDR_SLOTS ? n + PACK_ROOM : IDR_SLOTS;
		loose = true;
		small = pack_whole(leaf, n, cap, copy);
	}
	if (small)
		small->pack = pack_word(cap, loose, 0);
	return small;
}

/* }==================== Removal: packing and shrinking ==================== */

/* {==================== Lone IDs ==================== */

/*
 * The room that fills the block malloc gives for @cap anyway: glibc hands
 * out chunks in steps of 16 bytes, 8 of them its own header, so that a
 * leaf of room 1 (24 bytes) fills its chunk but an interior node of room
 * 1 (32) would leave 8 bytes of it unused.
 */
static unsigned int room_fitted(unsigned int cap, bool interior)
{
	size_t chunk = malloc_chunk(pack_size(cap, interior));

	return (unsigned int)((chunk - 8 - pack_size(0, interior)) /
			      sizeof(void *));
}

/* The room a packed node of @n gets when it must take one more: twice
 * as much, up to about PACK_MAX; 0 if it is to go whole instead. */
static unsigned int room_to_grow(unsigned int n, bool interior)
{
	unsigned int cap = 2 * (n + 1);

	if (n + 1 > PACK_MAX)
		return 0;
	return room_fitted(cap < PACK_MAX ? cap : PACK_MAX, interior);
}

static void lone_free(struct idr__lone_blocks *b, unsigned int shift)
{
	unsigned int i;

	for (i = 0; i < b->n_made; i++)
		idr__free(b->made[i], node_size(b->made[i]));
	if (b->grown)
		idr__free(b->grown, pack_size(b->grown_cap, shift));
}

/*
 * Malloc what inserting below @node, at @shift on the path, takes: a
 * block with room to grow into when it has none, and a packed node a
 * level below it, with room for one (or what its block holds anyway).
 * False when it would grow past PACK_MAX (the insertion then takes whole
 * nodes) or malloc refuses.
 */
bool idr__lone_malloc(struct idr__lone_blocks *b, const struct idr_node *node,
		      unsigned int shift)
{
	unsigned int s;

	*b = (struct idr__lone_blocks){ NULL, 0, { NULL }, 0 };
	if (no_room(node)) {
		b->grown_cap = room_to_grow(pack_cap(node), shift != 0);
		if (!b->grown_cap)
			return false;
		b->grown = idr__malloc(pack_size(b->grown_cap, shift));
		if (!b->grown)
			return false;
	}
	for (s = shift; s; s -= IDR_BITS) {
		bool interior = s > IDR_BITS;
		unsigned int cap = room_fitted(1, interior);
		struct idr_node *made = idr__malloc(pack_size(cap, interior));

		if (!made) {
			lone_free(b, shift);
			return false;
		}
		made->full = made->present = 0;
		made->pack = pack_word(cap, false, s - IDR_BITS);
		b->made[b->n_made++] = made;
	}
	return true;
}

struct idr_node *idr__lone_grow(struct idr__lone_blocks *b,
				const struct idr_node *node, unsigned int shift)
{
	struct idr_node *to = b->grown;

	memcpy(to, node, node_size(node));
	/* Loose or not is never read here: idr__room_kept() asks a grown leaf
	 * PACK_GROWN first, and interior nodes never shrink. */
	to->pack = pack_word(b->grown_cap, false, shift) |
		   (shift ? 0 : PACK_GROWN);
	return to;
}

/* }==================== Lone IDs ==================== */
