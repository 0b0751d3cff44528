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
#include "seam.h"
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
	struct seam_mem_stats before, after;
	unsigned long i;

	seam_mem_stats(&before);
	idr_init(&s.idr);
	model_init(&s.model, 0);
	seam_fault_inject(skip, count);
	for (i = 0; i < SCENARIO_STEPS; i++)
		if (!scene_step(&s, i)) {
			fprintf(stderr, "fault: skip %lu: step %lu\n", skip, i);
			break;
		}
	seam_fault_inject(0, 0);
	CHECK_SOUND(&s.idr);
	CHECK(model_matches(&s.model, &s.idr));
	idr_destroy(&s.idr);
	model_free(&s.model);
	seam_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
	return s.enomem;
}

/*
 * The n-th allocation fails (@count times in a row), for every n until
 * the scenario needs none; at most @count calls return -ENOMEM: how
 * many do is returned.  Some failures are silent: inside idr_preload()
 * (idr_alloc() mallocs what the preload lacked), and a lone ID's packed
 * block (whole nodes are reserved instead).
 */
static unsigned long fail_each(unsigned long total, unsigned long count)
{
	struct seam_mem_stats stats;
	unsigned long skip, failed, enomem = 0;

	seam_mem_stats(&stats);
	failed = stats.failed;
	for (skip = 0; skip < total; skip++) {
		unsigned long n = scene_run(skip, count);

		CHECK(n <= count);
		enomem += n;
	}
	seam_mem_stats(&stats);
	CHECK(stats.failed - failed >= total);
	return enomem;
}

static void fault_each_allocation(void)
{
	unsigned long total = allocs_of(scene_run), once, twice;

	CHECK(total > 100);
	once = fail_each(total, 1);
	twice = fail_each(total, 2);
	/* A lone ID whose fallback fails too fails the call: most
	 * allocations happen outside a preload. */
	CHECK(once > 0);
	CHECK(twice > total / 2);
	printf("# fault: each of %lu allocations failed in turn; "
	       "%lu calls returned -ENOMEM (%lu with the next failing "
	       "too)\n",
	       total, once, twice);
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
	struct seam_mem_stats before, after;
	unsigned int short_by_one = IDR__GROW_NODES(32) - 1;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, 0), 0);
	/* A preload cut short by malloc, one node short of this path. */
	seam_fault_inject(short_by_one, ULONG_MAX);
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr__preloaded(), short_by_one);
	seam_mem_stats(&before);
	CHECK_EQ(idr_alloc(&idr, &idr, INT_MAX, 0, 0), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr__preloaded(), short_by_one);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 1);
	seam_mem_stats(&after);
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
	struct idr_dump_opts opts = { .max_lines = 40 };
	struct seam_mem_stats before, after;
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
	CHECK(strstr(whole, "lines: max_lines)") != NULL);
	out = open_memstream(&text, &len);
	seam_mem_stats(&before);
	seam_fault_inject(0, 1);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0);
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
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
	struct seam_mem_stats before, after;
	void *p;

	seam_fault_inject(1, 1);
	seam_fault_hold(true);
	seam_mem_stats(&before);
	p = idr__malloc(64);
	CHECK(p != NULL);
	idr__free(p, 64);
	seam_mem_stats(&after);
	CHECK_EQ(after.allocs - before.allocs, 1);
	seam_fault_hold(false);
	p = idr__malloc(64); /* the skip */
	CHECK(p != NULL);
	idr__free(p, 64);
	CHECK(idr__malloc(64) == NULL);
	seam_fault_inject(0, 0);
}

/* An allocator that counts what passes and hands it to the one before. */
struct wrap {
	struct idr_allocator next;
	long blocks, bytes, reallocs;
};

static void *wrap_malloc(size_t size, void *ctx)
{
	struct wrap *w = ctx;
	void *p = w->next.malloc(size, w->next.ctx);

	w->blocks += p != NULL;
	w->bytes += p ? (long)size : 0;
	return p;
}

static void *wrap_realloc(void *ptr, size_t old_size, size_t new_size,
			  void *ctx)
{
	struct wrap *w = ctx;
	void *p = w->next.realloc(ptr, old_size, new_size, w->next.ctx);

	w->reallocs++;
	if (p)
		w->bytes += (long)new_size - (long)old_size;
	return p;
}

static void wrap_free(void *ptr, size_t size, void *ctx)
{
	struct wrap *w = ctx;

	w->blocks--;
	w->bytes -= (long)size;
	w->next.free(ptr, size, w->next.ctx);
}

/*
 * idr_set_allocator(): every block goes to the allocator set, comes back
 * to it with its size, and a sparse leaf shrinks through its realloc; it
 * cannot be changed while a block is out, nor set with a NULL function.
 */
static void allocator_seam(void)
{
	struct wrap w = { .blocks = 0 };
	struct idr_allocator set = { wrap_malloc, wrap_realloc, wrap_free, &w };
	struct idr_allocator now;
	DEFINE_IDR(idr);
	int i;

	idr_get_allocator(&w.next);
	CHECK(w.next.malloc && w.next.realloc && w.next.free);
	set.free = NULL;
	CHECK_EQ(idr_set_allocator(&set), -EINVAL);
	set.free = wrap_free;
	if (!CHECK_EQ(idr_set_allocator(&set), 0))
		return;
	idr_get_allocator(&now);
	CHECK(now.malloc == wrap_malloc && now.ctx == &w);
	for (i = 0; i < (int)IDR_SLOTS; i++)
		CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, 0), i);
	CHECK(w.blocks > 0 && w.bytes > 0);
	CHECK_EQ(idr_set_allocator(&w.next), -EBUSY);
	CHECK_EQ(idr_set_allocator(NULL), -EBUSY);
	for (i = 2; i < (int)IDR_SLOTS; i++)
		idr_remove(&idr, i);
	CHECK(w.reallocs > 0);
	CHECK(idr_check(&idr) == 0);
	idr_destroy(&idr);
	CHECK_EQ(w.blocks, 0);
	CHECK_EQ(w.bytes, 0);
	CHECK_EQ(idr_set_allocator(&w.next), 0);
	idr_get_allocator(&now);
	CHECK(now.malloc == w.next.malloc && now.ctx == w.next.ctx);
}

void suite_fault(void)
{
	RUN(allocator_seam);
	RUN(fault_held_for_views);
	RUN(fault_each_allocation);
	RUN(fault_from_allocation_on);
	RUN(fault_keeps_preload);
	RUN(fault_limited_dump);
}
