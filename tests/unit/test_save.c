/* SPDX-License-Identifier: MIT */
/*
 * test_save.c - reading and setting a tagged idr's counters and seed
 * (idr_tag_get_seed, idr_tag_set_seed, idr_tag_get_gen, idr_tag_set_gen):
 * a copy built from what was read answers every tag as the original
 * does, stale ones included; a failed call changes nothing.
 */
#include <stdlib.h>

#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "seam.h"

#define GFP GFP_KERNEL

static void *val(unsigned long n)
{
	return (void *)(uintptr_t)((n + 1) * 8);
}

static void set_seed_arguments(void)
{
	DEFINE_IDR(plain);
	DEFINE_IDR(retiring);
	uint64_t gen = 99;

	CHECK_EQ(idr_tag_set_seed(&plain, 1), -EINVAL);
	CHECK_EQ(idr_tag_set_gen(&plain, 0, 1), -EINVAL);
	CHECK_EQ(idr_tag_get_gen(&plain, 0, &gen), -EINVAL);
	CHECK_EQ(gen, 99);
	CHECK_EQ(idr_tag_get_seed(&plain), 0);
	CHECK_EQ(idr_tag_init(&retiring, 28, IDR_TAG_RETIRE), 0);
	/* 3 generation bits: the limit is 8. */
	CHECK_EQ(idr_tag_set_seed(&retiring, 9), -EINVAL);
	CHECK_EQ(idr_tag_set_gen(&retiring, 5, 9), -EINVAL);
	CHECK_EQ(idr_tag_set_gen(&retiring, 1u << 28, 1), -EINVAL);
	CHECK_EQ(idr_tag_set_seed(&retiring, 8), 0);
	CHECK_EQ(idr_tag_get_seed(&retiring), 8);
	CHECK(idr_is_empty(&retiring) && CHECK_SOUND(&retiring));
	idr_destroy(&retiring);
}

/* A slot with no leaf shows the seed; setting its counter makes the
 * leaf, which stays with no ID in it. */
static void set_gen_makes_leaf(void)
{
	DEFINE_IDR(idr);
	uint64_t gen = 0;
	int tagged;

	CHECK_EQ(idr_tag_init(&idr, 16, 0), 0);
	CHECK_EQ(idr_tag_set_seed(&idr, 4), 0);
	CHECK_EQ(idr_tag_get_gen(&idr, 70, &gen), -ENOENT);
	CHECK_EQ(gen, 4);
	CHECK_EQ(idr_tag_set_gen(&idr, 70, 9), 0);
	CHECK_EQ(idr_tag_get_gen(&idr, 70, &gen), 0);
	CHECK_EQ(gen, 9);
	CHECK_EQ(idr_tag_get_gen(&idr, 71, &gen), 0);
	CHECK_EQ(gen, 4);
	CHECK(idr_is_empty(&idr) && CHECK_SOUND(&idr));
	tagged = idr_alloc_tagged(&idr, val(70), 70, 71, GFP);
	CHECK_EQ(idr_tag_gen(&idr, tagged), 9);
	/* An allocated ID's tag follows its counter. */
	CHECK_EQ(idr_tag_set_gen(&idr, 70, 12), 0);
	CHECK_EQ(idr_tag_check(&idr, tagged), -ESTALE);
	CHECK_EQ(idr_tag_check(&idr, 12 << 16 | 70), 0);
	idr_destroy(&idr);
	/* idr_destroy() passes the highest counter (the live one's + 1) on. */
	CHECK_EQ(idr_tag_get_seed(&idr), 13);
}

/* With IDR_TAG_RETIRE the limit retires a free slot, never a live one,
 * and a retired slot stays so. */
static void set_gen_retires(void)
{
	DEFINE_IDR(idr);
	struct idr_info info;
	int tagged;

	CHECK_EQ(idr_tag_init(&idr, 28, IDR_TAG_RETIRE), 0);
	tagged = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
	CHECK_EQ(idr_tag_set_gen(&idr, 0, 8), -EBUSY);
	CHECK_EQ(idr_tag_check(&idr, tagged), 0);
	CHECK_EQ(idr_tag_set_gen(&idr, 1, 8), 0);
	idr_info(&idr, &info);
	CHECK_EQ(info.retired, 1);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_EQ(idr_tag_set_gen(&idr, 1, 8), 0);
	CHECK_EQ(idr_tag_set_gen(&idr, 1, 3), -EBUSY);
	CHECK_EQ(idr_alloc_tagged(&idr, NULL, 1, 2, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP), 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Worn out, an idr makes no new leaf; the slots of those it keeps are
 * still set and handed out. */
static void worn_out_makes_no_leaf(void)
{
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 28, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_tag_set_gen(&idr, 3, 5), 0);
	CHECK_EQ(idr_tag_set_seed(&idr, 8), 0);
	CHECK_EQ(idr_tag_set_gen(&idr, 4000, 1), -ENOSPC);
	CHECK_EQ(idr_tag_set_gen(&idr, 4, 2), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, NULL, 3, 4, GFP), 5 << 28 | 3);
	CHECK_EQ(idr_alloc(&idr, NULL, 100, 0, GFP), -ENOSPC);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* -ENOMEM while making a leaf leaves the idr as it was. */
static void set_gen_out_of_memory(void)
{
	DEFINE_IDR(idr);
	struct idr_snap was;
	uint64_t gen = 0;

	CHECK_EQ(idr_tag_init(&idr, 20, 0), 0);
	CHECK_EQ(idr_alloc(&idr, val(1), 1, 2, GFP), 1);
	was = idr_snap_of(&idr);
	seam_fault_inject(0, 1);
	CHECK_EQ(idr_tag_set_gen(&idr, 5000, 3), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_tag_get_gen(&idr, 5000, &gen), -ENOENT);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Counters read from a random tagged idr and set on a new one: every
 * tagged ID of every generation answers the same in both. */
static void copy_of(struct idr *copy, const struct idr *orig, int bits,
		    unsigned int flags, int ids)
{
	uint64_t gen;
	int id;

	CHECK_EQ(idr_tag_init(copy, (unsigned int)bits, flags), 0);
	CHECK_EQ(idr_tag_set_seed(copy, idr_tag_get_seed(orig)), 0);
	for (id = 0; id < ids; id++)
		if (idr_tag_get_gen(orig, (unsigned long)id, &gen) == 0)
			CHECK_EQ(idr_tag_set_gen(copy, (unsigned long)id, gen),
				 0);
	for (id = 0; id < ids; id++)
		if (idr_find(orig, (unsigned long)id))
			CHECK_EQ(idr_alloc(copy, val((unsigned long)id), id,
					   id + 1, GFP),
				 id);
}

/* Whether both idrs answer idr_tag_check() of @tagged alike. */
static int same_check(const struct idr *a, const struct idr *b, int tagged)
{
	return CHECK_EQ(idr_tag_check(a, tagged), idr_tag_check(b, tagged));
}

static void copies_answer_alike(void)
{
	const int bits = 27, ids = 300; /* 16 generations */
	unsigned int flags, seed = 5;

	for (flags = 0; flags <= IDR_TAG_RETIRE; flags++) {
		DEFINE_IDR(orig);
		DEFINE_IDR(copy);
		int step, id, gen, tries = 0;

		CHECK_EQ(idr_tag_init(&orig, bits, flags), 0);
		for (step = 0; step < 6000; step++) {
			seed = seed * 1103515245u + 12345u;
			id = (int)(seed >> 8) % ids;
			if (idr_find(&orig, (unsigned long)id))
				idr_remove(&orig, (unsigned long)id);
			else
				idr_alloc(&orig, val((unsigned long)id), id,
					  id + 1, GFP);
		}
		copy_of(&copy, &orig, bits, flags, ids);
		CHECK_EQ(idr_count(&copy), idr_count(&orig));
		for (id = 0; id < ids + 70; id++)
			for (gen = 0; gen < 16; gen++)
				tries += same_check(&copy, &orig,
						    gen << bits | id);
		CHECK_EQ(tries, (ids + 70) * 16);
		CHECK_EQ(idr_alloc_tagged(&copy, NULL, 0, 0, GFP),
			 idr_alloc_tagged(&orig, NULL, 0, 0, GFP));
		CHECK_SOUND(&copy);
		idr_destroy(&orig);
		idr_destroy(&copy);
		CHECK_EQ(idr_tag_get_seed(&copy), idr_tag_get_seed(&orig));
	}
}

void suite_save(void)
{
	RUN(set_seed_arguments);
	RUN(set_gen_makes_leaf);
	RUN(set_gen_retires);
	RUN(worn_out_makes_no_leaf);
	RUN(set_gen_out_of_memory);
	RUN(copies_answer_alike);
}
