/* SPDX-License-Identifier: MIT */
/*
 * instr.c - the idr's four operations, one phase at a time, for counting
 * instructions under valgrind --tool=cachegrind (bench/instr).  Each run
 * does every phase up to @upto: 0 sets up (the shuffled order), 1 adds
 * lowest-free allocations of 0 .. N-1, 2 random finds of all N, 3 one
 * idr_for_each_entry over them, 4 random removes of all N.  The
 * difference between two runs' counts, divided by N, is one phase's
 * instructions per operation: deterministic, unlike time on a shared
 * machine.
 *
 *	instr N UPTO
 */
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "idr.h"

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

static void phases(unsigned int n, const unsigned int *order,
		   unsigned long upto)
{
	static char v[] = "v";
	DEFINE_IDR(idr);
	unsigned long sum = 0, want = 0;
	unsigned int i;
	void *e;
	int id;

	for (i = 0; upto >= 1 && i < n; i++)
		if (idr_alloc(&idr, v, 0, 0, GFP_KERNEL) != (int)i)
			abort();
	for (i = 0; upto >= 2 && i < n; i++, want++)
		sum += idr_find(&idr, order[i]) == v;
	if (upto >= 3) {
		idr_for_each_entry(&idr, e, id)
			sum += e == v;
		want += n;
	}
	for (i = 0; upto >= 4 && i < n; i++, want++)
		sum += idr_remove(&idr, order[i]) == v;
	if (sum != want)
		abort();
	idr_destroy(&idr);
}

int main(int argc, char **argv)
{
	unsigned long n, upto;
	unsigned int *order, i;

	if (argc != 3 || !bench_num(argv[1], 2, 100000000, &n) ||
	    !bench_num(argv[2], 0, 4, &upto)) {
		fprintf(stderr, "usage: instr N UPTO, 0 <= UPTO <= 4\n");
		return 2;
	}
	order = malloc(n * sizeof(*order));
	if (!order)
		return 1;
	for (i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, (unsigned int)n);
	phases((unsigned int)n, order, upto);
	free(order);
	return 0;
}
