/* SPDX-License-Identifier: MIT */
/*
 * rcu.c - lock-free readers of an RCU idr against readers that lock
 * (issue 29).  A tree of IDS IDs; one writer removes a random ID and
 * allocates the lowest free one again (back to back, or with a pause of
 * SPACE_US microseconds after each pair: spaced), while 1 or 2 readers
 * look up random IDs:
 *
 *   rcu      the RCU idr (idr_init_rcu()), readers in rcu_read_lock()
 *   mutex    a plain idr, readers taking the writer's mutex
 *   rwlock   a plain idr, readers pthread_rwlock_rdlock(), the writer
 *            wrlock (glibc's default kind: it prefers readers)
 *
 * For each: lookups/s (all readers), updates/s (alloc + remove pairs)
 * and the readers' CPU ns per lookup; then the single-thread cost of an
 * RCU read-side section around idr_find() against a plain idr_find().
 * The runs are interleaved (every configuration once, RUNS times) and
 * medians printed, with the load average before and after.  With 2
 * readers the machine's 2 cores hold 3 busy threads: oversubscribed.
 *
 * Each thread is pinned to a core (readers to 0, 1; the writer to the
 * next, modulo the cores), so that 1 reader and the writer run side by
 * side rather than taking turns on one core, where a lock is never
 * contended.
 *
 *	rcu [RUNS [MS]]      MS: milliseconds a measurement (200)
 */
#define _GNU_SOURCE /* pthread_setaffinity_np(): a benchmark, not libidr */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <urcu.h>

#include "args.h"
#include "idr_rcu.h"

#define IDS 100000
#define SPACE_US 20
#define RUNS_MAX 99

enum mode { RCU, MUTEX, RWLOCK, MODES };
static const char *const mode_name[MODES] = { "rcu", "mutex", "rwlock" };

struct config {
	enum mode mode;
	unsigned int readers;
	bool spaced;
};

static struct idr idr;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static const struct config *now;
static int stop;
static unsigned long ms = 200;

/* Pin the calling thread to core @n modulo the cores there are. */
static void pin(unsigned int n)
{
	cpu_set_t set;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	CPU_SET(n % (unsigned int)(cores > 0 ? cores : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static double clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static unsigned int rnd(unsigned int *s)
{
	unsigned int x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static void lock_read(void)
{
	if (now->mode == RCU)
		rcu_read_lock();
	else if (now->mode == MUTEX)
		pthread_mutex_lock(&mutex);
	else
		pthread_rwlock_rdlock(&rwlock);
}

static void unlock_read(void)
{
	if (now->mode == RCU)
		rcu_read_unlock();
	else if (now->mode == MUTEX)
		pthread_mutex_unlock(&mutex);
	else
		pthread_rwlock_unlock(&rwlock);
}

static void lock_write(void)
{
	if (now->mode == RWLOCK)
		pthread_rwlock_wrlock(&rwlock);
	else
		pthread_mutex_lock(&mutex);
}

static void unlock_write(void)
{
	if (now->mode == RWLOCK)
		pthread_rwlock_unlock(&rwlock);
	else
		pthread_mutex_unlock(&mutex);
}

struct count {
	unsigned long n;
	double cpu_ns;
	unsigned int core;
};

static void *reader(void *arg)
{
	struct count *c = arg;
	unsigned int r = (unsigned int)(uintptr_t)arg | 1;
	unsigned long n = 0, found = 0;
	double cpu;

	pin(c->core);
	cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	rcu_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		lock_read();
		found += idr_find(&idr, rnd(&r) % IDS) != NULL;
		unlock_read();
		n++;
	}
	c->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
	c->n = n;
	rcu_unregister_thread();
	if (found > n)
		abort();
	return NULL;
}

static void *writer(void *arg)
{
	struct count *c = arg;
	unsigned int r = 12345;
	unsigned long n = 0;
	struct timespec pause = { 0, SPACE_US * 1000 };

	pin(c->core);
	rcu_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned long id = rnd(&r) % IDS;

		/* The lowest free ID is the one just freed, most often: the
		 * allocation seldom needs a node, and takes no preload. */
		lock_write();
		if (idr_remove(&idr, id) &&
		    idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL) < 0)
			abort();
		unlock_write();
		n++;
		if (now->spaced)
			nanosleep(&pause, NULL);
	}
	c->n = n;
	rcu_unregister_thread();
	return NULL;
}

struct result {
	double lookups, updates, cpu_per_lookup;
};

/* One measurement of @cfg on a fresh tree of IDS IDs. */
static struct result measure(const struct config *cfg)
{
	pthread_t th[3];
	struct count counts[3] = { { 0, 0, 0 } };
	struct timespec ts = { (time_t)(ms / 1000),
			       (long)(ms % 1000) * 1000000 };
	struct result res = { 0, 0, 0 };
	double t0, t;
	unsigned int i;

	if (cfg->mode == RCU)
		idr_init_rcu(&idr);
	else
		idr_init(&idr);
	for (i = 0; i < IDS; i++)
		idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL);
	now = cfg;
	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	t0 = clock_ns(CLOCK_MONOTONIC);
	for (i = 0; i <= cfg->readers; i++)
		counts[i].core = i;
	for (i = 0; i < cfg->readers; i++)
		pthread_create(&th[i], NULL, reader, &counts[i]);
	pthread_create(&th[i], NULL, writer, &counts[i]);
	nanosleep(&ts, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i <= cfg->readers; i++)
		pthread_join(th[i], NULL);
	t = (clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	for (i = 0; i < cfg->readers; i++) {
		res.lookups += (double)counts[i].n;
		res.cpu_per_lookup += counts[i].cpu_ns;
	}
	res.cpu_per_lookup /= res.lookups > 0 ? res.lookups : 1;
	res.lookups /= t;
	res.updates = (double)counts[cfg->readers].n / t;
	idr_destroy(&idr);
	synchronize_rcu();
	rcu_barrier();
	return res;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned long n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void loadavg(const char *when)
{
	char buf[64] = "?";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "?\n");
		fclose(f);
	}
	printf("# load average %s: %s", when, buf);
}

/* ns per find of a random ID, plain or in a read-side section. */
static double single(bool section, unsigned long n)
{
	unsigned int r = 99;
	unsigned long i, found = 0;
	double t = clock_ns(CLOCK_MONOTONIC);

	for (i = 0; i < n; i++) {
		if (section)
			rcu_read_lock();
		found += idr_find(&idr, rnd(&r) % IDS) != NULL;
		if (section)
			rcu_read_unlock();
	}
	if (found > n)
		abort();
	return (clock_ns(CLOCK_MONOTONIC) - t) / (double)n;
}

int main(int argc, char **argv)
{
	static const struct config cfgs[] = {
		{ RCU, 1, false }, { MUTEX, 1, false }, { RWLOCK, 1, false },
		{ RCU, 1, true },  { MUTEX, 1, true },	{ RWLOCK, 1, true },
		{ RCU, 2, false }, { MUTEX, 2, false }, { RWLOCK, 2, false },
	};
	enum { N = sizeof(cfgs) / sizeof(cfgs[0]) };
	static double lk[N][RUNS_MAX], up[N][RUNS_MAX], cpu[N][RUNS_MAX];
	static double plain[RUNS_MAX], sect[RUNS_MAX];
	unsigned long runs = 5, run, i;
	double base_lk[N];

	if ((argc > 1 && !bench_num(argv[1], 1, RUNS_MAX, &runs)) ||
	    (argc > 2 && !bench_num(argv[2], 10, 60000, &ms))) {
		fprintf(stderr, "usage: rcu [RUNS [MS]]\n");
		return 2;
	}
	rcu_register_thread();
	loadavg("before");
	for (run = 0; run < runs; run++) {
		for (i = 0; i < N; i++) {
			struct result res = measure(&cfgs[i]);

			lk[i][run] = res.lookups;
			up[i][run] = res.updates;
			cpu[i][run] = res.cpu_per_lookup;
		}
		idr_init_rcu(&idr);
		for (i = 0; i < IDS; i++)
			idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL);
		plain[run] = single(false, 2000000);
		sect[run] = single(true, 2000000);
		idr_destroy(&idr);
		rcu_barrier();
	}
	loadavg("after");
	printf("%-7s %-7s %-22s %12s %12s %10s %8s\n", "readers", "writes", "",
	       "lookups/s", "updates/s", "CPU ns", "x mutex");
	for (i = 0; i < N; i++) {
		const struct config *c = &cfgs[i];
		double l = median(lk[i], runs);

		if (c->mode == RCU)
			base_lk[i] = l;
		printf("%-7u %-7s %-22s %12.0f %12.0f %10.1f", c->readers,
		       c->spaced ? "spaced" : "b2b", mode_name[c->mode], l,
		       median(up[i], runs), median(cpu[i], runs));
		if (c->mode == MUTEX)
			printf(" %7.2fx", base_lk[i - 1] / (l > 0 ? l : 1));
		printf("%s\n",
		       c->readers > 1 && c->mode == RCU
			       ? "  (oversubscribed: 3 threads, 2 cores)"
			       : "");
	}
	printf("single thread: idr_find %.1f ns, in rcu_read_lock() %.1f ns "
	       "(medians of %lu)\n",
	       median(plain, runs), median(sect, runs), runs);
	rcu_unregister_thread();
	return 0;
}
