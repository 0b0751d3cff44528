/* SPDX-License-Identifier: MIT */
/*
 * instr.c - the idr's four operations, one phase at a time, for counting
 * instructions under valgrind --tool=cachegrind (bench/instr).  Each run
 * does every phase up to @upto: 0 sets up (the shuffled order), 1 adds
 * lowest-free allocations of 0 .. N-1, 2 random finds of all N, 3 one
 * idr_for_each_entry over them, 4 random removes of all N, 5 N steps of
 * a PID allocator (make bench's pid: a cyclic allocation and the removal
 * of a random one of PID_LIVE live IDs, drawn in phase 0; its first
 * PID_LIVE allocations, a hundredth of the steps at N = 10^5, and the
 * teardown count too).  The
 * difference between two runs' counts, divided by N, is one phase's
 * instructions per operation: deterministic, unlike time on a shared
 * machine.
 *
 * Built with INSTR_KERNEL (bench/instr-kernel), the same phases run on
 * Linux 6.1's idr through bench/kernel_idr.c, whose call each operation
 * adds to the kernel's count.
 *
 *	instr N UPTO
 */
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "bench.h" /* the PID allocator's PID_* */

#ifdef INSTR_KERNEL
#include "kernel.h"

#define T struct bench_kernel
#define NEW() bench_kernel_new(0)
#define DEL(t) bench_kernel_del(t)
#define ALLOC(t, p) bench_kernel_alloc(t, p)
#define FIND(t, id) bench_kernel_find(t, id)
#define REMOVE(t, id, p) bench_kernel_remove(t, id, p)
#define ITERATE(t, p) bench_kernel_count(t, p)
#define CYCLIC(t, p) bench_kernel_cyclic(t, p, PID_START, PID_END)
#else
#include "idr.h"

#define T struct idr
#define NEW() idr_new()
#define DEL(t) (idr_destroy(t), free(t))
#define ALLOC(t, p) idr_alloc(t, p, 0, 0, GFP_KERNEL)
#define FIND(t, id) idr_find(t, id)
#define REMOVE(t, id, p) (idr_remove(t, id) == (p))
#define ITERATE(t, p) count_of(t, p)
#define CYCLIC(t, p) idr_alloc_cyclic(t, p, PID_START, PID_END, GFP_KERNEL)

static struct idr *idr_new(void)
{
	struct idr *idr = malloc(sizeof(*idr));

	if (!idr)
		abort();
	idr_init(idr);
	return idr;
}

/* As bench_kernel_count(): the entries, each of them @p. */
static unsigned long count_of(struct idr *idr, void *p)
{
	unsigned long n = 0;
	void *e;
	int id;

	idr_for_each_entry(idr, e, id)
		n += e == p;
	return n;
}
#endif

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
	T *t = NEW();
	unsigned long sum = 0, want = 0;
	unsigned int i;

	for (i = 0; upto >= 1 && i < n; i++)
		if (ALLOC(t, v) != (int)i)
			abort();
	for (i = 0; upto >= 2 && i < n; i++, want++)
		sum += FIND(t, order[i]) == v;
	if (upto >= 3) {
		sum += ITERATE(t, v);
		want += n;
	}
	for (i = 0; upto >= 4 && i < n; i++, want++)
		sum += REMOVE(t, order[i], v);
	if (sum != want)
		abort();
	DEL(t);
}

/* @n steps of the PID allocator, its IDs checked; step i removes the
 * live ID @pick[i]. */
static void pid(unsigned int n, const unsigned short *pick)
{
	static char v[] = "v";
	unsigned int live[PID_LIVE], i, k, next = PID_START;
	T *t = NEW();

	for (i = 0; i < PID_LIVE + n; i++) {
		if (CYCLIC(t, v) != (int)next)
			abort();
		k = i < PID_LIVE ? i : pick[i - PID_LIVE];
		if (i >= PID_LIVE && !REMOVE(t, live[k], v))
			abort();
		live[k] = next;
		next = next + 1 == PID_END ? PID_START : next + 1;
	}
	DEL(t);
}

int main(int argc, char **argv)
{
	unsigned long n, upto;
	unsigned int *order, i;
	unsigned short *pick;

	if (argc != 3 || !bench_num(argv[1], 2, 100000000, &n) ||
	    !bench_num(argv[2], 0, 5, &upto)) {
		fprintf(stderr, "usage: instr N UPTO, 0 <= UPTO <= 5\n");
		return 2;
	}
	order = malloc(n * sizeof(*order));
	pick = malloc(n * sizeof(*pick));
	if (!order || !pick)
		return 1;
	for (i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, (unsigned int)n);
	for (i = 0; i < n; i++)
		pick[i] = (unsigned short)(rand() % PID_LIVE);
	phases((unsigned int)n, order, upto);
	if (upto >= 5)
		pid((unsigned int)n, pick);
	free(pick);
	free(order);
	return 0;
}
