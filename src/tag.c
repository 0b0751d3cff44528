/* SPDX-License-Identifier: MIT */
/*
 * tag.c - generation-tagged IDs: tagged = (generation << id_bits) | id.
 *
 * The rules are gen.h's; here they meet the tree: a removal advances the
 * slot's counter or retires the slot (present and full with a NULL entry,
 * so that no search hands it out again), and a tagged ID is checked
 * against the counter its slot shows now.  idr_alloc_tagged() is in idr.c,
 * beside idr_alloc(), so that this file needs nothing of idr.c's.  Last,
 * the calls that read and set the counters and the seed, to save a
 * tagged idr and build it again.
 */
#include <limits.h>

#include "defer.h"
#include "gen.h"
#include "nodes.h"
#include "tag.h"
#include "tree.h"

int idr_tag_init(struct idr *idr, unsigned int id_bits, unsigned int flags)
{
	if (id_bits < 1 || id_bits > 30 || (flags & ~IDR_TAG_RETIRE))
		return -EINVAL;
	/* Else no ID fits: every allocation would say only -ENOSPC. */
	if (idr->idr_base >> id_bits)
		return -EINVAL;
	if (idr->idr_count || idr->idr_retired)
		return -EBUSY;
	/* The leaves an emptied tagged idr keeps stay for the same tagging;
	 * for another, their generations pass on to the seed as at
	 * idr_destroy(). */
	if (id_bits != idr->idr_id_bits ||
	    flags != (idr->idr_flags & IDR_TAG_RETIRE))
		idr__free_all(idr);
	/* The seed keeps old tags stale; another layout's tags are no tags
	 * of this one, and a seed from more generation bits could leave
	 * this one none. */
	if (id_bits != idr->idr_id_bits)
		idr->idr_gen_seed = 0;
	idr->idr_id_bits = (unsigned char)id_bits;
	idr->idr_flags = (unsigned char)((idr->idr_flags & ~IDR_TAG_RETIRE) |
					 flags);
	/* A wrapping idr's seed may be past a retiring one's limit, where it
	 * means the same (worn out) but idr_tag_set_seed() refuses it. */
	if (idr__retiring(idr) && idr->idr_gen_seed > idr__gen_limit(idr))
		idr->idr_gen_seed = idr__gen_limit(idr);
	return 0;
}

/* The generation at @counter (idr__gen()): a missing leaf's is the seed. */
static uint64_t gen_at(const struct idr *idr, const uint64_t *counter)
{
	return counter ? idr__acquire(counter)
		       : __atomic_load_n(&idr->idr_gen_seed, __ATOMIC_RELAXED);
}

/* The generation @index's slot shows now. */
static uint64_t current_gen(const struct idr *idr, uint64_t index)
{
	return gen_at(idr, idr__gen(idr, index, NULL));
}

/* A generation at the limit retires its slot (a seed there, see
 * absorb_gens(), the IDs of new leaves). */
static bool gen_retired(const struct idr *idr, uint64_t now)
{
	return idr__retiring(idr) && now >= idr__gen_limit(idr);
}

bool idr__tag_retired(const struct idr *idr, uint64_t index)
{
	return idr__retiring(idr) && gen_retired(idr, current_gen(idr, index));
}

/* Whether a tag's @gen is what a slot showing @now stands for. */
static bool gen_matches(const struct idr *idr, uint64_t now, uint64_t gen)
{
	return !gen_retired(idr, now) &&
	       (now & (idr__gen_limit(idr) - 1)) == gen;
}

/* Remove the live @index at @slot, its generation at @gen. */
static void *remove_at(struct idr *idr, uint64_t index, void **slot,
		       uint64_t *gen)
{
	void *entry = NULL;

	/* Advance first: a leaf freed below passes its counters on; and an
	 * RCU reader that loads the next pointer stored here (a release
	 * store, after this) then sees the new generation. */
	idr__publish(gen, *gen + 1);
	if (*gen >= idr__gen_limit(idr) && idr__retiring(idr)) {
		entry = *slot;
		idr__publish(slot, NULL);
		idr->idr_count--;
		idr->idr_retired++;
		return entry;
	}
	idr__delete(idr, index, &entry);
	return entry;
}

void *idr__tag_remove(struct idr *idr, uint64_t index, bool *gone)
{
	void **slot;
	uint64_t *gen = idr__gen(idr, index, &slot);

	idr__trace_path(idr, index);
	*gone = slot && !gen_retired(idr, *gen);
	return *gone ? remove_at(idr, index, slot, gen) : NULL;
}

/* The generation stays: the caller's rollback of a failed publish costs
 * no tag. */
void *idr_unalloc(struct idr *idr, unsigned long id)
{
	bool op = idr__op(idr, "unalloc", 0, 0, id), gone = false;
	void *entry = NULL;

	if (idr__tagged(idr))
		id &= idr__id_max(idr);
	/* A retired slot stays full but holds no ID: not the caller's. */
	if (id >= idr->idr_base &&
	    !(idr__tagged(idr) && idr__tag_retired(idr, id - idr->idr_base)))
		gone = idr__delete(idr, id - idr->idr_base, &entry);
	idr__done(idr, op, gone ? (int64_t)id : -ENOENT);
	return entry;
}

/* Split @tagged into the tree index and the generation; false if bad. */
static bool untag(const struct idr *idr, int tagged_id, uint64_t *index,
		  uint64_t *gen)
{
	uint64_t id;

	if (!idr__tagged(idr) || tagged_id < 0)
		return false;
	id = (unsigned int)tagged_id & idr__id_max(idr);
	if (id < idr->idr_base)
		return false;
	*index = id - idr->idr_base;
	*gen = (unsigned int)tagged_id >> idr->idr_id_bits;
	return true;
}

int idr__tag_of(const struct idr *idr, uint64_t index)
{
	uint64_t gen = current_gen(idr, index) & (idr__gen_limit(idr) - 1);

	return (int)(gen << idr->idr_id_bits | (index + idr->idr_base));
}

static int tag_check(const struct idr *idr, int tagged_id)
{
	uint64_t index, gen, *counter;
	void **slot;

	if (!idr__tagged(idr) || tagged_id < 0)
		return -EINVAL;
	if (!untag(idr, tagged_id, &index, &gen))
		return -ENOENT;
	counter = idr__gen(idr, index, &slot);
	if (!gen_matches(idr, gen_at(idr, counter), gen))
		return -ESTALE;
	idr__trace_path(idr, index);
	return slot ? 0 : -ENOENT;
}

int idr_tag_check(const struct idr *idr, int tagged_id)
{
	bool op = idr__op(idr, "tag_check", 0, 0, (unsigned int)tagged_id);

	return (int)idr__done(idr, op, tag_check(idr, tagged_id));
}

/* The slot of a live tagged ID, or NULL; its generation into *@counter. */
static void **live_slot(const struct idr *idr, int tagged_id, uint64_t *index,
			uint64_t **counter)
{
	uint64_t gen;
	void **slot;

	if (!untag(idr, tagged_id, index, &gen))
		return NULL;
	*counter = idr__gen(idr, *index, &slot);
	if (!gen_matches(idr, gen_at(idr, *counter), gen))
		return NULL;
	idr__trace_path(idr, *index);
	return slot;
}

/*
 * An RCU reader's order: the entry first, with an acquire load (the
 * generation is not reached through it, so a dependency would not do),
 * and the generation after it.  The writer advances the generation
 * before it publishes a new entry there, so an entry stored after the
 * tag went stale is never returned for it.
 */
void *idr_find_tagged(const struct idr *idr, int tagged_id)
{
	bool op = idr__op(idr, "find_tagged", 0, 0, (unsigned int)tagged_id);
	uint64_t index, gen, *counter = NULL;
	void **slot = NULL, *entry = NULL;

	if (untag(idr, tagged_id, &index, &gen)) {
		counter = idr__gen(idr, index, &slot);
		idr__trace_path(idr, index);
	}
	if (slot)
		entry = idr__acquire(slot);
	if (slot && !gen_matches(idr, gen_at(idr, counter), gen)) {
		slot = NULL;
		entry = NULL;
	}
	idr__done(idr, op, slot ? tagged_id : -ENOENT);
	return entry;
}

void *idr_remove_tagged(struct idr *idr, int tagged_id)
{
	bool op = idr__op(idr, "remove_tagged", 0, 0, (unsigned int)tagged_id);
	uint64_t index, *counter;
	void **slot = live_slot(idr, tagged_id, &index, &counter);
	void *entry = slot ? remove_at(idr, index, slot, counter) : NULL;

	idr__done(idr, op, slot ? tagged_id : -ENOENT);
	return entry;
}

int idr_tag_id(const struct idr *idr, int tagged_id)
{
	if (!idr__tagged(idr) || tagged_id < 0)
		return -EINVAL;
	return (int)((unsigned int)tagged_id & idr__id_max(idr));
}

int idr_tag_gen(const struct idr *idr, int tagged_id)
{
	if (!idr__tagged(idr) || tagged_id < 0)
		return -EINVAL;
	return (int)((unsigned int)tagged_id >> idr->idr_id_bits);
}

/* {==================== Saving and restoring ==================== */

uint64_t idr_tag_get_seed(const struct idr *idr)
{
	return __atomic_load_n(&idr->idr_gen_seed, __ATOMIC_RELAXED);
}

int idr_tag_set_seed(struct idr *idr, uint64_t seed)
{
	if (!idr__tagged(idr) ||
	    (idr__retiring(idr) && seed > idr__gen_limit(idr)))
		return -EINVAL;
	__atomic_store_n(&idr->idr_gen_seed, seed, __ATOMIC_RELAXED);
	return 0;
}

/* Store NULL at the free @index, as the tree's own (full) entry; the
 * nodes it needs come first, so -ENOMEM changes nothing. */
static int put_null(struct idr *idr, uint64_t index)
{
	struct idr__nodes spare = { NULL, 0 };
	int err = idr__reserve(idr, &spare, idr__nodes_needed(idr, index),
			       IDR__ANY_NODES);

	if (!err)
		idr__insert(idr, index, NULL, IDR__SLOT_FULL, &spare);
	return err;
}

/* @index's leaf, its counters at the seed, and no ID in it: a tagged
 * idr keeps the leaf its last ID leaves.  A worn-out idr makes no leaf
 * (its slots would be free with used-up generations). */
static int make_leaf(struct idr *idr, uint64_t index)
{
	void *entry;
	int err;

	if (idr__worn_out(idr))
		return -ENOSPC;
	err = put_null(idr, index);
	if (!err)
		idr__delete(idr, index, &entry);
	return err;
}

/* The free slot @index, its counter at the limit: retired, as
 * remove_at() leaves a slot. */
static int retire_free(struct idr *idr, uint64_t index)
{
	int err = put_null(idr, index);

	if (!err) {
		idr->idr_count--;
		idr->idr_retired++;
	}
	return err;
}

static int set_gen(struct idr *idr, unsigned long id, uint64_t gen)
{
	bool retire = idr__retiring(idr) && gen == idr__gen_limit(idr);
	uint64_t index = id - idr->idr_base;
	bool live;
	int err;

	if (!idr__tagged(idr) || id < idr->idr_base || id > idr__id_max(idr) ||
	    (idr__retiring(idr) && gen > idr__gen_limit(idr)))
		return -EINVAL;
	if (!idr__gen(idr, index, NULL) && (err = make_leaf(idr, index)))
		return err;
	live = idr__lookup_quiet(idr, index) != NULL;
	if (live && idr__tag_retired(idr, index))
		return retire ? 0 : -EBUSY;
	if (live && retire)
		return -EBUSY;
	if (retire && (err = retire_free(idr, index)))
		return err;
	idr__publish(idr__gen(idr, index, NULL), gen);
	return 0;
}

int idr_tag_set_gen(struct idr *idr, unsigned long id, uint64_t gen)
{
	bool op = idr__op(idr, "tag_set_gen", 0, 0, id);

	return (int)idr__done(idr, op, set_gen(idr, id, gen));
}

int idr_tag_get_gen(const struct idr *idr, unsigned long id, uint64_t *gen)
{
	const uint64_t *counter;

	if (!idr__tagged(idr) || id < idr->idr_base || id > idr__id_max(idr))
		return -EINVAL;
	counter = idr__gen(idr, id - idr->idr_base, NULL);
	*gen = counter ? idr__acquire(counter) : idr_tag_get_seed(idr);
	return counter ? 0 : -ENOENT;
}

/* }==================== Saving and restoring ==================== */
