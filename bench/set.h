/* SPDX-License-Identifier: MIT */
/*
 * set.h - the ID-set (IDA) scenarios, compiled for one implementation.
 *
 * Before including, define IMPL, IMPL_NAME and IMPL_T (as for map.h) and,
 * named
 * bench_IMPL_x:
 *
 *	IMPL_T *new(unsigned long cap)
 *	void del(IMPL_T *)
 *	long get(IMPL_T *)		the lowest free ID, now taken
 *	bool put(IMPL_T *, unsigned long id)	true if it was taken
 *	size_t bytes(IMPL_T *)
 */
#include "bench.h"

#define F(x) CAT(CAT(bench, IMPL), x)

static void F(fill)(IMPL_T *s, unsigned long n, const char *scen)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (F(get)(s) != (long)i)
			bench_fail(IMPL_NAME, scen, i,
				   "not the lowest free ID");
}

static void F(put_some)(IMPL_T *s, const unsigned int *ids, unsigned long k,
			const char *scen)
{
	unsigned long i;

	for (i = 0; i < k; i++)
		if (!F(put)(s, ids[i]))
			bench_fail(IMPL_NAME, scen, ids[i], "free failed");
}

static void F(run)(const struct workload *w, double ns[SET_SCENS])
{
	IMPL_T *s = F(new)(w->n);
	unsigned long i, k = w->n / 2;
	double t = bench_now();

	F(fill)(s, w->n, "ida-alloc");
	ns[T_ALLOC] = bench_per(t, w->n);
	t = bench_now();
	F(put_some)(s, w->order, w->n, "ida-free");
	ns[T_FREE] = bench_per(t, w->n);
	F(fill)(s, w->n, "ida-refill");
	F(put_some)(s, w->order, k, "ida-refill");
	t = bench_now();
	for (i = 0; i < k; i++)
		if (F(get)(s) != (long)w->half[i])
			bench_fail(IMPL_NAME, "ida-refill", i,
				   "not the lowest free ID");
	ns[T_REFILL] = bench_per(t, k);
	F(del)(s);
}

static void F(mem)(const struct workload *w, struct mem *dense)
{
	size_t heap = bench_heap();
	IMPL_T *s = F(new)(w->n);

	F(fill)(s, w->n, "ida-mem");
	dense->reported = (double)F(bytes)(s) / (double)w->n;
	dense->heap = (double)(bench_heap() - heap) / (double)w->n;
	F(del)(s);
}

const struct set_impl CAT(IMPL, impl) = { IMPL_NAME, F(run), F(mem) };

#undef F
#undef IMPL
#undef IMPL_NAME
#undef IMPL_T
