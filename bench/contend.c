/* SPDX-License-Identifier: MIT */
/*
 * contend.c - the idr's node-cache lock under contention.  One thread,
 * the writer (the only one: the caller's lock is implied), allocates an
 * ID that needs a new path of nodes and removes it again, so that each
 * pair takes nodes from the idr's cache and gives them back; the other
 * threads refill the cache with idr_pre_get() all the while, as the 2004
 * API lets them do outside the caller's lock.  With more threads than
 * cores a holder of the cache's lock can be preempted: the figure is
 * wall time per alloc + remove pair, because what waiters burn spinning
 * is what this measures, with the CPU time all threads spent.  Prints
 * the medians over RUNS, and the slowest run's wall time.
 *
 *	contend [THREADS [PAIRS [RUNS]]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "args.h"
#include "idr.h"

#define RUNS_MAX 99

static struct idr shared = IDR_INIT(shared);
static pthread_barrier_t start;
static unsigned long pairs;
static int writing;

static double clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void *writer(void *arg)
{
	static char v[] = "v";
	unsigned long i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < pairs; i++) {
		int id = idr_alloc(&shared, v, 1 << 24, 0, 0);

		if (id < 0 || idr_remove(&shared, (unsigned long)id) != v)
			abort();
	}
	__atomic_store_n(&writing, 0, __ATOMIC_RELAXED);
	return NULL;
}

static void *filler(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	while (__atomic_load_n(&writing, __ATOMIC_RELAXED))
		if (!idr_pre_get(&shared, 0))
			abort();
	return NULL;
}

/* One run: wall and CPU (all threads') nanoseconds per pair. */
static void run(unsigned long threads, double *wall, double *cpu)
{
	pthread_t t[64];
	unsigned long i;
	double w0, c0;

	writing = 1;
	if (pthread_barrier_init(&start, NULL, (unsigned int)threads + 1))
		abort();
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, i ? filler : writer, NULL))
			abort();
	w0 = clock_ns(CLOCK_MONOTONIC);
	c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	pthread_barrier_wait(&start);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	*wall = (clock_ns(CLOCK_MONOTONIC) - w0) / (double)pairs;
	*cpu = (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / (double)pairs;
	pthread_barrier_destroy(&start);
	idr_destroy(&shared);
}

int main(int argc, char **argv)
{
	unsigned long threads = 4, runs = 5, r;
	double wall[RUNS_MAX], cpu[RUNS_MAX];

	pairs = 200000;
	if ((argc > 1 && !bench_num(argv[1], 2, 64, &threads)) ||
	    (argc > 2 && !bench_num(argv[2], 1, 100000000, &pairs)) ||
	    (argc > 3 && !bench_num(argv[3], 1, RUNS_MAX, &runs))) {
		fprintf(stderr,
			"usage: contend [THREADS [PAIRS [RUNS]]], "
			"2 <= THREADS <= 64, 1 <= RUNS <= %d\n",
			RUNS_MAX);
		return 2;
	}
	for (r = 0; r < runs; r++)
		run(threads, &wall[r], &cpu[r]);
	qsort(wall, runs, sizeof(*wall), cmp);
	qsort(cpu, runs, sizeof(*cpu), cmp);
	printf("%-12s %7lu %10.0f %10.0f %10.0f\n", "cache lock", threads,
	       wall[runs / 2], wall[runs - 1], cpu[runs / 2]);
	return 0;
}
