/* SPDX-License-Identifier: MIT */
/*
 * test_legacy.c - the 2004 API.  idr_pre_get() fills the idr's own node
 * cache; idr_get_new*() take nodes from it alone, never from malloc, and
 * say -EAGAIN when it runs short.  Threads run the retry loop of the
 * time around one mutex, and a random mix is held to the model.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "model.h"
#include "nodes.h"
#include "seam.h"
#include "tree.h"

#define CAPACITY IDR__CACHE_NODES

/* A distinct value for each ID: never NULL, never an ERR_PTR. */
static void *val(unsigned long id)
{
	return (void *)(uintptr_t)((id + 1) * 8);
}

/*
 * The retry loop, in one thread.  After a successful idr_pre_get() the
 * cache holds twice what one allocation needs, so one retry must do.
 */
static int get_new_retry(struct idr *idr, void *ptr, int start, int *id)
{
	int err = -EAGAIN, tries;

	for (tries = 0; tries < 2 && err == -EAGAIN; tries++) {
		if (!idr_pre_get(idr, GFP_KERNEL))
			return -ENOMEM;
		err = idr_get_new_above(idr, ptr, start, id);
	}
	return err;
}

/* A fresh idr has an empty cache: get_new must not malloc for itself. */
static void legacy_fresh_needs_pre_get(void)
{
	struct seam_mem_stats before, a, b;
	struct idr_snap was;
	DEFINE_IDR(idr);
	int id = -1;

	seam_mem_stats(&before);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
	CHECK_EQ(idr_get_new(&idr, val(0), &id), -EAGAIN);
	CHECK_EQ(idr_get_new_above(&idr, val(0), 1000, &id), -EAGAIN);
	CHECK_EQ(idr_get_new_above(&idr, val(0), INT_MAX, &id), -EAGAIN);
	CHECK_EQ(idr_get_new_above(&idr, val(0), -1, &id), -EINVAL);
	CHECK_EQ(idr_get_new_above(&idr, val(0), INT_MIN, &id), -EINVAL);
	CHECK_UNCHANGED(&idr, was);
	seam_mem_stats(&a);
	CHECK_EQ(a.allocs, before.allocs);
	CHECK_EQ(a.bytes, before.bytes);

	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY);
	/* Full already: a second call succeeds and adds nothing. */
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY);

	seam_mem_stats(&a);
	CHECK_EQ(idr_get_new(&idr, val(0), &id), 0);
	seam_mem_stats(&b);
	CHECK_EQ(id, 0);
	CHECK_EQ(b.allocs, a.allocs);
	CHECK_EQ(b.thread_allocs, a.thread_allocs);
	CHECK(idr_find(&idr, 0) == val(0));
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY - 1);
	CHECK_SOUND(&idr);

	/* The leaf freed by the removal goes back to the cache, not free(). */
	CHECK(idr_remove(&idr, 0) == val(0));
	seam_mem_stats(&b);
	CHECK_EQ(b.frees, a.frees);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY);
	CHECK_EQ(idr__height(&idr), 0);
	CHECK_SOUND(&idr);

	idr_destroy(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
	seam_mem_stats(&b);
	CHECK_EQ(b.bytes, before.bytes);
	/* Destroyed, the idr is usable again, with an empty cache. */
	CHECK_EQ(idr_get_new(&idr, val(0), &id), -EAGAIN);
	idr_destroy(&idr);
	CHECK_SOUND(&idr);
}

/*
 * With every malloc failing, get_new still works from the cache; it
 * never even asks (no failed allocation is counted).  When the cache
 * runs dry it says -EAGAIN and changes nothing.
 */
static void legacy_never_mallocs(void)
{
	struct seam_mem_stats a, b;
	unsigned int i, step = IDR_SLOTS * IDR_SLOTS;
	DEFINE_IDR(idr);
	int id, err = 0;

	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	seam_mem_stats(&a);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_get_new_above(&idr, val(INT_MAX), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_get_new(&idr, val(0), &id), 0);
	CHECK_EQ(id, 0);
	CHECK_SOUND(&idr);
	/* Each ID needs a new leaf at least: the cache must run out. */
	for (i = 1; i <= CAPACITY + 1; i++) {
		struct idr_snap was = idr_snap_of(&idr);

		err = idr_get_new_above(&idr, val(i * step), (int)(i * step),
					&id);
		if (err == -EAGAIN) {
			CHECK_UNCHANGED(&idr, was);
			break;
		}
		CHECK_EQ(err, 0);
		CHECK_EQ(id, i * step);
		CHECK(idr_find(&idr, i * step) == val(i * step));
		CHECK_SOUND(&idr);
	}
	CHECK_EQ(err, -EAGAIN);
	seam_mem_stats(&b);
	CHECK_EQ(b.allocs, a.allocs);
	CHECK_EQ(b.thread_allocs, a.thread_allocs);
	CHECK_EQ(b.failed, a.failed);
	seam_fault_inject(0, 0);

	/* Go round again: pre_get, then the same call succeeds. */
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_get_new_above(&idr, val(i * step), (int)(i * step), &id),
		 0);
	CHECK_EQ(id, i * step);
	CHECK_EQ(idr_count(&idr), i + 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A cache that holds some nodes, but fewer than needed, is -EAGAIN too. */
static void legacy_short_cache(void)
{
	struct seam_mem_stats a, b;
	DEFINE_IDR(idr);
	struct idr_snap was;
	int id;

	seam_fault_inject(2, 1);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_cache_count(&idr), 2);
	CHECK(idr_is_empty(&idr));

	/* INT_MAX on an empty tree needs a whole path, more than 2 nodes. */
	was = idr_snap_of(&idr);
	seam_mem_stats(&a);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX, &id), -EAGAIN);
	seam_mem_stats(&b);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(b.allocs, a.allocs);
	CHECK_EQ(b.failed, a.failed);

	CHECK_EQ(idr_get_new(&idr, val(0), &id), 0);
	CHECK_EQ(id, 0);
	CHECK_EQ(idr_cache_count(&idr), 1);
	CHECK_SOUND(&idr);

	/* A failing pre_get keeps what it got: 1 + 2. */
	seam_fault_inject(2, 1);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_cache_count(&idr), 3);
	CHECK_SOUND(&idr);

	/* Every malloc failing: nothing gained, nothing lost. */
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_cache_count(&idr), 3);

	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	CHECK_EQ(idr_count(&idr), 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Nothing free at or above the start is -ENOSPC, even if lower IDs are. */
static void legacy_enospc_above(void)
{
	DEFINE_IDR(idr);
	struct idr_snap was;
	int id;

	CHECK_EQ(get_new_retry(&idr, val(INT_MAX), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX, &id), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);

	CHECK_EQ(get_new_retry(&idr, val(INT_MAX - 1), INT_MAX - 1, &id), 0);
	CHECK_EQ(id, INT_MAX - 1);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX - 1, &id), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);

	/* Lower IDs are still free. */
	CHECK_EQ(get_new_retry(&idr, val(0), 0, &id), 0);
	CHECK_EQ(id, 0);
	CHECK_EQ(get_new_retry(&idr, val(INT_MAX - 2), INT_MAX - 3, &id), 0);
	CHECK_EQ(id, INT_MAX - 3);
	CHECK_EQ(get_new_retry(&idr, val(INT_MAX - 2), INT_MAX - 3, &id), 0);
	CHECK_EQ(id, INT_MAX - 2);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX - 3, &id), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);

	/* A NULL pointer reserves the ID. */
	CHECK_EQ(get_new_retry(&idr, NULL, 0, &id), 0);
	CHECK_EQ(id, 1);
	CHECK(idr_find(&idr, 1) == NULL);
	CHECK_EQ(idr_count(&idr), 6);
	CHECK_SOUND(&idr);

	CHECK(idr_remove(&idr, INT_MAX - 1) == val(INT_MAX - 1));
	CHECK_SOUND(&idr);
	CHECK_EQ(get_new_retry(&idr, val(1), INT_MAX - 3, &id), 0);
	CHECK_EQ(id, INT_MAX - 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A full range needs no node: -ENOSPC even with the cache empty. */
static void legacy_enospc_needs_no_node(void)
{
	unsigned int path = (31 + IDR_BITS - 1) / IDR_BITS;
	DEFINE_IDR(idr);
	struct idr_snap was;
	int id;

	/* Exactly the nodes the path to INT_MAX takes on an empty tree. */
	seam_fault_inject(path, 1);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_cache_count(&idr), path);
	CHECK_EQ(idr_get_new_above(&idr, val(1), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	CHECK_EQ(idr_cache_count(&idr), 0);
	CHECK_EQ(idr__height(&idr), path);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(2), INT_MAX, &id), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	/* Free, in INT_MAX's leaf: no node needed either. */
	CHECK_EQ(idr_get_new_above(&idr, val(2), INT_MAX - 1, &id), 0);
	CHECK_EQ(id, INT_MAX - 1);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new(&idr, val(3), &id), -EAGAIN);
	CHECK_UNCHANGED(&idr, was);
	idr_destroy(&idr);
}

/*
 * Removals put nodes back in the cache but never beyond its capacity,
 * and idr_destroy() frees the cache too.
 */
static void legacy_cache_trimmed(void)
{
	struct seam_mem_stats before, full, now;
	unsigned int i, n = 200, gap = INT_MAX / 200;
	DEFINE_IDR(idr);
	int id;

	seam_mem_stats(&before);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	seam_mem_stats(&full);
	CHECK(full.bytes > before.bytes);
	for (i = 0; i < n; i++) {
		CHECK_EQ(get_new_retry(&idr, val(i * gap), (int)(i * gap), &id),
			 0);
		CHECK_EQ(id, i * gap);
		CHECK(idr_cache_count(&idr) <= CAPACITY);
	}
	CHECK_SOUND(&idr);
	for (i = 0; i < n; i++) {
		CHECK(idr_remove(&idr, i * gap) == val(i * gap));
		CHECK(idr_cache_count(&idr) <= CAPACITY);
	}
	CHECK_SOUND(&idr);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr__height(&idr), 0);
	CHECK_EQ(idr_cache_count(&idr), CAPACITY);
	seam_mem_stats(&now);
	CHECK_EQ(now.bytes, full.bytes);

	idr_destroy(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
	seam_mem_stats(&now);
	CHECK_EQ(now.bytes, before.bytes);
	idr_destroy(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
}

/* Legacy and modern calls on one idr; idr_alloc() takes from the cache. */
static void legacy_mixes_with_idr_alloc(void)
{
	struct seam_mem_stats a, b;
	unsigned int cached;
	DEFINE_IDR(idr);
	int id;

	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(get_new_retry(&idr, val(1), 0, &id), 0);
	CHECK_EQ(id, 1);
	CHECK_EQ(idr_alloc(&idr, val(2), 0, 0, GFP_KERNEL), 2);
	CHECK_SOUND(&idr);

	/* A new leaf and a new top from the cache, not from malloc.  The
	 * ID below is in use, so the ID is not lone (whose nodes would be
	 * packed ones from malloc). */
	CHECK_EQ(idr_alloc(&idr, val(IDR_SLOTS - 1), IDR_SLOTS - 1, 0,
			   GFP_KERNEL),
		 IDR_SLOTS - 1);
	cached = idr_cache_count(&idr);
	seam_mem_stats(&a);
	CHECK_EQ(idr_alloc(&idr, val(IDR_SLOTS), IDR_SLOTS, 0, GFP_KERNEL),
		 IDR_SLOTS);
	seam_mem_stats(&b);
	CHECK_EQ(b.allocs, a.allocs);
	CHECK_EQ(idr_cache_count(&idr), cached - 2);
	CHECK_SOUND(&idr);

	CHECK(idr_remove(&idr, 1) == val(1));
	CHECK_SOUND(&idr);
	CHECK_EQ(get_new_retry(&idr, val(1), 0, &id), 0);
	CHECK_EQ(id, 1);
	CHECK_EQ(idr_alloc(&idr, val(3), 0, 0, GFP_KERNEL), 3);
	CHECK_EQ(get_new_retry(&idr, val(4), 0, &id), 0);
	CHECK_EQ(id, 4);
	CHECK_SOUND(&idr);
	CHECK(idr_remove(&idr, 0) == val(0));
	CHECK(idr_remove(&idr, 3) == val(3));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(get_new_retry(&idr, val(3), 0, &id), 0);
	CHECK_EQ(id, 3);
	CHECK_SOUND(&idr);
	for (id = 0; id <= 4; id++)
		CHECK(idr_find(&idr, (unsigned long)id) == val((unsigned)id));
	CHECK(idr_find(&idr, IDR_SLOTS) == val(IDR_SLOTS));
	CHECK_EQ(idr_count(&idr), 7);
	idr_destroy(&idr);
}

/* {==================== The mix, against the model ==================== */

#define MIX_STEPS 60000

struct mix {
	struct idr idr;
	struct model model;
	uint64_t rng;
	unsigned long step;
	unsigned long eagain;
	size_t live_cap;
};

static int mix_pick(struct mix *m)
{
	static const int anchors[] = {
		0, 0, 0, 60, 4000, 1 << 18, 1 << 24, INT_MAX - 150,
	};
	int a = anchors[rnd_below(&m->rng,
				  sizeof(anchors) / sizeof(anchors[0]))];

	return a + (int)rnd_below(&m->rng, 150);
}

static void *mix_value(struct mix *m)
{
	if (rnd_below(&m->rng, 20) == 0)
		return NULL;
	return val(rnd_below(&m->rng, 1000));
}

static unsigned long mix_live(struct mix *m)
{
	if (m->model.n && rnd_below(&m->rng, 8))
		return m->model.ids[rnd_below(&m->rng, m->model.n)];
	return (unsigned long)mix_pick(m);
}

/* get_new_above as the article has it; -EAGAIN must change nothing. */
static bool mix_get_new(struct mix *m)
{
	int start = rnd_below(&m->rng, 4) ? mix_pick(m) : 0, id = -1, err;
	struct seam_mem_stats a, b;
	void *v = mix_value(m);
	unsigned int tries;

	if (rnd_below(&m->rng, 30) == 0)
		start = -1 - (int)rnd_below(&m->rng, 3);
	for (tries = 0; tries < 3; tries++) {
		struct idr_snap was = idr_snap_of(&m->idr);

		seam_mem_stats(&a);
		err = start ? idr_get_new_above(&m->idr, v, start, &id)
			    : idr_get_new(&m->idr, v, &id);
		seam_mem_stats(&b);
		if (!CHECK_EQ(b.allocs, a.allocs))
			return false;
		if (err != -EAGAIN)
			break;
		m->eagain++;
		if (!CHECK(tries == 0) || !CHECK_UNCHANGED(&m->idr, was))
			return false;
		if (!CHECK(idr_pre_get(&m->idr, GFP_KERNEL) != 0))
			return false;
	}
	if (err < 0)
		return CHECK_EQ(err, model_alloc(&m->model, v, start, 0));
	return CHECK_EQ(err, 0) &&
	       CHECK_EQ(id, model_alloc(&m->model, v, start, 0));
}

static bool mix_alloc(struct mix *m)
{
	int start = mix_pick(m), end = 0;
	void *v = mix_value(m);

	if (rnd_below(&m->rng, 2)) {
		long e = start + (long)rnd_below(&m->rng, 100);

		end = e > INT_MAX ? INT_MAX : (int)e;
	}
	return CHECK_EQ(idr_alloc(&m->idr, v, start, end, GFP_KERNEL),
			model_alloc(&m->model, v, start, end));
}

static bool mix_remove(struct mix *m)
{
	unsigned long id = mix_live(m);
	void *want = NULL;

	model_remove(&m->model, id, &want);
	return CHECK(idr_remove(&m->idr, id) == want);
}

static bool mix_find(struct mix *m)
{
	unsigned long id = mix_live(m);
	void *want = NULL;

	model_find(&m->model, id, &want);
	return CHECK(idr_find(&m->idr, id) == want);
}

/* Sometimes a pre_get that runs out of memory part way. */
static bool mix_pre_get(struct mix *m)
{
	unsigned int had = idr_cache_count(&m->idr);
	unsigned long skip = rnd_below(&m->rng, CAPACITY);
	int ret;

	seam_fault_inject(skip, 1);
	ret = idr_pre_get(&m->idr, GFP_KERNEL);
	seam_fault_inject(0, 0);
	if (had + skip >= CAPACITY)
		return CHECK(ret != 0) &&
		       CHECK_EQ(idr_cache_count(&m->idr), CAPACITY);
	return CHECK_EQ(ret, 0) &&
	       CHECK_EQ(idr_cache_count(&m->idr), had + skip);
}

static bool mix_step(struct mix *m)
{
	bool ok;

	switch (rnd_below(&m->rng, 12)) {
	case 0:
	case 1:
	case 2:
	case 3:
		ok = mix_get_new(m);
		break;
	case 4:
	case 5:
		ok = mix_alloc(m);
		break;
	case 6:
		ok = mix_find(m);
		break;
	case 7:
		ok = mix_pre_get(m);
		break;
	default:
		ok = mix_remove(m);
	}
	if (m->model.n > m->live_cap && rnd_below(&m->rng, 2))
		ok = ok && mix_remove(m);
	if (rnd_below(&m->rng, 3000) == 0)
		m->live_cap = 4u << rnd_below(&m->rng, 9);
	return ok && CHECK_SOUND(&m->idr) &&
	       CHECK(idr_cache_count(&m->idr) <= CAPACITY) &&
	       (m->step % 512 || CHECK(model_matches(&m->model, &m->idr)));
}

static void mix_seed(uint64_t seed)
{
	struct mix m = { .rng = seed, .live_cap = 64 };

	idr_init(&m.idr);
	model_init(&m.model, 0);
	for (m.step = 0; m.step < MIX_STEPS; m.step++)
		if (!mix_step(&m)) {
			fprintf(stderr,
				"legacy mix: seed %llu: differs at "
				"step %lu\n",
				(unsigned long long)seed, m.step);
			break;
		}
	CHECK(model_matches(&m.model, &m.idr));
	/* The cache runs short often enough that -EAGAIN is exercised. */
	CHECK(m.eagain > 0);
	idr_destroy(&m.idr);
	model_free(&m.model);
}

static void legacy_model_mix(void)
{
	mix_seed(11);
	mix_seed(12);
}

/* }==================== The mix, against the model ==================== */

/* {==================== Threads ==================== */

#define LT_THREADS 4
#define LT_ROUNDS 1500
#define LT_KEEP 8
/* A thread that keeps getting -EAGAIN after pre_get is a bug, not luck. */
#define LT_MAX_TRIES 10000

static pthread_mutex_t lt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct idr lt_idr = IDR_INIT(lt_idr);
static pthread_barrier_t lt_barrier;
/*
 * Every thread's first pre_get of a round is done before any get_new:
 * the cache, filled once to its capacity, then runs short for the last
 * of them.  Without it the race is left to the scheduler, and under
 * valgrind (one thread at a time) a run saw no -EAGAIN at all.
 */
static pthread_barrier_t lt_pregot;
/* Work done under the lock, long enough for the others to queue up. */
static const struct timespec lt_work = { 0, 20000 };

struct lt_worker {
	pthread_t thread;
	uint64_t rng;
	int ids[LT_KEEP];    /* the IDs this thread holds */
	void *ptrs[LT_KEEP]; /* and what it stored at each */
	int n;
	unsigned int me;
	unsigned long seq;
	unsigned long eagain;  /* -EAGAIN returns seen */
	unsigned long retried; /* allocations that succeeded on retry */
	unsigned long mallocs; /* get_new calls that called malloc */
	unsigned long bad;     /* wrong results */
};

/* Spread out so that most allocations need a new path of nodes. */
static int lt_start(struct lt_worker *w)
{
	switch (rnd_below(&w->rng, 8)) {
	case 0:
		return (int)rnd_below(&w->rng, 4 * IDR_SLOTS);
	case 1:
	case 2:
		return (int)(rnd_below(&w->rng, 31) << 26 >> 1) +
		       (int)rnd_below(&w->rng, 3 * IDR_SLOTS);
	default:
		return (int)(rnd_next(&w->rng) & INT_MAX);
	}
}

/* The 2004 caller, as written: pre_get outside, get_new inside. */
static int lt_get(struct lt_worker *w, void *ptr, int start, int *id)
{
	struct seam_mem_stats a, b;
	unsigned int tries = 0;
	int err, got;

again:
	got = idr_pre_get(&lt_idr, GFP_KERNEL);
	if (!tries)
		pthread_barrier_wait(&lt_pregot);
	if (!got)
		return -ENOMEM;
	pthread_mutex_lock(&lt_lock);
	seam_mem_stats(&a);
	err = idr_get_new_above(&lt_idr, ptr, start, id);
	seam_mem_stats(&b);
	if (b.thread_allocs != a.thread_allocs)
		w->mallocs++;
	if (!err && (idr_find(&lt_idr, (unsigned long)*id) != ptr ||
		     idr_check(&lt_idr)))
		w->bad++;
	nanosleep(&lt_work, NULL);
	pthread_mutex_unlock(&lt_lock);
	if (err == -EAGAIN) {
		w->eagain++;
		if (++tries < LT_MAX_TRIES)
			goto again;
	}
	if (!err && tries)
		w->retried++;
	return err;
}

/* A pointer no other allocation stores: it names the thread too. */
static void *lt_ptr(struct lt_worker *w)
{
	w->seq++;
	return (void *)(uintptr_t)((w->seq * LT_THREADS + w->me + 1) * 8);
}

static void lt_remove(struct lt_worker *w, int k)
{
	void *got;

	pthread_mutex_lock(&lt_lock);
	got = idr_remove(&lt_idr, (unsigned long)w->ids[k]);
	if (idr_check(&lt_idr))
		w->bad++;
	pthread_mutex_unlock(&lt_lock);
	if (got != w->ptrs[k])
		w->bad++;
	w->n--;
	w->ids[k] = w->ids[w->n];
	w->ptrs[k] = w->ptrs[w->n];
}

/*
 * Each round starts at a barrier, so that the threads' pre_gets bunch
 * up ahead of the lock and the later get_news find the cache drained.
 * A thread that holds LT_KEEP IDs frees them all: the tree shrinks and
 * the next allocations need whole new paths again.
 */
static void *lt_worker_fn(void *arg)
{
	struct lt_worker *w = arg;
	int i, id, err;
	void *ptr;

	for (i = 0; i < LT_ROUNDS; i++) {
		pthread_barrier_wait(&lt_barrier);
		ptr = lt_ptr(w);
		err = lt_get(w, ptr, lt_start(w), &id);
		if (!err) {
			w->ids[w->n] = id;
			w->ptrs[w->n++] = ptr;
		} else if (err != -ENOSPC) {
			w->bad++;
		}
		if (w->n == LT_KEEP)
			while (w->n)
				lt_remove(w, (int)rnd_below(&w->rng,
							    (uint64_t)w->n));
	}
	while (w->n)
		lt_remove(w, w->n - 1);
	return NULL;
}

/*
 * Several threads share one idr and one mutex.  Each stores pointers
 * that name it and removes only its own IDs, so an ID handed out twice
 * while live shows up as a wrong pointer at removal.
 */
static void legacy_threads_retry_loop(void)
{
	struct lt_worker w[LT_THREADS] = { { .n = 0 } };
	unsigned long eagain = 0, retried = 0, mallocs = 0, bad = 0;
	int i;

	CHECK_EQ(pthread_barrier_init(&lt_barrier, NULL, LT_THREADS), 0);
	CHECK_EQ(pthread_barrier_init(&lt_pregot, NULL, LT_THREADS), 0);
	for (i = 0; i < LT_THREADS; i++) {
		w[i].rng = 1000 + (uint64_t)i;
		w[i].me = (unsigned int)i;
		CHECK_EQ(pthread_create(&w[i].thread, NULL, lt_worker_fn, &w[i]),
			 0);
	}
	for (i = 0; i < LT_THREADS; i++) {
		CHECK_EQ(pthread_join(w[i].thread, NULL), 0);
		eagain += w[i].eagain;
		retried += w[i].retried;
		mallocs += w[i].mallocs;
		bad += w[i].bad;
	}
	pthread_barrier_destroy(&lt_barrier);
	pthread_barrier_destroy(&lt_pregot);
	printf("# legacy threads: %lu -EAGAIN, %lu allocations retried\n",
	       eagain, retried);
	CHECK_EQ(bad, 0);
	CHECK_EQ(mallocs, 0);
	CHECK(eagain > 0);
	CHECK(retried > 0);
	CHECK(idr_is_empty(&lt_idr));
	CHECK_SOUND(&lt_idr);
	CHECK(idr_cache_count(&lt_idr) <= CAPACITY);
	idr_destroy(&lt_idr);
}

/* }==================== Threads ==================== */

void suite_legacy(void)
{
	RUN(legacy_fresh_needs_pre_get);
	RUN(legacy_never_mallocs);
	RUN(legacy_short_cache);
	RUN(legacy_enospc_above);
	RUN(legacy_enospc_needs_no_node);
	RUN(legacy_cache_trimmed);
	RUN(legacy_mixes_with_idr_alloc);
	RUN(legacy_model_mix);
	RUN(legacy_threads_retry_loop);
}
