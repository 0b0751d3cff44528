/* SPDX-License-Identifier: MIT */
/*
 * test_fault.c - fault injection: for every n, the n-th allocation of a
 * scripted scenario fails.  The call that meets the failure must return
 * -ENOMEM and leave the tree exactly as it was, and nothing may leak.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "nodes.h"
#include "tree.h"

#define SCENARIO_STEPS 2000

struct scene {
	struct idr idr;
	struct model model;
	uint64_t rng;
	unsigned long enomem; /* calls that returned -ENOMEM */
};

/* IDs spread so that allocations grow the tree and add paths. */
static uint32_t scene_id(struct scene *s)
{
	static const uint32_t anchors[] = {
		0, 1u << 9, 1u << 15, 1u << 21, 1u << 27, UINT32_MAX - 70u,
	};

	if (rnd_below(&s->rng, 3) == 0)
		return (uint32_t)rnd_next(&s->rng);
	return anchors[rnd_below(&s->rng, 6)] +
	       (uint32_t)rnd_below(&s->rng, 70);
}

/* Mostly a live ID, so that removals free nodes to be made again. */
static uint32_t scene_live(struct scene *s)
{
	if (s->model.n && rnd_below(&s->rng, 4))
		return s->model.ids[rnd_below(&s->rng, s->model.n)];
	return scene_id(s);
}

static bool scene_remove(struct scene *s)
{
	uint32_t id = scene_live(s);
	void *old = NULL;

	model_remove(&s->model, id, &old);
	return CHECK(idr_remove(&s->idr, id) == old);
}

/* A failed call must leave the tree as the model still has it. */
static bool scene_enomem(struct scene *s)
{
	s->enomem++;
	return CHECK_SOUND(&s->idr) && CHECK(model_matches(&s->model, &s->idr));
}

static bool scene_cyclic(struct scene *s, void *v)
{
	int start = (int)(scene_id(s) & INT_MAX), got;

	idr_preload(GFP_KERNEL);
	got = idr_alloc_cyclic(&s->idr, v, start, 0, 0);
	idr_preload_end();
	if (got == -ENOMEM)
		return scene_enomem(s);
	return CHECK_EQ(got, model_alloc_cyclic(&s->model, v, start, 0));
}

static bool scene_alloc(struct scene *s, void *v)
{
	uint32_t a = scene_id(s), b = a;
	int got = idr_alloc_u32(&s->idr, v, &a, UINT32_MAX, 0);

	if (got == -ENOMEM)
		return CHECK_EQ(a, b) && scene_enomem(s);
	return CHECK_EQ(got, model_alloc_u32(&s->model, v, &b, UINT32_MAX)) &&
	       CHECK_EQ(a, b);
}

/* One scripted step; false when a check failed. */
static bool scene_step(struct scene *s, unsigned long i)
{
	void *v = (void *)(uintptr_t)(16 * (i + 1));

	if (i % 3 == 2)
		return scene_remove(s);
	if (i % 23 == 3)
		return scene_cyclic(s, v);
	return scene_alloc(s, v);
}

/* Run the scenario with the allocation after @skip failing @count times. */
static unsigned long scene_run(unsigned long skip, unsigned long count)
{
	struct scene s = { .rng = 42 };
	struct idr_mem_stats before, after;
	unsigned long i;

	idr_mem_stats(&before);
	idr_init(&s.idr);
	model_init(&s.model, 0);
	idr_fault_inject(skip, count);
	for (i = 0; i < SCENARIO_STEPS; i++)
		if (!scene_step(&s, i)) {
			fprintf(stderr, "fault: skip %lu: step %lu\n", skip, i);
			break;
		}
	idr_fault_inject(0, 0);
	CHECK_SOUND(&s.idr);
	CHECK(model_matches(&s.model, &s.idr));
	idr_destroy(&s.idr);
	model_free(&s.model);
	idr_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
	return s.enomem;
}

/*
 * The n-th allocation fails, for every n until the scenario needs none.
 * A failure inside idr_preload() is silent (idr_alloc() mallocs what the
 * preload lacked); anywhere else exactly one call returns -ENOMEM.
 */
static void fault_each_allocation(void)
{
	struct idr_mem_stats stats;
	unsigned long skip, total, failed, enomem = 0;

	idr_mem_stats(&stats);
	total = stats.allocs;
	failed = stats.failed;
	CHECK_EQ(scene_run(0, 0), 0);
	idr_mem_stats(&stats);
	total = stats.allocs - total;
	CHECK(total > 100);
	for (skip = 0; skip < total; skip++) {
		unsigned long n = scene_run(skip, 1);

		CHECK(n <= 1);
		enomem += n;
	}
	idr_mem_stats(&stats);
	CHECK_EQ(stats.failed - failed, total);
	/* Most allocations happen outside a preload. */
	CHECK(enomem > total / 2);
	printf("# fault: each of %lu allocations failed in turn; "
	       "%lu calls returned -ENOMEM\n",
	       total, enomem);
}

/* From the n-th allocation on, every one fails: removals still work. */
static void fault_from_allocation_on(void)
{
	unsigned long skip;

	for (skip = 0; skip < 1000; skip += 11)
		CHECK(scene_run(skip, ULONG_MAX) > 0);
}

/* A failed insertion must not take the caller's preloaded nodes. */
static void fault_keeps_preload(void)
{
	struct idr_mem_stats before, after;
	unsigned int short_by_one = IDR__GROW_NODES(32) - 1;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, 0), 0);
	/* A preload cut short by malloc, one node short of this path. */
	idr_fault_inject(short_by_one, ULONG_MAX);
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr__preloaded(), short_by_one);
	idr_mem_stats(&before);
	CHECK_EQ(idr_alloc(&idr, &idr, INT_MAX, 0, 0), -ENOMEM);
	idr_fault_inject(0, 0);
	CHECK_EQ(idr__preloaded(), short_by_one);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 1);
	idr_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
	idr_preload_end();
	idr_destroy(&idr);
}

/*
 * A dump held to max_lines is measured, not written to memory: it takes
 * nothing from the allocator seam, so with every allocation failing it
 * is the same text (it was -ENOMEM when it rendered to memory).
 */
static void fault_limited_dump(void)
{
	struct idr_dump_opts opts = { .max_lines = 40, .full = true };
	struct idr_mem_stats before, after;
	char *text = NULL, *whole = NULL;
	size_t len;
	unsigned long id;
	FILE *out;
	DEFINE_IDR(idr);

	for (id = 0; id < 5000; id += 3) {
		uint32_t got = (uint32_t)id;

		CHECK_EQ(idr_alloc_u32(&idr, &idr, &got, id, 0), 0);
	}
	out = open_memstream(&whole, &len);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0);
	fclose(out);
	CHECK(strstr(whole, "levels shown") != NULL);
	out = open_memstream(&text, &len);
	idr_mem_stats(&before);
	idr_fault_inject(0, 1);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0);
	idr_fault_inject(0, 0);
	idr_mem_stats(&after);
	fclose(out);
	CHECK_EQ(after.allocs, before.allocs);
	CHECK_EQ(after.failed, before.failed);
	CHECK(strcmp(text, whole) == 0);
	CHECK_EQ(idr_count(&idr), (5000 + 2) / 3);
	CHECK_SOUND(&idr);
	free(text);
	free(whole);
	idr_destroy(&idr);
}

/*
 * While held (as the Lua binding holds it for a view), fault injection
 * neither refuses an allocation nor counts it towards the skip; let go,
 * the armed failure comes as set.
 */
static void fault_held_for_views(void)
{
	struct idr_mem_stats before, after;
	void *p;

	idr_fault_inject(1, 1);
	idr__fault_hold(true);
	idr_mem_stats(&before);
	p = idr__malloc(64);
	CHECK(p != NULL);
	idr__free(p, 64);
	idr_mem_stats(&after);
	CHECK_EQ(after.allocs - before.allocs, 1);
	idr__fault_hold(false);
	p = idr__malloc(64); /* the skip */
	CHECK(p != NULL);
	idr__free(p, 64);
	CHECK(idr__malloc(64) == NULL);
	idr_fault_inject(0, 0);
}

void suite_fault(void)
{
	RUN(fault_held_for_views);
	RUN(fault_each_allocation);
	RUN(fault_from_allocation_on);
	RUN(fault_keeps_preload);
	RUN(fault_limited_dump);
}
