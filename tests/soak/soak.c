/* SPDX-License-Identifier: MIT */
/*
 * soak.c - threads share one idr under one mutex, for a set time.
 *
 *   soak [THREADS [SECONDS [SEED]]]    (SECONDS also from $SOAK_SECONDS)
 *
 * Each thread takes its nodes outside the lock, with idr_preload() or
 * idr_pre_get(), as the kernel's callers do, then mixes idr_alloc,
 * idr_alloc_cyclic, idr_get_new_above (with the -EAGAIN retry),
 * idr_replace, idr_remove, idr_find and iteration under the lock.  A few
 * idr_alloc calls go without a preload, as kernel code under a mutex
 * may do: they malloc under the lock, and drain the idr's node cache.
 * Now and then a thread destroys the whole idr under the lock while the
 * others go on, idr_pre_get() included, outside it.
 *
 * What is stored is the address of a record in the storing thread's
 * own pool, which says which ID it was stored at.  Records change only
 * under the lock, so any thread holding it sees them all as they are:
 *
 *   - a find or an iteration that meets an entry must meet a live
 *     record of that very ID (an ID handed out twice breaks this);
 *   - a full iteration meets exactly as many entries as there are live
 *     records, and idr_count() agrees;
 *   - a removal returns the record the owner stored, nothing else;
 *   - after a preload, the allocator seam's count of this thread's
 *     mallocs does not move while the lock is held.
 *
 * At the end every ID is freed: the tree must be sound and empty, and
 * once destroyed, hold no byte.  The last line is "N passed, N failed",
 * one per check below; built with -fsanitize=thread, a data race fails
 * the run as well.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idr.h"
#include "seam.h"

#define MAX_THREADS 64
#define KEEP 48 /* IDs a thread holds at most */
/* After a successful idr_pre_get() one retry must do; allow for luck. */
#define MAX_TRIES 1000

/* One stored pointer: which ID it is stored at, while live. */
struct rec {
	int id;
	bool live;
};

struct worker {
	pthread_t thread;
	unsigned int me;
	uint64_t rng;
	struct rec recs[KEEP];
	int owned[KEEP]; /* indexes into recs[] of the live records */
	int nowned;
	unsigned long epoch; /* the destroys this thread has caught up with */
	/* What happened, read by main once the thread is joined. */
	unsigned long ops, allocs, removes, finds, walks, full_walks;
	unsigned long eagain, retried, enospc, destroyed;
	unsigned long unpreloaded;   /* allocations without a preload */
	unsigned long wrong;	     /* a result that breaks the rules above */
	unsigned long malloc_locked; /* a malloc with the lock held */
	unsigned long enomem;	     /* malloc does not fail here */
	unsigned long unsound;	     /* idr_check() under the lock failed */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct idr shared = IDR_INIT(shared);
static struct worker workers[MAX_THREADS];
static unsigned int nthreads;
static atomic_bool stop;
static unsigned long destroys; /* changes under the lock */

/* {==================== Helpers ==================== */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rnd_below(uint64_t *s, unsigned int n)
{
	return (unsigned int)(rnd_next(s) % n);
}

/*
 * A start ID: crowded near 0, at each level's edge, near INT_MAX, and
 * anywhere at all, where an allocation needs a whole new path of nodes.
 */
static int pick_start(struct worker *w)
{
	static const int anchors[] = {
		0, 0, 0, 100, 4000, 1 << 18, 1 << 24, 1 << 30, INT_MAX - 200,
	};
	int a = anchors[rnd_below(&w->rng, sizeof(anchors) / sizeof(*anchors))];

	if (rnd_below(&w->rng, 4) == 0)
		return (int)(rnd_next(&w->rng) & INT_MAX);
	return a + (int)rnd_below(&w->rng, 150);
}

/* The end of a range: none, or a few IDs above @start. */
static int pick_end(struct worker *w, int start)
{
	long end = (long)start + 1 + rnd_below(&w->rng, 200);

	if (rnd_below(&w->rng, 2))
		return 0;
	return end > INT_MAX ? 0 : (int)end;
}

/* The record @p points to, if it is one of some thread's; else NULL. */
static struct rec *rec_of(const void *p)
{
	uintptr_t a = (uintptr_t)p;

	for (unsigned int i = 0; i < nthreads; i++) {
		struct rec *r = workers[i].recs;

		if (a >= (uintptr_t)r && a < (uintptr_t)(r + KEEP) &&
		    (a - (uintptr_t)r) % sizeof(*r) == 0)
			return r + (a - (uintptr_t)r) / sizeof(*r);
	}
	return NULL;
}

/* Whether @p is a live record of ID @id.  Call with the lock held. */
static bool entry_ok(unsigned long id, const void *p)
{
	const struct rec *r = rec_of(p);

	return r && r->live && (unsigned long)r->id == id;
}

/* A free record of @w's (there is one: callers hold fewer than KEEP). */
static int free_rec(struct worker *w)
{
	for (int k = 0; k < KEEP; k++)
		if (!w->recs[k].live)
			return k;
	return -1;
}

/* The lock, and the seam's count of this thread's mallocs at taking it. */
static unsigned long lock_take(void)
{
	struct seam_mem_stats m;

	pthread_mutex_lock(&lock);
	seam_mem_stats(&m);
	return m.thread_allocs;
}

static void lock_drop(struct worker *w, unsigned long allocs)
{
	struct seam_mem_stats m;

	seam_mem_stats(&m);
	if (m.thread_allocs != allocs)
		w->malloc_locked++;
	pthread_mutex_unlock(&lock);
}

/*
 * Under the lock: if the idr was destroyed since @w last looked, its IDs
 * are gone, and so are its records.  Only @w writes its own records.
 */
static void catch_up(struct worker *w)
{
	if (w->epoch == destroys)
		return;
	for (int k = 0; k < KEEP; k++)
		w->recs[k].live = false;
	w->nowned = 0;
	w->epoch = destroys;
}

/* Under the lock: one of @w's live IDs at random, as owned[*@i]. */
static bool pick_owned(struct worker *w, int *i)
{
	catch_up(w);
	if (w->nowned == 0)
		return false;
	*i = (int)rnd_below(&w->rng, (unsigned int)w->nowned);
	return true;
}

/* Record that @w now owns ID @id, through record @k.  Lock held. */
static void own(struct worker *w, int k, int id)
{
	if (idr_find(&shared, (unsigned long)id) != &w->recs[k])
		w->wrong++;
	w->recs[k].id = id;
	w->recs[k].live = true;
	w->owned[w->nowned++] = k;
	w->allocs++;
}

/* Sort a failed allocation: -ENOSPC may happen, nothing else. */
static void failed(struct worker *w, int err)
{
	if (err == -ENOSPC)
		w->enospc++;
	else if (err == -ENOMEM)
		w->enomem++;
	else
		w->wrong++;
}

/* }==================== Helpers ==================== */

/* {==================== Operations ==================== */

/*
 * idr_preload() outside the lock, then idr_alloc or idr_alloc_cyclic.
 * Without @preload, as kernel code under a mutex may do, the allocation
 * takes the idr's cached nodes and mallocs under the lock: allowed then,
 * and it drains the cache that idr_get_new() callers filled (-EAGAIN).
 */
static void op_alloc(struct worker *w, bool cyclic, bool preload)
{
	int k = free_rec(w), start = pick_start(w), end = pick_end(w, start);
	unsigned long a;
	int id;

	if (preload)
		idr_preload(GFP_KERNEL);
	a = lock_take();
	catch_up(w);
	id = cyclic ? idr_alloc_cyclic(&shared, &w->recs[k], start, end,
				       GFP_KERNEL)
		    : idr_alloc(&shared, &w->recs[k], start, end, GFP_KERNEL);
	if (id >= 0 && (id < start || (end > 0 && id >= end)))
		w->wrong++;
	if (id >= 0)
		own(w, k, id);
	else
		failed(w, id);
	if (preload) {
		lock_drop(w, a);
		idr_preload_end();
	} else {
		pthread_mutex_unlock(&lock);
		w->unpreloaded++;
	}
}

/* The 2004 way: idr_pre_get() outside, idr_get_new_above() inside. */
static void op_get_new(struct worker *w)
{
	int k = free_rec(w), start = pick_start(w), id = -1, err = -EAGAIN;
	/* Sometimes a first try on whatever the cache holds, as callers
	 * that pre_get only after an -EAGAIN do. */
	bool eager = rnd_below(&w->rng, 4) == 0;
	unsigned int tries;
	unsigned long a;

	for (tries = 0; err == -EAGAIN && tries < MAX_TRIES; tries++) {
		if ((tries || !eager) && !idr_pre_get(&shared, GFP_KERNEL)) {
			w->enomem++;
			return;
		}
		/* Let the others drain the cache now and then: -EAGAIN. */
		if (rnd_below(&w->rng, 4) == 0)
			sched_yield();
		a = lock_take();
		catch_up(w);
		err = start ? idr_get_new_above(&shared, &w->recs[k], start,
						&id)
			    : idr_get_new(&shared, &w->recs[k], &id);
		if (!err && id < start)
			w->wrong++;
		if (!err)
			own(w, k, id);
		lock_drop(w, a);
		if (err == -EAGAIN)
			w->eagain++;
	}
	if (err)
		failed(w, err);
	else if (tries > 1)
		w->retried++;
}

/* Free one of @w's IDs, picked at random: the tree shrinks too. */
static void op_remove(struct worker *w)
{
	unsigned long a = lock_take();
	int i, k;

	if (!pick_owned(w, &i)) {
		lock_drop(w, a);
		return;
	}
	k = w->owned[i];
	if (idr_remove(&shared, (unsigned long)w->recs[k].id) != &w->recs[k])
		w->wrong++;
	if (idr_find(&shared, (unsigned long)w->recs[k].id) != NULL)
		w->wrong++;
	w->recs[k].live = false;
	w->owned[i] = w->owned[--w->nowned];
	w->removes++;
	lock_drop(w, a);
}

/* Move one of @w's IDs to another record with idr_replace(). */
static void op_replace(struct worker *w)
{
	unsigned long a = lock_take();
	int i, k, k2, id;

	if (!pick_owned(w, &i)) {
		lock_drop(w, a);
		return;
	}
	k = w->owned[i];
	k2 = free_rec(w);
	id = w->recs[k].id;
	if (idr_replace(&shared, &w->recs[k2], (unsigned long)id) !=
	    &w->recs[k])
		w->wrong++;
	w->recs[k].live = false;
	w->recs[k2].id = id;
	w->recs[k2].live = true;
	w->owned[i] = k2;
	lock_drop(w, a);
}

/* Look up an ID near where IDs are: whoever holds it must own it. */
static void op_find(struct worker *w)
{
	unsigned long id = (unsigned long)pick_start(w);
	unsigned long a = lock_take();
	void *p = idr_find(&shared, id);

	if (p && !entry_ok(id, p))
		w->wrong++;
	w->finds++;
	lock_drop(w, a);
}

/* A few steps of idr_get_next() from somewhere. */
static void op_walk(struct worker *w)
{
	int id = pick_start(w), steps = 1 + (int)rnd_below(&w->rng, 16);
	unsigned long a = lock_take();
	void *p;

	while (steps-- > 0 && (p = idr_get_next(&shared, &id)) != NULL) {
		if (!entry_ok((unsigned long)id, p))
			w->wrong++;
		if (id == INT_MAX)
			break;
		id++;
	}
	w->walks++;
	lock_drop(w, a);
}

static int visit(int id, void *p, void *data)
{
	unsigned long *n = data;

	if (!entry_ok((unsigned long)id, p))
		return -1;
	(*n)++;
	return 0;
}

/* idr_for_each over the whole tree: every live record, nothing else. */
static void op_full_walk(struct worker *w)
{
	unsigned long a = lock_take(), n = 0, live = 0;

	/* A thread that has not caught up with a destroy owns nothing. */
	for (unsigned int i = 0; i < nthreads; i++)
		if (workers[i].epoch == destroys)
			live += (unsigned long)workers[i].nowned;
	if (idr_for_each(&shared, visit, &n) != 0 || n != live ||
	    idr_count(&shared) != live)
		w->wrong++;
	if (idr_check(&shared) != 0)
		w->unsound++;
	w->full_walks++;
	lock_drop(w, a);
}

/* idr_destroy() under the lock, while others may be in idr_pre_get(). */
static void op_destroy(struct worker *w)
{
	unsigned long a = lock_take();

	idr_destroy(&shared);
	destroys++;
	catch_up(w);
	if (idr_check(&shared) != 0 || !idr_is_empty(&shared))
		w->unsound++;
	w->destroyed++;
	lock_drop(w, a);
}

static void step(struct worker *w)
{
	unsigned int r = rnd_below(&w->rng, 1000);

	if (r == 0) {
		op_destroy(w);
		w->ops++;
		return;
	}
	r /= 10;

	if (w->nowned == KEEP || (w->nowned > 0 && r < 30))
		op_remove(w);
	else if (r < 42)
		op_alloc(w, false, true);
	else if (r < 45)
		op_alloc(w, false, false);
	else if (r < 55)
		op_alloc(w, true, true);
	else if (r < 70)
		op_get_new(w);
	else if (r < 75 && w->nowned > 0)
		op_replace(w);
	else if (r < 90)
		op_find(w);
	else if (r < 99)
		op_walk(w);
	else
		op_full_walk(w);
	w->ops++;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		step(w);
	while (w->nowned > 0)
		op_remove(w);
	return NULL;
}

/* }==================== Operations ==================== */

/* {==================== Main ==================== */

static unsigned long passed, failures;

static void check(bool ok, const char *what)
{
	if (ok)
		passed++;
	else
		failures++;
	printf("%s %s\n", ok ? "ok" : "not ok", what);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep @seconds, then tell the threads to stop. */
static void run_for(double seconds)
{
	struct timespec ts = {
		(time_t)seconds,
		(long)((seconds - (double)(time_t)seconds) * 1e9)
	};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	atomic_store(&stop, true);
}

static unsigned long arg_num(const char *s, unsigned long lo, unsigned long hi,
			     const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "soak: bad %s '%s': %lu .. %lu\n", what, s, lo,
			hi);
		exit(2);
	}
	return v;
}

static void report(double seconds)
{
	struct worker sum;
	struct seam_mem_stats m;
	bool all_worked = true;

	memset(&sum, 0, sizeof(sum));
	for (unsigned int i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		all_worked &= w->ops > 0 && w->allocs > 0 && w->removes > 0;
		sum.ops += w->ops;
		sum.allocs += w->allocs;
		sum.removes += w->removes;
		sum.finds += w->finds;
		sum.walks += w->walks;
		sum.full_walks += w->full_walks;
		sum.eagain += w->eagain;
		sum.retried += w->retried;
		sum.unpreloaded += w->unpreloaded;
		sum.enospc += w->enospc;
		sum.destroyed += w->destroyed;
		sum.wrong += w->wrong;
		sum.malloc_locked += w->malloc_locked;
		sum.enomem += w->enomem;
		sum.unsound += w->unsound;
	}
	printf("# %u threads x %lu operations in %.1f s (%lu allocs, %lu "
	       "removes, %lu finds, %lu walks, %lu full walks)\n",
	       nthreads, sum.ops, seconds, sum.allocs, sum.removes, sum.finds,
	       sum.walks, sum.full_walks);
	printf("# %lu -EAGAIN, %lu get_new retried, %lu -ENOSPC, %lu allocs "
	       "without preload, %lu destroys\n",
	       sum.eagain, sum.retried, sum.enospc, sum.unpreloaded,
	       sum.destroyed);
	check(all_worked, "every thread got work done");
	check(sum.destroyed > 0, "the idr was destroyed under contention");
	check(sum.wrong == 0, "live IDs unique; finds and walks meet owners");
	check(sum.malloc_locked == 0, "no malloc with the lock held");
	check(sum.enomem == 0, "no -ENOMEM");
	check(sum.unsound == 0, "idr_check under the lock");
	check(idr_check(&shared) == 0, "idr_check at the end");
	check(idr_is_empty(&shared) && idr_count(&shared) == 0,
	      "empty once every thread freed its IDs");
	idr_destroy(&shared);
	seam_mem_stats(&m);
	check(m.bytes == 0 && m.allocs == m.frees,
	      "nothing leaked: the seam's bytes back to 0");
}

int main(int argc, char **argv)
{
	const char *env = getenv("SOAK_SECONDS");
	unsigned long seconds = 3, seed = 1;
	double t0;

	nthreads = 4;
	if (argc > 1)
		nthreads = (unsigned int)arg_num(argv[1], 1, MAX_THREADS,
						 "THREADS");
	if (env && *env)
		seconds = arg_num(env, 0, 86400, "SOAK_SECONDS");
	if (argc > 2)
		seconds = arg_num(argv[2], 0, 86400, "SECONDS");
	if (argc > 3)
		seed = arg_num(argv[3], 0, ULONG_MAX, "SEED");
	printf("# soak: %u threads, %lu s, seed %lu\n", nthreads, seconds,
	       seed);
	fflush(stdout);
	t0 = now();
	for (unsigned int i = 0; i < nthreads; i++) {
		workers[i].me = i;
		workers[i].rng = seed * 1000 + i;
		if (pthread_create(&workers[i].thread, NULL, worker_fn,
				   &workers[i]) != 0) {
			fprintf(stderr, "soak: cannot start a thread\n");
			return 1;
		}
	}
	run_for((double)seconds);
	for (unsigned int i = 0; i < nthreads; i++)
		pthread_join(workers[i].thread, NULL);
	report(now() - t0);
	printf("%lu passed, %lu failed\n", passed, failures);
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* }==================== Main ==================== */
