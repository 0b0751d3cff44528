/* SPDX-License-Identifier: MIT */
/*
 * test_model.c - the differential test: the library and the model run
 * the same long random sequence and every result is compared.  IDs are
 * drawn near 0 and near large anchors so that trees of every height,
 * sparse and dense, appear.  A failure prints the seed and the step.
 */
#include <limits.h>

#include "check.h"
#include "model.h"

#define STEPS_PER_SEED 250000

struct run {
	struct idr idr;
	struct model model;
	uint64_t rng;
	unsigned long step;
	size_t live_cap; /* removals win once this many IDs live */
};

static const uint64_t anchors[] = {
	0,
	60,
	4000,
	1u << 18,
	1u << 24,
	(1u << 30) - 50,
	INT_MAX - 100u,
	1u << 31,
	UINT32_MAX - 200u,
};

/* An ID near 0 or near one of the anchors. */
static uint64_t pick_id(struct run *r)
{
	uint64_t a = anchors[rnd_below(&r->rng,
				       sizeof(anchors) / sizeof(anchors[0]))];

	if (rnd_below(&r->rng, 3) == 0)
		a = 0;
	return a + rnd_below(&r->rng, 300);
}

/* An ID that is live in the model, most of the time. */
static unsigned long pick_live(struct run *r)
{
	if (r->model.n && rnd_below(&r->rng, 8))
		return r->model.ids[rnd_below(&r->rng, r->model.n)];
	return (unsigned long)pick_id(r);
}

static void *pick_value(struct run *r)
{
	if (rnd_below(&r->rng, 10) == 0)
		return NULL;
	return (void *)(uintptr_t)(8 * (1 + rnd_below(&r->rng, 1000)));
}

/* A range [start, end) for idr_alloc: small, open-ended or empty. */
static void pick_range(struct run *r, int *start, int *end)
{
	uint64_t s = pick_id(r);

	*start = s > INT_MAX ? INT_MAX - (int)rnd_below(&r->rng, 50) : (int)s;
	switch (rnd_below(&r->rng, 4)) {
	case 0:
		*end = 0;
		break;
	case 1:
		*end = -(int)rnd_below(&r->rng, 5);
		break;
	default: {
		long e = *start + (long)rnd_below(&r->rng, 120);

		*end = e > INT_MAX ? INT_MAX : (int)e;
	}
	}
	if (rnd_below(&r->rng, 200) == 0)
		*start = -1 - (int)rnd_below(&r->rng, 10);
}

static bool step_alloc(struct run *r)
{
	void *v = pick_value(r);
	int start, end;

	pick_range(r, &start, &end);
	return CHECK_EQ(idr_alloc(&r->idr, v, start, end, GFP_KERNEL),
			model_alloc(&r->model, v, start, end));
}

static bool step_cyclic(struct run *r)
{
	void *v = pick_value(r);
	int start, end;

	pick_range(r, &start, &end);
	if (rnd_below(&r->rng, 50) == 0) {
		unsigned int cursor = (unsigned int)pick_id(r);

		idr_set_cursor(&r->idr, cursor);
		r->model.next = cursor;
	}
	return CHECK_EQ(idr_alloc_cyclic(&r->idr, v, start, end, 0),
			model_alloc_cyclic(&r->model, v, start, end)) &&
	       CHECK_EQ(idr_get_cursor(&r->idr), r->model.next);
}

static bool step_u32(struct run *r)
{
	uint32_t start = (uint32_t)pick_id(r), a = start, b = start;
	unsigned long max = start + rnd_below(&r->rng, 200);
	void *v = pick_value(r);

	if (rnd_below(&r->rng, 4) == 0)
		max = ULONG_MAX;
	return CHECK_EQ(idr_alloc_u32(&r->idr, v, &a, max, 0),
			model_alloc_u32(&r->model, v, &b, max)) &&
	       CHECK_EQ(a, b);
}

static bool step_remove(struct run *r)
{
	unsigned long id = pick_live(r);
	void *want = NULL;

	model_remove(&r->model, id, &want);
	return CHECK(idr_remove(&r->idr, id) == want);
}

static bool step_replace(struct run *r)
{
	unsigned long id = pick_live(r);
	void *v = pick_value(r), *want = ERR_PTR(-ENOENT), *old;
	size_t i;

	for (i = 0; i < r->model.n; i++)
		if (r->model.ids[i] == id) {
			want = r->model.vals[i];
			r->model.vals[i] = v;
		}
	old = idr_replace(&r->idr, v, id);
	return CHECK(old == want);
}

static bool step_find(struct run *r)
{
	unsigned long id = pick_live(r);
	void *want = NULL;

	model_find(&r->model, id, &want);
	return CHECK(idr_find(&r->idr, id) == want);
}

static bool step_next(struct run *r)
{
	unsigned long a = pick_live(r) + rnd_below(&r->rng, 3), b = a;
	int c = a > INT_MAX ? -1 : (int)a, d = c;
	void *got = idr_get_next_ul(&r->idr, &a);
	void *want = model_next(&r->model, &b);
	void *got_int = idr_get_next(&r->idr, &c);
	void *want_int = d < 0 || b > INT_MAX ? NULL : want;

	if (want_int)
		d = (int)b;
	return CHECK(got == want) && CHECK_EQ(a, b) &&
	       CHECK(got_int == want_int) && CHECK_EQ(c, d);
}

static bool step_destroy(struct run *r)
{
	idr_destroy(&r->idr);
	r->model.n = 0;
	return CHECK(idr_is_empty(&r->idr));
}

typedef bool (*step_fn)(struct run *);

/* Weighted: allocation and removal dominate. */
static const step_fn steps[] = {
	step_alloc,  step_alloc,   step_alloc,	step_cyclic,
	step_u32,    step_remove,  step_remove, step_remove,
	step_remove, step_replace, step_find,	step_next,
};

static bool one_step(struct run *r)
{
	step_fn fn = steps[rnd_below(&r->rng, sizeof(steps) / sizeof(*steps))];

	if (r->model.n > r->live_cap && rnd_below(&r->rng, 2))
		fn = step_remove;
	if (rnd_below(&r->rng, 100000) == 0)
		fn = step_destroy;
	if (rnd_below(&r->rng, 5000) == 0)
		r->live_cap = 8u << rnd_below(&r->rng, 8);
	if (!fn(r) || !CHECK_SOUND(&r->idr))
		return false;
	return r->step % 1024 || CHECK(model_matches(&r->model, &r->idr));
}

static void run_seed(uint64_t seed, int base)
{
	struct run r = { .rng = seed, .live_cap = 64 };

	idr_init_base(&r.idr, base);
	model_init(&r.model, (uint32_t)base);
	for (r.step = 0; r.step < STEPS_PER_SEED; r.step++)
		if (!one_step(&r)) {
			fprintf(stderr,
				"model: seed %llu base %d: differs at "
				"step %lu\n",
				(unsigned long long)seed, base, r.step);
			break;
		}
	CHECK(model_matches(&r.model, &r.idr));
	idr_destroy(&r.idr);
	model_free(&r.model);
}

/* {==================== The model's own answers ==================== */

/*
 * The model is the oracle, so it is held to answers worked out by hand
 * from the documentation first: a model wrong the way the library is
 * wrong would hide the bug.
 */
static void model_idr_answers(void)
{
	struct model m;
	uint32_t id = UINT32_MAX;
	void *v;

	model_init(&m, 0);
	CHECK_EQ(model_alloc(&m, &m, 0, 0), 0);
	CHECK_EQ(model_alloc(&m, &m, 0, 0), 1);
	CHECK_EQ(model_alloc(&m, &m, 5, 5), -ENOSPC); /* [5, 5) is empty */
	CHECK_EQ(model_alloc(&m, &m, 5, 6), 5);
	CHECK_EQ(model_alloc(&m, &m, 5, 6), -ENOSPC);
	CHECK_EQ(model_alloc(&m, &m, -1, 0), -EINVAL);
	CHECK_EQ(model_alloc(&m, &m, INT_MAX, -3), INT_MAX); /* "<= 0" */
	CHECK_EQ(model_alloc(&m, &m, INT_MAX, 0), -ENOSPC);
	CHECK_EQ(model_alloc_u32(&m, NULL, &id, ULONG_MAX), 0);
	CHECK_EQ(id, UINT32_MAX);
	CHECK_EQ(model_alloc_u32(&m, NULL, &id, ULONG_MAX), -ENOSPC);
	CHECK_EQ(id, UINT32_MAX); /* unchanged */
	CHECK(model_find(&m, UINT32_MAX, &v) && v == NULL);
	CHECK_EQ(m.n, 5);
	model_free(&m);

	model_init(&m, 1000); /* idr_init_base(1000) */
	CHECK_EQ(model_alloc(&m, &m, 0, 1000), -ENOSPC);
	CHECK_EQ(model_alloc(&m, &m, 0, 1002), 1000);
	id = 7;
	CHECK_EQ(model_alloc_u32(&m, &m, &id, 1001), 0);
	CHECK_EQ(id, 1001);
	model_free(&m);
}

static void model_cyclic_answers(void)
{
	struct model m;
	int i;

	model_init(&m, 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 4), i);
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 4), -ENOSPC);
	CHECK_EQ(m.next, 4); /* unchanged */
	CHECK(model_remove(&m, 1, &(void *){ NULL }));
	CHECK(model_remove(&m, 3, &(void *){ NULL }));
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 4), 1); /* wrapped */
	CHECK_EQ(m.next, 2);
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 4), 3); /* from the cursor */
	m.next = 0;				       /* below @start */
	CHECK_EQ(model_alloc_cyclic(&m, &m, 10, 0), 10);
	CHECK_EQ(m.next, 11);
	m.next = INT_MAX; /* INT_MAX is free */
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 0), INT_MAX);
	CHECK_EQ(m.next, (uint32_t)INT_MAX + 1); /* past the range */
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 0), 4);
	m.next = UINT32_MAX;
	CHECK_EQ(model_alloc_cyclic(&m, &m, 0, 0), 5);
	CHECK_EQ(model_alloc_cyclic(&m, &m, -1, 0), -EINVAL);
	CHECK_EQ(m.next, 6);
	model_free(&m);
}

static void model_next_and_ida_answers(void)
{
	struct model m;
	unsigned long id = 0;

	model_init(&m, 0);
	CHECK_EQ(model_alloc(&m, NULL, 0, 0), 0); /* reserved */
	CHECK_EQ(model_alloc(&m, &m, 0, 0), 1);
	CHECK(model_next(&m, &id) == &m); /* skips the NULL */
	CHECK_EQ(id, 1);
	id = 2;
	CHECK(model_next(&m, &id) == NULL);
	CHECK_EQ(id, 2);
	model_free(&m);

	model_init(&m, 0);
	CHECK_EQ(model_ida_alloc(&m, 5, 3), -ENOSPC); /* @min > @max */
	CHECK_EQ(model_ida_alloc(&m, (unsigned int)INT_MAX + 1, UINT_MAX),
		 -ENOSPC);
	CHECK_EQ(model_ida_alloc(&m, INT_MAX, UINT_MAX), INT_MAX);
	CHECK_EQ(model_ida_alloc(&m, INT_MAX, UINT_MAX), -ENOSPC);
	CHECK_EQ(model_ida_alloc(&m, 3, 3), 3);
	CHECK_EQ(model_ida_first(&m, 0, UINT_MAX), 3);
	CHECK_EQ(model_ida_first(&m, 4, UINT_MAX), INT_MAX);
	CHECK_EQ(model_ida_first(&m, 4, INT_MAX - 1), -ENOENT);
	CHECK_EQ(model_ida_first(&m, (unsigned int)INT_MAX + 1, UINT_MAX),
		 -EINVAL);
	CHECK_EQ(model_ida_free(&m, 4), -ENOENT);
	CHECK_EQ(model_ida_free(&m, 3), 0);
	CHECK(!model_has(&m, 3));
	model_free(&m);
}

/* }==================== The model's own answers ==================== */

static void model_base0_seed1(void)
{
	run_seed(1, 0);
}

static void model_base0_seed2(void)
{
	run_seed(2, 0);
}

static void model_base1_seed3(void)
{
	run_seed(3, 1);
}

static void model_base1000_seed4(void)
{
	run_seed(4, 1000);
}

void suite_model(void)
{
	RUN(model_idr_answers);
	RUN(model_cyclic_answers);
	RUN(model_next_and_ida_answers);
	RUN(model_base0_seed1);
	RUN(model_base0_seed2);
	RUN(model_base1_seed3);
	RUN(model_base1000_seed4);
}
