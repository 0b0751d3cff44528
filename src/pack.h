/* SPDX-License-Identifier: MIT */
/*
 * pack.h - packed nodes (pack.c): the blocks they live in, how much room
 * each keeps, and moving entries between packed and whole nodes.  These
 * work on one node at a time; linking a new block into the tree is
 * tree.c's.  The layout and the PACK_* policy are node.h's.
 */
#ifndef IDR_PACK_H
#define IDR_PACK_H

#include "node.h"

/* Hang the child @link leads to at the free slot @off of interior
 * @node, which has room. */
IDR__HIDDEN void idr__pack_child_put(struct idr_node *node, unsigned int off,
				     void *link);
/* Spread the entries (or children) of the packed node @link leads to, at
 * @shift, over whole @node, but the one at @skip (IDR_SLOTS: none). */
IDR__HIDDEN void idr__unpack_into(struct idr_node *node, const void *link,
				  unsigned int shift, unsigned int skip);
/* A new copy of the packed node @link leads to (at @shift) without its
 * slot @skip (IDR_SLOTS: none), with room for @cap: what an RCU idr
 * publishes in its place instead of changing it under its readers.  The
 * link to the copy, or NULL if malloc refuses. */
IDR__HIDDEN void *idr__pack_copy(const void *link, unsigned int shift,
				 unsigned int skip, unsigned int cap);
/* Store @entry at the free slot @off of the packed leaf @link leads to,
 * which has room: true if it has none left. */
IDR__HIDDEN bool idr__pack_put(const void *link, unsigned int off, void *entry);
/* The room of a packed node of @n that fills the block malloc gives for
 * them anyway (see room_fitted() in pack.c). */
IDR__HIDDEN unsigned int idr__room_fitted(unsigned int n, bool interior);

/*
 * The most room a packed leaf of @n entries, whose pack word is @word,
 * keeps.  A loose one keeps
 * the room it was packed with, and as many removals again (plus an
 * eighth): churn of up to PACK_ROOM + 1 IDs around a count shrinks it
 * at most once.  A tight one (the first shrink makes it so) keeps an
 * eighth, or PACK_SLACK if more, so leaves thinned by long runs of
 * removals are small, and each shrink gives memory back.
 */
static inline unsigned int idr__room_kept(uintptr_t word, unsigned int n)
{
	/* Grown to at most twice its entries, and one: a removal and the
	 * insertion after it cost nothing (see room_to_grow() in pack.c). */
	if (word & PACK_GROWN)
		return n + 3;
	if (is_loose(word))
		return 2 * PACK_ROOM + n / 8;
	return n / 8 > PACK_SLACK ? n / 8 : PACK_SLACK;
}

/* Whether the leaf whose pack word is @word (0: whole), holding @n
 * entries after a removal, is to be packed (whole) or shrunk (packed).
 * Inline: most removals leave a whole leaf with too many entries to
 * pack, and that costs no call. */
static inline bool idr__pack_due(uintptr_t word, unsigned int n)
{
	if (word & 1)
		return word_cap(word) - n > idr__room_kept(word, n);
	return n <= PACK_MAX && n >= PACK_MIN;
}

/* The leaf @link leads to, of @n entries, due (above), packed or shrunk
 * to the room it keeps: the link to the new block, or NULL when realloc
 * fails and it stays as it is.  With @copy (an RCU idr) the block is new
 * and the leaf is left as it was. */
IDR__HIDDEN void *idr__pack_leaf(const void *link, unsigned int n, bool copy);

/* Blocks an insertion of a lone ID mallocs before it changes the tree. */
struct idr__lone_blocks {
	struct idr_node *grown; /* the full packed node, moved, or NULL */
	unsigned int grown_cap; /* its room; 0: it goes whole */
	struct idr_node *made[IDR__LEVELS]; /* new nodes, top down */
	unsigned int n_made;
};

/* The blocks for a lone insertion below the node @link leads to, at
 * @shift on its path, down to the nodes at @lowest: all of them or none
 * (false, and nothing to free). */
IDR__HIDDEN bool idr__lone_malloc(struct idr__lone_blocks *b, const void *link,
				  unsigned int shift, unsigned int lowest);
/* Copy the node @link leads to (at @shift, packed, with no room) into
 * b->grown: the link to it. */
IDR__HIDDEN void *idr__lone_grow(struct idr__lone_blocks *b, const void *link,
				 unsigned int shift);

#endif /* IDR_PACK_H */
