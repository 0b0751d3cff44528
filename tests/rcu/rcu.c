/* SPDX-License-Identifier: MIT */
/*
 * rcu.c - lock-free readers of an RCU idr beside its writer (issue 29).
 *
 *   rcu [SECONDS [SEED]]    SECONDS: how long each threaded case runs
 *
 * Readers take no lock, only rcu_read_lock(); writers (one at a time,
 * under a mutex) allocate, remove, replace, grow, shrink and destroy.
 * What is stored is an object that says which ID it is at; the writer
 * frees an object it took out of the idr after a grace period, as the
 * library frees its nodes.  The cases:
 *
 *   find_*       the kernel's idr_find_test_1: an anchor ID that stays, a
 *                throbber far from it allocated and removed, so that the
 *                tree grows and shrinks several levels; readers must
 *                always find the anchor, and nothing but the two;
 *   iterate_*    in the spirit of the kernel's iteration_check: an adder,
 *                a remover and a replacer, beside iterators that pause
 *                and resume (idr_get_next() a few steps a section) or go
 *                through in one section (idr_for_each_entry(),
 *                idr_for_each()): IDs only go up, every entry belongs to
 *                its ID, and no ID present throughout is skipped;
 *   packed       the same over a sparse range: random single-ID inserts
 *                (packed nodes), dense runs and thinning, finders and
 *                iterators checking every value they see;
 *   tagged       a stale tagged ID never finds the slot's new object;
 *   destroy      idr_destroy() under readers, and the cache of the idr
 *                empty once the deferred frees have run;
 *   pending      idr_stats() counts the blocks waiting for readers;
 *   model        one thread: an RCU idr and a plain one given the same
 *                operations answer the same, and both stay sound.
 *
 * Built with IDR_RCU_WINDOWS (make test's rcu-asan), the threaded cases
 * run three times: readers pausing between loading a pointer and using
 * it while the library frees each node right after a grace period, in
 * the writer, so that a node freed too soon is read after its free
 * within seconds, and AddressSanitizer says so; readers pausing beside a
 * writer at full speed (call_rcu()), so that a node changed in place
 * under them shows; and no pauses (RCU_WIDEN=0: only that).  Built with IDR_RCU_SHIM (rcu-tsan), RCU is
 * a rwlock that ThreadSanitizer understands.  The last line is
 * "N passed, N failed".
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "defer.h"
#include "idr_rcu.h"
#include "idr_view.h"
#include "rcu_shim.h"

#define LIVE 0x11feul
/* The model's steps: fewer under ThreadSanitizer, which is slow at them
 * and has nothing to see in one thread. */
#ifdef IDR_RCU_SHIM
#define MODEL_STEPS 20000
#else
#define MODEL_STEPS 200000
#endif
#define READERS 2

struct obj {
	unsigned long id; /* where it is stored (tagged: the tagged ID) */
	unsigned long magic;
#ifndef IDR_RCU_SHIM
	struct rcu_head rcu;
#endif
};

static unsigned long passed, failed;
static double seconds = 0.5;
static unsigned int seed = 1;
/* Failures in threads: counted, the first few shown. */
static unsigned long thread_failures;

static void check(bool ok, const char *what)
{
	if (ok) {
		passed++;
		printf("ok %s\n", what);
	} else {
		failed++;
		printf("not ok %s\n", what);
	}
}

static void fail(const char *fmt, unsigned long a, unsigned long b)
{
	if (__atomic_fetch_add(&thread_failures, 1, __ATOMIC_RELAXED) < 5) {
		fprintf(stderr, "rcu: ");
		fprintf(stderr, fmt, a, b);
		fputc('\n', stderr);
	}
}

/* {==================== Threads, objects, pauses ==================== */

static int stop;
static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;

static bool stopping(void)
{
	return __atomic_load_n(&stop, __ATOMIC_ACQUIRE);
}

static unsigned int rnd(unsigned int *state)
{
	unsigned int x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x ? x : 1;
}

static struct obj *obj_new(unsigned long id)
{
	struct obj *o = malloc(sizeof(*o));

	if (!o)
		abort();
	o->id = id;
	o->magic = LIVE;
	return o;
}

#ifndef IDR_RCU_SHIM
static void obj_free(struct rcu_head *head)
{
	struct obj *o = (struct obj *)((char *)head -
				       offsetof(struct obj, rcu));

	o->magic = 0;
	free(o);
}
#endif

/* @o is out of the idr: free it once no reader can hold it. */
static void obj_retire(struct obj *o)
{
	if (!o)
		return;
#ifdef IDR_RCU_SHIM
	idr__rcu_synchronize();
	free(o);
#else
	call_rcu(&o->rcu, obj_free);
#endif
}

/* What a reader checks of what it found at @id. */
static bool obj_sound(const struct obj *o, unsigned long id)
{
	if (o->magic != LIVE) {
		fail("ID %lu: object freed (magic %lx)", id, o->magic);
		return false;
	}
	if (o->id != id) {
		fail("ID %lu holds the object of ID %lu", id, o->id);
		return false;
	}
	return true;
}

#ifdef IDR_RCU_WINDOWS
static _Thread_local unsigned int pause_state;
static bool widen = true;

/* Readers only: a yield now and then, rarely a short sleep. */
static void reader_pause(void)
{
	unsigned int x;

	if (!pause_state)
		return;
	x = rnd(&pause_state);
	if ((x & 7) == 0) {
		sched_yield();
	} else if ((x & 1023) == 1) {
		struct timespec ts = { 0, 20000 };

		nanosleep(&ts, NULL);
	}
}
#endif

static void reader_begin(unsigned int id)
{
	idr__rcu_register();
#ifdef IDR_RCU_WINDOWS
	if (widen)
		pause_state = 2654435761u * (id + 1) ^ seed;
#else
	(void)id;
#endif
}

static void reader_end(void)
{
#ifdef IDR_RCU_WINDOWS
	pause_state = 0;
#endif
	idr__rcu_unregister();
}

struct team {
	void *(*readers[READERS])(void *);
	void *(*writers[3])(void *);
	unsigned int n_writers;
	void *arg;
};

/* Run @t's threads for the case's time; then stop them. */
static void run_team(const struct team *t)
{
	pthread_t th[READERS + 3];
	unsigned int i, n = 0;
	struct timespec ts = {
		(time_t)seconds,
		(long)((seconds - (double)(time_t)seconds) * 1e9)
	};

	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	for (i = 0; i < READERS; i++)
		if (pthread_create(&th[n++], NULL, t->readers[i], t->arg))
			abort();
	for (i = 0; i < t->n_writers; i++)
		if (pthread_create(&th[n++], NULL, t->writers[i], t->arg))
			abort();
	nanosleep(&ts, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/* Empty @idr, retire its objects, destroy it and wait for every free:
 * then its cache must be empty and nothing pending. */
static void teardown(struct idr *idr)
{
	struct idr_stats st;
	struct obj *o;
	int id;

	idr_for_each_entry(idr, o, id) {
		idr_remove(idr, (unsigned long)id);
		obj_retire(o);
	}
	idr_destroy(idr);
	idr__rcu_synchronize();
	idr__rcu_barrier();
	idr_stats(idr, &st);
	check(idr_cache_count(idr) == 0 && st.rcu_pending == 0 &&
		      st.rcu_pending_bytes == 0,
	      "teardown: no cache, nothing pending");
}

/* }==================== Threads, objects, pauses ==================== */

/* {==================== find: anchor and throbber ==================== */

struct find_case {
	struct idr idr;
	unsigned long anchor, throbber;
	struct obj *anchor_obj;
	unsigned long lookups, cycles;
};

static void *find_reader(void *arg)
{
	struct find_case *c = arg;
	unsigned long n = 0;

	reader_begin((unsigned int)(uintptr_t)&n);
	while (!stopping()) {
		struct obj *a, *t, *other;

		idr__rcu_read_lock();
		a = idr_find(&c->idr, c->anchor);
		t = idr_find(&c->idr, c->throbber);
		other = idr_find(&c->idr, c->throbber ^ 1);
		if (a != c->anchor_obj)
			fail("anchor %lu: found %lx", c->anchor,
			     (unsigned long)(uintptr_t)a);
		if (t)
			obj_sound(t, c->throbber);
		if (other)
			fail("ID %lu found, never stored (%lu)",
			     c->throbber ^ 1, 0);
		idr__rcu_read_unlock();
		n++;
	}
	__atomic_fetch_add(&c->lookups, n, __ATOMIC_RELAXED);
	reader_end();
	return NULL;
}

static void *find_writer(void *arg)
{
	struct find_case *c = arg;
	unsigned long n = 0;
	int t = (int)c->throbber;

	idr__rcu_register();
	while (!stopping()) {
		struct obj *o = obj_new(c->throbber);

		pthread_mutex_lock(&writer_lock);
		if (idr_alloc(&c->idr, o, t, t + 1, GFP_KERNEL) != t)
			fail("throbber %lu not allocated (%lu)", c->throbber,
			     0);
		pthread_mutex_unlock(&writer_lock);
		pthread_mutex_lock(&writer_lock);
		if (idr_remove(&c->idr, c->throbber) != o)
			fail("throbber %lu: removal (%lu)", c->throbber, 0);
		pthread_mutex_unlock(&writer_lock);
		obj_retire(o);
		n++;
	}
	c->cycles = n;
	idr__rcu_unregister();
	return NULL;
}

static void find_anchor(unsigned long anchor, unsigned long throbber)
{
	static struct find_case c;
	struct team t = { { find_reader, find_reader }, { find_writer }, 1, &c };
	char what[96];

	memset(&c, 0, sizeof(c));
	idr_init_rcu(&c.idr);
	c.anchor = anchor;
	c.throbber = throbber;
	c.anchor_obj = obj_new(anchor);
	check(idr_alloc(&c.idr, c.anchor_obj, (int)anchor, (int)anchor + 1,
			GFP_KERNEL) == (int)anchor,
	      "find: anchor stored");
	thread_failures = 0;
	run_team(&t);
	snprintf(what, sizeof(what),
		 "find: anchor %lu, throbber %lu: %lu lookups, %lu cycles",
		 anchor, throbber, c.lookups, c.cycles);
	check(!thread_failures && c.lookups && c.cycles, what);
	check(idr_check(&c.idr) == 0, "find: sound after");
	teardown(&c.idr);
}

/* }==================== find: anchor and throbber ==================== */

/* {==================== iterate, packed: churn beside readers ========= */

/*
 * IDs below @space; those in @stable (every @stable_every-th, from 0)
 * are stored first and never removed nor replaced.  The writers: an
 * adder (lowest free from a random start, or one random ID alone: a
 * lone insertion, packed nodes), a remover (random IDs; in @thin mode,
 * runs of every other ID) and a replacer.
 */
struct churn {
	struct idr idr;
	unsigned long space, stable_every, stable_count;
	bool thin;
	unsigned long passes, finds, ops;
};

static bool is_stable(const struct churn *c, unsigned long id)
{
	return id % c->stable_every == 0;
}

static void *adder(void *arg)
{
	struct churn *c = arg;
	unsigned int r = seed * 3 + 1;
	unsigned long n = 0;

	idr__rcu_register();
	while (!stopping()) {
		unsigned int x = rnd(&r);
		int start = (int)(x % c->space), end = (int)c->space;
		struct obj *o = obj_new(0);
		int id;

		if (x & 0x10000)
			end = start + 1; /* alone: packed nodes */
		/* The kernel's way: reserve the ID (NULL, which readers
		 * skip), fill the object in, then publish it; or, half the
		 * time, store the object at once, where the reservation
		 * showed the lowest free ID is (NULL hides an entry moved
		 * under a reader's feet; an object does not). */
		pthread_mutex_lock(&writer_lock);
		id = idr_alloc(&c->idr, NULL, start, end, GFP_KERNEL);
		if (id >= 0) {
			o->id = (unsigned long)id;
			if (x & 0x20000) {
				idr_replace(&c->idr, o, (unsigned long)id);
			} else {
				idr_remove(&c->idr, (unsigned long)id);
				if (idr_alloc(&c->idr, o, id, id + 1,
					      GFP_KERNEL) != id)
					fail("ID %lu: not stored again (%lu)",
					     (unsigned long)id, 0);
			}
		}
		pthread_mutex_unlock(&writer_lock);
		if (id < 0)
			free(o); /* never published */
		n++;
	}
	__atomic_fetch_add(&c->ops, n, __ATOMIC_RELAXED);
	idr__rcu_unregister();
	return NULL;
}

static void remove_one(struct churn *c, unsigned long id)
{
	struct obj *o;

	if (is_stable(c, id))
		return;
	pthread_mutex_lock(&writer_lock);
	o = idr_remove(&c->idr, id);
	pthread_mutex_unlock(&writer_lock);
	obj_retire(o);
}

static void *remover(void *arg)
{
	struct churn *c = arg;
	unsigned int r = seed * 5 + 2;
	unsigned long n = 0, i;

	idr__rcu_register();
	while (!stopping()) {
		unsigned long id = rnd(&r) % c->space;

		if (c->thin && (id & 1)) /* a run of every other ID */
			for (i = id; i < id + 64 && i < c->space; i += 2)
				remove_one(c, i);
		else
			remove_one(c, id);
		n++;
	}
	__atomic_fetch_add(&c->ops, n, __ATOMIC_RELAXED);
	idr__rcu_unregister();
	return NULL;
}

static void *replacer(void *arg)
{
	struct churn *c = arg;
	unsigned int r = seed * 7 + 3;
	unsigned long n = 0;

	idr__rcu_register();
	while (!stopping()) {
		unsigned long id = rnd(&r) % c->space;
		struct obj *o = obj_new(id), *old;

		if (is_stable(c, id)) {
			free(o);
			continue;
		}
		pthread_mutex_lock(&writer_lock);
		old = idr_replace(&c->idr, o, id);
		pthread_mutex_unlock(&writer_lock);
		if (IS_ERR(old))
			free(o); /* never published */
		else
			obj_retire(old);
		n++;
	}
	__atomic_fetch_add(&c->ops, n, __ATOMIC_RELAXED);
	idr__rcu_unregister();
	return NULL;
}

/* One pass's bookkeeping: IDs go up, values belong, stable ones seen. */
struct pass {
	const struct churn *c;
	long last;
	unsigned long stable_seen;
};

static bool pass_see(struct pass *p, int id, const struct obj *o)
{
	if ((long)id <= p->last) {
		fail("iteration went back: %lu after %lu", (unsigned long)id,
		     (unsigned long)p->last);
		return false;
	}
	p->last = id;
	if (!obj_sound(o, (unsigned long)id))
		return false;
	p->stable_seen += is_stable(p->c, (unsigned long)id);
	return true;
}

static void pass_end(struct pass *p)
{
	if (p->stable_seen != p->c->stable_count)
		fail("a pass saw %lu of %lu IDs present throughout",
		     p->stable_seen, p->c->stable_count);
}

/* idr_get_next() a few steps a read-side section, resuming after it. */
static void pass_paused(struct churn *c, unsigned int *r)
{
	struct pass p = { c, -1, 0 };
	int id = 0;
	bool more = true;

	while (more) {
		unsigned int steps = rnd(r) % 16 + 1;

		idr__rcu_read_lock();
		while (steps-- && more) {
			struct obj *o = idr_get_next(&c->idr, &id);

			more = o != NULL;
			if (more && !pass_see(&p, id, o))
				more = false;
			id++;
		}
		idr__rcu_read_unlock();
		if (rnd(r) % 4 == 0)
			sched_yield();
	}
	pass_end(&p);
}

static int each_fn(int id, void *entry, void *data)
{
	return !pass_see(data, id, entry);
}

/* A pass in one section: idr_for_each_entry() or idr_for_each(). */
static void pass_whole(struct churn *c, bool each)
{
	struct pass p = { c, -1, 0 };
	struct obj *o;
	int id;

	idr__rcu_read_lock();
	if (each) {
		if (idr_for_each(&c->idr, each_fn, &p))
			p.stable_seen = c->stable_count; /* said already */
	} else {
		idr_for_each_entry(&c->idr, o, id) {
			if (!pass_see(&p, id, o)) {
				p.stable_seen = c->stable_count;
				break;
			}
		}
	}
	idr__rcu_read_unlock();
	pass_end(&p);
}

/* Finds: stable IDs always there; any value found belongs to its ID. */
static void finds(struct churn *c, unsigned int *r)
{
	unsigned int i;

	idr__rcu_read_lock();
	for (i = 0; i < 64; i++) {
		unsigned long id = rnd(r) % c->space;
		struct obj *o = idr_find(&c->idr, id);

		if (o)
			obj_sound(o, id);
		else if (is_stable(c, id))
			fail("stable ID %lu not found (%lu)", id, 0);
	}
	idr__rcu_read_unlock();
}

static void *churn_reader(void *arg)
{
	static unsigned int readers;
	struct churn *c = arg;
	unsigned int me = __atomic_fetch_add(&readers, 1, __ATOMIC_RELAXED);
	unsigned int r = seed * 11 + me, k = 0;
	unsigned long passes = 0, n = 0;

	reader_begin(me);
	while (!stopping()) {
		if (me % 2 == 0) {
			finds(c, &r);
			n += 64;
		}
		switch (k++ % 3) {
		case 0:
			pass_paused(c, &r);
			break;
		case 1:
			pass_whole(c, false);
			break;
		default:
			pass_whole(c, true);
		}
		passes++;
	}
	__atomic_fetch_add(&c->passes, passes, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->finds, n, __ATOMIC_RELAXED);
	reader_end();
	return NULL;
}

static void churn_run(const char *name, unsigned long space,
		      unsigned long stable_every, bool thin)
{
	static struct churn c;
	struct team t = { { churn_reader, churn_reader },
			  { adder, remover, replacer },
			  3,
			  &c };
	unsigned long id;
	char what[128];

	memset(&c, 0, sizeof(c));
	idr_init_rcu(&c.idr);
	c.space = space;
	c.stable_every = stable_every;
	c.thin = thin;
	for (id = 0; id < space; id += stable_every) {
		if (idr_alloc(&c.idr, obj_new(id), (int)id, (int)id + 1,
			      GFP_KERNEL) != (int)id)
			fail("stable ID %lu not stored (%lu)", id, 0);
		c.stable_count++;
	}
	thread_failures = 0;
	run_team(&t);
	snprintf(what, sizeof(what),
		 "%s: %lu passes, %lu finds beside %lu writes, none wrong",
		 name, c.passes, c.finds, c.ops);
	check(!thread_failures && c.passes && c.ops, what);
	check(idr_check(&c.idr) == 0, "churn: sound after");
	teardown(&c.idr);
}

/* }==================== iterate, packed: churn beside readers ========= */

/* {==================== tagged ==================== */

#define TAG_SLOTS 64

struct tag_case {
	struct idr idr;
	int published[TAG_SLOTS]; /* the tagged ID last stored at each */
	unsigned long finds, stale, cycles;
};

static void *tag_reader(void *arg)
{
	struct tag_case *c = arg;
	unsigned int r = seed * 13 + 1;
	unsigned long n = 0, stale = 0;

	reader_begin(r);
	while (!stopping()) {
		unsigned int i = rnd(&r) % TAG_SLOTS;
		int tagged = __atomic_load_n(&c->published[i],
					     __ATOMIC_ACQUIRE);
		struct obj *o;

		idr__rcu_read_lock();
		o = idr_find_tagged(&c->idr, tagged);
		if (o)
			obj_sound(o, (unsigned long)tagged);
		else
			stale++;
		idr__rcu_read_unlock();
		n++;
	}
	__atomic_fetch_add(&c->finds, n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->stale, stale, __ATOMIC_RELAXED);
	reader_end();
	return NULL;
}

static void *tag_writer(void *arg)
{
	struct tag_case *c = arg;
	unsigned int r = seed * 17 + 1;
	unsigned long n = 0;

	idr__rcu_register();
	while (!stopping()) {
		unsigned int i = rnd(&r) % TAG_SLOTS;
		int old = __atomic_load_n(&c->published[i], __ATOMIC_RELAXED);
		struct obj *o = obj_new(0), *gone;
		int tagged;

		/* The ID is freed and taken again at once: a new generation,
		 * the stale tag still in readers' hands. */
		pthread_mutex_lock(&writer_lock);
		gone = idr_remove_tagged(&c->idr, old);
		tagged = idr_alloc_tagged(&c->idr, NULL, (int)i, (int)i + 1,
					  GFP_KERNEL);
		if (tagged >= 0) {
			o->id = (unsigned long)tagged; /* before readers see o */
			idr_replace(&c->idr, o, i);
		}
		pthread_mutex_unlock(&writer_lock);
		obj_retire(gone);
		if (tagged < 0) {
			fail("slot %lu: no tagged ID (%lu)", i, 0);
			free(o);
			continue;
		}
		__atomic_store_n(&c->published[i], tagged, __ATOMIC_RELEASE);
		n++;
	}
	c->cycles = n;
	idr__rcu_unregister();
	return NULL;
}

static void tagged(void)
{
	static struct tag_case c;
	struct team t = { { tag_reader, tag_reader }, { tag_writer }, 1, &c };
	unsigned int i;
	char what[128];

	memset(&c, 0, sizeof(c));
	idr_init_rcu(&c.idr);
	check(idr_tag_init(&c.idr, 10, 0) == 0, "tagged: tag_init");
	for (i = 0; i < TAG_SLOTS; i++) {
		struct obj *o = obj_new(0);

		c.published[i] = idr_alloc_tagged(&c.idr, o, (int)i, (int)i + 1,
						  GFP_KERNEL);
		o->id = (unsigned long)c.published[i];
	}
	thread_failures = 0;
	run_team(&t);
	snprintf(what, sizeof(what),
		 "tagged: %lu finds (%lu stale) beside %lu reuses, none of "
		 "another generation",
		 c.finds, c.stale, c.cycles);
	check(!thread_failures && c.finds && c.cycles, what);
	teardown(&c.idr);
}

/* }==================== tagged ==================== */

/* {==================== destroy ==================== */

struct destroy_case {
	struct idr idr;
	unsigned long finds, rounds;
};

static void *destroy_reader(void *arg)
{
	struct destroy_case *c = arg;
	unsigned int r = seed * 19 + 1;
	unsigned long n = 0;

	reader_begin(r);
	while (!stopping()) {
		unsigned long id = rnd(&r) % 4096;
		struct obj *o;
		int i;

		idr__rcu_read_lock();
		o = idr_find(&c->idr, id);
		if (o)
			obj_sound(o, id);
		if (n % 64 == 0)
			idr_for_each_entry(&c->idr, o, i)
				obj_sound(o, (unsigned long)i);
		idr__rcu_read_unlock();
		n++;
	}
	__atomic_fetch_add(&c->finds, n, __ATOMIC_RELAXED);
	reader_end();
	return NULL;
}

static void *destroy_writer(void *arg)
{
	static struct obj *objs[4096];
	struct destroy_case *c = arg;
	unsigned int r = seed * 23 + 1;
	unsigned long n = 0;
	int i, count;

	idr__rcu_register();
	while (!stopping()) {
		count = (int)(rnd(&r) % 4096) + 1;
		pthread_mutex_lock(&writer_lock);
		/* Stores (and cached nodes, with idr_pre_get()) then one
		 * idr_destroy(): readers see the tree or nothing. */
		idr_pre_get(&c->idr, GFP_KERNEL);
		for (i = 0; i < count; i++) {
			objs[i] = obj_new((unsigned long)i);
			if (idr_alloc(&c->idr, objs[i], i, i + 1, GFP_KERNEL) !=
			    i)
				fail("ID %lu not stored (%lu)",
				     (unsigned long)i, 0);
		}
		for (i = 0; i < count; i += 3)
			if (idr_remove(&c->idr, (unsigned long)i) != objs[i])
				fail("ID %lu: removal (%lu)", (unsigned long)i,
				     0);
		for (i = 0; i < count; i += 3)
			obj_retire(objs[i]);
		idr_destroy(&c->idr);
		pthread_mutex_unlock(&writer_lock);
		for (i = 0; i < count; i++)
			if (i % 3)
				obj_retire(objs[i]);
		n++;
	}
	c->rounds = n;
	idr__rcu_unregister();
	return NULL;
}

static void destroy(void)
{
	static struct destroy_case c;
	struct team t = { { destroy_reader, destroy_reader },
			  { destroy_writer },
			  1,
			  &c };
	char what[128];

	memset(&c, 0, sizeof(c));
	idr_init_rcu(&c.idr);
	thread_failures = 0;
	run_team(&t);
	snprintf(what, sizeof(what),
		 "destroy: %lu finds beside %lu destroys, none wrong", c.finds,
		 c.rounds);
	check(!thread_failures && c.finds && c.rounds, what);
	teardown(&c.idr);
}

/* }==================== destroy ==================== */

/* {==================== pending, model ==================== */

#ifndef IDR_RCU_SHIM
static int holding;

/* Hold a read-side section until told: no grace period ends meanwhile. */
static void *holder(void *arg)
{
	(void)arg;
	idr__rcu_register();
	idr__rcu_read_lock();
	__atomic_store_n(&holding, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&holding, __ATOMIC_ACQUIRE) == 1)
		sched_yield();
	idr__rcu_read_unlock();
	idr__rcu_unregister();
	return NULL;
}

static void pending(void)
{
	static struct idr idr;
	struct idr_stats st;
	pthread_t th;
	int i;

#ifdef IDR_RCU_WINDOWS
	bool eager = idr__rcu_eager;

	idr__rcu_eager = false;
#endif
	idr_init_rcu(&idr);
	for (i = 0; i < 1000; i++)
		idr_alloc(&idr, &idr, i, i + 1, GFP_KERNEL);
	pthread_create(&th, NULL, holder, NULL);
	while (!__atomic_load_n(&holding, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 0; i < 1000; i++)
		idr_remove(&idr, (unsigned long)i);
	idr_stats(&idr, &st);
	check(st.rcu_pending > 0 && st.rcu_pending_bytes > 0 && st.ids == 0,
	      "pending: a reader inside, the nodes wait");
	__atomic_store_n(&holding, 2, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	idr__rcu_synchronize();
	idr__rcu_barrier();
	idr_stats(&idr, &st);
	check(st.rcu_pending == 0 && st.rcu_pending_bytes == 0,
	      "pending: none once the reader left and the frees ran");
	idr_destroy(&idr);
	idr__rcu_barrier();
#ifdef IDR_RCU_WINDOWS
	idr__rcu_eager = eager;
#endif
}
#endif

/* Whether cyclic() keeps @k: 1 in 4, and a leaf's last two. */
static bool kept(unsigned long k)
{
	return k % 4 == 0 || k % IDR_SLOTS >= IDR_SLOTS - 2;
}

/* @leaves leaves' worth of cyclic allocations on @idr, @preloaded or
 * not; an ID not kept() goes right after the next allocation, in the
 * leaf the cursor is in, so that no removal packs it.  The packed
 * nodes then. */
static unsigned long cyclic_fill(struct idr *idr, unsigned long from,
				 unsigned long leaves, bool preloaded)
{
	unsigned long k, end = from + leaves * IDR_SLOTS;
	struct idr_stats st;

	for (k = from; k <= end; k++) {
		if (preloaded)
			idr_preload(GFP_KERNEL);
		check(idr_alloc_cyclic(idr, idr, 0, 0,
				       preloaded ? GFP_NOWAIT : GFP_KERNEL) ==
			      (int)k,
		      "cyclic: the cursor's ID");
		if (preloaded)
			idr_preload_end();
		if (k > from && !kept(k - 1))
			idr_remove(idr, k - 1);
	}
	idr_stats(idr, &st);
	return st.packed;
}

/*
 * A cyclic allocator on an RCU idr: the allocation that moves the cursor
 * on packs the leaf it leaves, but not under idr_preload() (the pack is
 * a copy, a malloc); that leaf packs at its next removal.
 */
static void cyclic(void)
{
	static struct idr idr;
	struct idr_stats st;

	idr_init_rcu(&idr);
	check(cyclic_fill(&idr, 0, 1, true) == 0,
	      "cyclic: under idr_preload(), the leaf left stays whole");
	idr_remove(&idr, 0);
	idr_stats(&idr, &st);
	check(st.packed == 1, "cyclic: it packs at its next removal");
	check(cyclic_fill(&idr, IDR_SLOTS + 1, 1, false) == 2,
	      "cyclic: not preloaded, the leaf left is packed");
	check(idr_check(&idr) == 0, "cyclic: sound");
	idr_destroy(&idr);
	idr__rcu_synchronize();
	idr__rcu_barrier();
}

/* The same operations on an RCU idr and a plain one, both from @base,
 * over IDs below @space: sparse (lone insertions, packed nodes) or
 * dense. */
static void model(unsigned long space, int base)
{
	static struct idr a, b;
	unsigned int r = seed * 29 + 1, step, bad = 0;
	struct idr_info info;
	char what[96];

	if (base)
		idr_init_rcu_base(&a, base);
	else
		idr_init_rcu(&a);
	idr_init_base(&b, base);
	idr_info(&a, &info);
	check(info.rcu && info.base == (unsigned long)base,
	      "model: idr_init_rcu_base() makes an RCU idr with its base");
	for (step = 0; step < MODEL_STEPS && !bad; step++) {
		unsigned int x = rnd(&r);
		int start = (int)(x % space), end = x & 0x100 ? start + 1 : 0;
		unsigned long id = (unsigned long)start;
		void *p = (void *)(uintptr_t)(x | 1);

		if (step % 4096 >= 3000) /* thinning, now and then */
			x &= ~1u;
		if (x & 1 && x & 0x200) {
			int ia = idr_alloc_cyclic(&a, p, 0, end, GFP_KERNEL);
			int ib = idr_alloc_cyclic(&b, p, 0, end, GFP_KERNEL);

			bad += ia != ib;
		} else if (x & 1) {
			int ia = idr_alloc(&a, p, start, end, GFP_KERNEL);
			int ib = idr_alloc(&b, p, start, end, GFP_KERNEL);

			bad += ia != ib;
		} else if (x & 2) {
			bad += idr_replace(&a, p, id) != idr_replace(&b, p, id);
		} else {
			int na = (int)id, nb = (int)id;

			bad += idr_remove(&a, id) != idr_remove(&b, id);
			bad += idr_get_next(&a, &na) != idr_get_next(&b, &nb) ||
			       na != nb;
		}
		bad += idr_find(&a, id) != idr_find(&b, id);
		if (step % 1024 == 0)
			bad += idr_check(&a) != 0 || idr_check(&b) != 0 ||
			       idr_count(&a) != idr_count(&b);
	}
	snprintf(what, sizeof(what),
		 "model below %lu from %d: an RCU idr answers as a plain one, "
		 "sound",
		 space, base);
	check(!bad && idr_check(&a) == 0, what);
	idr_destroy(&a);
	idr_destroy(&b);
	idr__rcu_synchronize();
	idr__rcu_barrier();
}

/* }==================== pending, model ==================== */

/* The threaded cases: readers pausing or not, the writer freeing each
 * node right after a grace period (@eager) or through call_rcu(). */
static void threaded(bool pause, bool eager)
{
#ifdef IDR_RCU_WINDOWS
	widen = pause;
#ifndef IDR_RCU_SHIM
	idr__rcu_eager = eager;
#endif
#endif
	(void)eager;
	printf("# readers pause: %s; nodes freed: %s\n", pause ? "yes" : "no",
	       eager ? "at once after a grace period" : "by call_rcu()");
	find_anchor(0, (1u << 30) + 4097);
	find_anchor((1u << 30) + 4097, 0);
	find_anchor(100000, 0);
	churn_run("iterate", 512, 5, false);
	churn_run("packed", 1u << 20, 4099, true);
	tagged();
	destroy();
}

int main(int argc, char **argv)
{
	bool wide = false;

	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		seed = (unsigned int)strtoul(argv[2], NULL, 0);
	if (seconds <= 0)
		seconds = 0.5;
	setvbuf(stdout, NULL, _IOLBF, 0);
	idr__rcu_register();
#ifdef IDR_RCU_WINDOWS
	wide = !getenv("RCU_WIDEN") || strcmp(getenv("RCU_WIDEN"), "0");
	idr__reader_pause = reader_pause;
#endif
	printf("# %.2f s a case, seed %u\n", seconds, seed);
	model(1u << 16, 0);
	model(2048, 0);
	model(2048, 1);
	cyclic();
#ifndef IDR_RCU_SHIM
	pending();
#endif
	/* Widened, a node freed too soon is read after its free; with a
	 * writer at full speed, more changes under the readers' feet. */
	if (wide) {
#ifndef IDR_RCU_SHIM
		threaded(true, true);
#endif
		threaded(true, false);
	}
	threaded(false, false);
	idr__rcu_unregister();
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed != 0;
}
