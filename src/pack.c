/* SPDX-License-Identifier: MIT */
/*
 * pack.c - packed nodes: blocks just big enough for what a node holds.
 *
 * A leaf of a plain idr (not an IDA's, not a tagged one) that has lost
 * many entries is *packed*: its entries sit side by side, in slot order,
 * in a block just big enough (cap), and slot @off is entry number
 * popcount(full below @off).  Its full bitmap is then its present bitmap
 * too, and its pack word (cap and flags) sits in the first free slot
 * after its entries (node.h draws it); one with no room has none, and
 * the link to it says so.  Removal packs and shrinks leaves with realloc (which gives memory
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
 * has no room.  A parent's slot tags a packed child (node.h's links).
 * Each block is as big as malloc's chunk for it is anyway (see
 * room_fitted()): a packed leaf's room is even, at least 2.
 *
 * Everything here works on one node; tree.c links the blocks in.
 */
#include <string.h>

#include "alloc.h"
#include "pack.h"

/* On an RCU idr the child goes last (see must_move()): nothing moves,
 * and the slot is set before the bit that lets readers see it. */
void idr__pack_child_put(struct idr_node *node, unsigned int off, void *link)
{
	void **s = child_slot(node, off);

	if (is_packed(node)) {
		void **end = node->slots + count_of(node->present);

		memmove(s + 1, s, (size_t)(end - s) * sizeof(*s));
	}
	idr__publish(s, link);
	idr__set_bits(&node->present, bit(off));
}

void idr__unpack_into(struct idr_node *node, const void *link,
		      unsigned int shift, unsigned int skip)
{
	const struct idr_node *pack = linked(link);
	uint64_t set = shift ? pack->present : pack->full,
		 gone = skip < IDR_SLOTS ? bit(skip) : 0;
	void *const *from = shift ? pack->slots : pack_slots(pack);

	node->full = pack->full & ~gone;
	node->present = set & ~gone;
	node->pack = whole_word(shift);
	for (; set; set &= set - 1, from++)
		if (!(set & gone & -set))
			node->slots[lowest(set)] = *from;
}

/* Give packed leaf @leaf, of @n entries in a block of @cap, the pack
 * word @word where it goes: the link to it. */
static void *leaf_worded(struct idr_node *leaf, unsigned int n,
			 unsigned int cap, uintptr_t word)
{
	if (n < cap)
		*word_at(leaf, n) = word;
	return link_to_leaf(leaf, cap, n);
}

void *idr__pack_copy(const void *link, unsigned int shift, unsigned int skip,
		     unsigned int cap)
{
	const struct idr_node *node = linked(link);
	uint64_t set = shift ? node->present : node->full,
		 gone = skip < IDR_SLOTS ? bit(skip) : 0;
	uintptr_t word = shift ? node->pack : leaf_word(link);
	struct idr_node *to = idr__malloc(pack_size(cap, shift));
	void *const *from = shift ? node->slots : pack_slots(node);
	void **put;

	if (!to)
		return NULL;
	put = shift ? to->slots : pack_slots(to);
	for (; set; set &= set - 1, from++)
		if (!(set & gone & -set))
			*put++ = *from;
	to->full = node->full & ~gone;
	if (cap != word_cap(word))
		word = pack_word(cap, false, shift);
	if (!shift)
		return leaf_worded(to, count_of(to->full), cap, word);
	to->present = node->present & ~gone;
	to->pack = word;
	return link_to(to);
}

/* Its pack word moves up a slot; when the entry takes the last room, it
 * goes, and the caller sets LINK_NO_ROOM in the link.  Out of line: most
 * insertions are into whole leaves. */
__attribute__((noinline)) bool idr__pack_put(const void *link, unsigned int off,
					     void *entry)
{
	struct idr_node *leaf = linked(link);
	unsigned int n = count_of(leaf->full);
	uintptr_t word = *word_at(leaf, n);
	void **s = leaf_slot(link, off);

	if (n + 1 < word_cap(word))
		*word_at(leaf, n + 1) = word;
	/* On an RCU idr the entry goes last: nothing moves (must_move() in
	 * tree.c). */
	memmove(s + 1, s, (size_t)(pack_slots(leaf) + n - s) * sizeof(*s));
	idr__publish(s, entry);
	idr__set_bits(&leaf->full, bit(off));
	return n + 1 == word_cap(word);
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
void *idr__pack_leaf(const void *link, unsigned int n, bool copy)
{
	struct idr_node *leaf = linked(link), *small;
	uintptr_t word = leaf_word(link);
	unsigned int cap;
	bool loose = !(word & 1);

	if (!loose) {
		cap = idr__room_fitted(n, false);
		if (copy)
			return idr__pack_copy(link, 0, IDR_SLOTS, cap);
		small = idr__shrink(leaf, leaf_size(word),
				    pack_size(cap, false));
	} else {
		cap = idr__room_fitted(n + PACK_ROOM, false);
		small = pack_whole(leaf, n, cap, copy);
	}
	if (!small)
		return NULL;
	return leaf_worded(small, n, cap, pack_word(cap, loose, 0));
}

/* }==================== Removal: packing and shrinking ==================== */

/* {==================== Lone IDs ==================== */

/*
 * The room that fills the block malloc gives for @cap anyway (at most a
 * whole node's): glibc hands out chunks in steps of 16 bytes, 8 of them
 * its own header, and 32 at least, so a packed node's room comes in
 * steps of 2, from 2 (a leaf of room 1, 16 bytes, would leave 8 bytes of
 * its chunk unused).
 */
unsigned int idr__room_fitted(unsigned int cap, bool interior)
{
	size_t chunk = malloc_chunk(pack_size(cap, interior));
	unsigned int room = (unsigned int)((chunk - 8 - pack_size(0, interior)) /
					   sizeof(void *));

	return room < IDR_SLOTS ? room : IDR_SLOTS;
}

/* The room a packed node of @n gets when it must take one more: twice
 * as much, up to about PACK_MAX; 0 if it is to go whole instead. */
static unsigned int room_to_grow(unsigned int n, bool interior)
{
	unsigned int cap = 2 * (n + 1);

	if (n + 1 > PACK_MAX)
		return 0;
	return idr__room_fitted(cap < PACK_MAX ? cap : PACK_MAX, interior);
}

/* The block of the node on a lone insertion's path that grows, at
 * @shift: packed, or whole (room 0). */
static size_t grown_size(const struct idr__lone_blocks *b, unsigned int shift)
{
	return b->grown_cap ? pack_size(b->grown_cap, shift)
			    : sizeof(struct idr_node);
}

/* The block of a lone insertion's new node at @shift. */
static size_t lone_size(unsigned int shift)
{
	return pack_size(idr__room_fitted(1, shift), shift);
}

static void lone_free(struct idr__lone_blocks *b, unsigned int shift)
{
	unsigned int i;

	for (i = 0; i < b->n_made; i++)
		idr__free(b->made[i], lone_size(shift - (i + 1) * IDR_BITS));
	if (b->grown)
		idr__free(b->grown, grown_size(b, shift));
}

/*
 * Malloc what inserting below @node, at @shift on the path, takes: a
 * block with room to grow into when it has none, and a packed node a
 * level below it, with room for one (or what its block holds anyway),
 * down to @lowest.  False when it would grow past PACK_MAX (the
 * insertion then takes whole nodes) or malloc refuses.
 */
bool idr__lone_malloc(struct idr__lone_blocks *b, const void *link,
		      unsigned int shift, unsigned int lowest)
{
	const struct idr_node *node = linked(link);
	unsigned int s;

	*b = (struct idr__lone_blocks){ NULL, 0, { NULL }, 0 };
	if (no_room(link, shift)) {
		b->grown_cap = room_to_grow(shift ? pack_cap(node)
						  : count_of(node->full),
					    shift != 0);
		/* A leaf past PACK_MAX goes whole with the whole nodes of any
		 * insertion; an interior node goes whole here, lest the
		 * nodes below it be whole too. */
		if (!b->grown_cap && !shift)
			return false;
		b->grown = idr__malloc(grown_size(b, shift));
		if (!b->grown)
			return false;
	}
	for (s = shift; s > lowest; s -= IDR_BITS) {
		unsigned int below = s - IDR_BITS,
			     cap = idr__room_fitted(1, below);
		struct idr_node *made = idr__malloc(lone_size(below));

		if (!made) {
			lone_free(b, shift);
			return false;
		}
		made->full = 0;
		if (below) {
			made->present = 0;
			made->pack = pack_word(cap, false, below);
		} else {
			*word_at(made, 0) = pack_word(cap, false, 0);
		}
		b->made[b->n_made++] = made;
	}
	return true;
}

void *idr__lone_grow(struct idr__lone_blocks *b, const void *link,
		     unsigned int shift)
{
	const struct idr_node *node = linked(link);
	struct idr_node *to = b->grown;
	unsigned int n;

	if (shift && !b->grown_cap) {
		memset(to, 0, sizeof(*to));
		idr__unpack_into(to, link, shift, IDR_SLOTS);
		return link_to(to);
	}
	if (shift) {
		memcpy(to, node, pack_size(pack_cap(node), true));
		to->pack = pack_word(b->grown_cap, false, shift);
		return link_to(to);
	}
	/* Loose or not is never read here: idr__room_kept() asks a grown leaf
	 * PACK_GROWN first. */
	n = count_of(node->full);
	memcpy(to, node, pack_size(n, false));
	return leaf_worded(to, n, b->grown_cap,
			   pack_word(b->grown_cap, false, 0) | PACK_GROWN);
}

/* }==================== Lone IDs ==================== */
