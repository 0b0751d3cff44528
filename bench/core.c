/* SPDX-License-Identifier: MIT */
/*
 * core.c - nanoseconds per operation for dense alloc, random find, random
 * remove and full iteration, as medians of several runs.  make bench
 * builds it twice, with and without the trace branches, and prints the
 * two side by side: the cost of tracing when no callback is set.
 *
 *	core [N [RUNS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "args.h"
#include "idr.h"

#define RUNS_MAX 99

/* CPU time: time spent descheduled on a busy machine is not the idr's. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void shuffle(unsigned int *a, unsigned int n)
{
	unsigned int i;

	srand(1);
	for (i = n - 1; i > 0; i--) {
		unsigned int j = (unsigned int)rand() % (i + 1), t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

/* One run of each scenario; ns/op into @ns[4]. */
static void run(unsigned int n, const unsigned int *order, double *ns)
{
	static char v[] = "v";
	DEFINE_IDR(idr);
	unsigned int i;
	unsigned long sum = 0;
	double t;
	void *e;
	int id;

	t = now();
	for (i = 0; i < n; i++)
		if (idr_alloc(&idr, v, 0, 0, GFP_KERNEL) != (int)i)
			abort();
	ns[0] = (now() - t) / n;
	t = now();
	for (i = 0; i < n; i++)
		sum += idr_find(&idr, order[i]) == v;
	ns[1] = (now() - t) / n;
	t = now();
	idr_for_each_entry(&idr, e, id)
		sum += e == v;
	ns[2] = (now() - t) / n;
	t = now();
	for (i = 0; i < n; i++)
		sum += idr_remove(&idr, order[i]) == v;
	ns[3] = (now() - t) / n;
	if (sum != 3ul * n)
		abort();
	idr_destroy(&idr);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "alloc", "find", "iterate",
					     "remove" };
	unsigned long n = 1000000, runs = 7;
	unsigned int *order, i;
	double ns[4][RUNS_MAX];
	int r, k;

	if ((argc > 1 && !bench_num(argv[1], 2, 100000000, &n)) ||
	    (argc > 2 && !bench_num(argv[2], 1, RUNS_MAX, &runs))) {
		fprintf(stderr,
			"usage: core [N [RUNS]], 2 <= N <= 10^8, "
			"1 <= RUNS <= %d\n",
			RUNS_MAX);
		return 2;
	}
	order = malloc(n * sizeof(*order));
	if (!order)
		return 1;

	for (i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, n);
	for (r = 0; r < (int)runs; r++) {
		double one[4];

		run(n, order, one);
		for (k = 0; k < 4; k++)
			ns[k][r] = one[k];
	}
	for (k = 0; k < 4; k++) {
		qsort(ns[k], (size_t)runs, sizeof(double), cmp);
		printf("%s\t%.2f\n", names[k], ns[k][runs / 2]);
	}
	free(order);
	return 0;
}
