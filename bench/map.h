/* SPDX-License-Identifier: MIT */
/*
 * map.h - the map scenarios, compiled for one implementation.
 *
 * Before including, define IMPL (a C name, e.g. judyl_hint), IMPL_NAME
 * (its name in the tables, "judyl-hint"), IMPL_T (its state's
 * type), IMPL_SPARSE (1 if it takes any ID below 2^31) and these, named
 * bench_IMPL_x:
 *
 *	IMPL_T *new(unsigned long cap)	cap: the most IDs it will hold
 *	void del(IMPL_T *)
 *	long alloc(IMPL_T *, void *p)	the lowest free ID
 *	void *find(IMPL_T *, unsigned long id)
 *	bool remove(IMPL_T *, unsigned long id, void *p)  true if it was p
 *	long cyclic(IMPL_T *, void *p, unsigned long start,
 *		    unsigned long end)	the next free ID in [start, end)
 *	bool insert(IMPL_T *, unsigned long id, void *p)  (if IMPL_SPARSE)
 *	unsigned long iterate(IMPL_T *)	entries seen, each checked
 *	size_t bytes(IMPL_T *)		memory, as it counts it itself
 *	double mallocs(IMPL_T *)	allocations so far (NAN: unknown)
 *
 * Every result is checked inside the timed loops: a wrong one ends the
 * run with a message (bench_fail) instead of a fast, wrong figure.  One
 * exception favours JudyL: JudyLDel does not return the value, so its
 * remove checks only that the ID was there (a caller needing the value
 * would pay a JudyLGet too).
 */
#include <math.h>

#include "bench.h"

#define F(x) CAT(CAT(bench, IMPL), x)

static void F(fill)(IMPL_T *s, unsigned long n, const char *scen)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (F(alloc)(s, val(i)) != (long)i)
			bench_fail(IMPL_NAME, scen, i,
				   "not the lowest free ID");
}

static void F(remove_some)(IMPL_T *s, const unsigned int *ids, unsigned long k,
			   const char *scen)
{
	unsigned long i;

	for (i = 0; i < k; i++)
		if (!F(remove)(s, ids[i], val(ids[i])))
			bench_fail(IMPL_NAME, scen, ids[i], "remove failed");
}

static void F(find_all)(IMPL_T *s, const unsigned int *order,
			const unsigned int *ids, unsigned long n,
			const char *scen)
{
	unsigned long i, id;

	for (i = 0; i < n; i++) {
		id = ids ? ids[order[i]] : order[i];
		if (F(find)(s, id) != val(id))
			bench_fail(IMPL_NAME, scen, id, "wrong pointer");
	}
}

/* alloc, find, iterate and remove, one after the other. */
static void F(dense)(const struct workload *w, double *ns)
{
	IMPL_T *s = F(new)(w->n);
	double t = bench_now();

	F(fill)(s, w->n, "alloc");
	ns[S_ALLOC] = bench_per(t, w->n);
	t = bench_now();
	F(find_all)(s, w->order, NULL, w->n, "find");
	ns[S_FIND] = bench_per(t, w->n);
	t = bench_now();
	if (F(iterate)(s) != w->n)
		bench_fail(IMPL_NAME, "iterate", w->n, "wrong count");
	ns[S_ITER] = bench_per(t, w->n);
	t = bench_now();
	F(remove_some)(s, w->order, w->n, "remove");
	ns[S_REMOVE] = bench_per(t, w->n);
	F(del)(s);
}

/* The freed half comes back in ascending order: w->half. */
static void F(refill)(const struct workload *w, double *ns)
{
	IMPL_T *s = F(new)(w->n);
	unsigned long i, k = w->n / 2;
	double t;

	F(fill)(s, w->n, "refill");
	F(remove_some)(s, w->order, k, "refill");
	t = bench_now();
	for (i = 0; i < k; i++)
		if (F(alloc)(s, val(w->half[i])) != (long)w->half[i])
			bench_fail(IMPL_NAME, "refill", i,
				   "not the lowest free ID");
	ns[S_REFILL] = bench_per(t, k);
	F(del)(s);
}

/*
 * PID-style: w->window IDs live; each step allocates the next ID after
 * the last (wrapping at w->range) and frees the oldest.  With range >
 * window the expected ID is always step % range.
 */
static void F(cyclic_run)(const struct workload *w, double *ns)
{
	IMPL_T *s = F(new)(w->range);
	unsigned long i, r = w->range, end = w->window + w->n;
	double t;

	for (i = 0; i < w->window; i++)
		if (F(cyclic)(s, val(i), 0, r) != (long)i)
			bench_fail(IMPL_NAME, "cyclic", i, "wrong ID");
	t = bench_now();
	for (; i < end; i++) {
		if (F(cyclic)(s, val(i % r), 0, r) != (long)(i % r))
			bench_fail(IMPL_NAME, "cyclic", i, "wrong ID");
		if (!F(remove)(s, (i - w->window) % r,
			       val((i - w->window) % r)))
			bench_fail(IMPL_NAME, "cyclic", i, "remove failed");
	}
	ns[S_CYCLIC] = bench_per(t, w->n);
	F(del)(s);
}

#if IMPL_SPARSE
static void F(insert_all)(IMPL_T *s, const unsigned int *ids, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (!F(insert)(s, ids[i], val(ids[i])))
			bench_fail(IMPL_NAME, "sparse", ids[i],
				   "insert failed");
}

static void F(sparse)(const struct workload *w, double *ns)
{
	IMPL_T *s = F(new)(w->n);
	double t = bench_now();

	F(insert_all)(s, w->sparse, w->n);
	ns[S_SPARSE] = bench_per(t, w->n);
	t = bench_now();
	F(find_all)(s, w->order, w->sparse, w->n, "sparse-find");
	ns[S_SPARSE_FIND] = bench_per(t, w->n);
	F(del)(s);
}
#else
static void F(sparse)(const struct workload *w, double *ns)
{
	(void)w;
	ns[S_SPARSE] = ns[S_SPARSE_FIND] = NAN;
}
#endif

/* One churn pair at @n live IDs: the lowest free ID is @n. */
static void F(pair)(IMPL_T *s, unsigned int n, unsigned long i)
{
	if (F(alloc)(s, val(n)) != (long)n)
		bench_fail(IMPL_NAME, "churn", i, "not the lowest free ID");
	if (!F(remove)(s, n, val(n)))
		bench_fail(IMPL_NAME, "churn", i, "remove failed");
}

/* Pairs at @n live IDs, built by allocation; N / CHURN_MAX of them. */
static void F(churn_at)(const struct workload *w, unsigned int n,
			struct churn *c)
{
	unsigned long i, pairs = w->n / CHURN_MAX + 1;
	IMPL_T *s = F(new)(CHURN_MAX + 1);
	double t, m;

	F(fill)(s, n, "churn");
	F(pair)(s, n, 0);
	m = F(mallocs)(s);
	t = bench_now();
	for (i = 1; i <= pairs; i++)
		F(pair)(s, n, i);
	c->ns[n] = bench_per(t, pairs);
	c->mallocs[n] = (F(mallocs)(s) - m) / (double)pairs;
	F(del)(s);
}

/* Every n; the figure of the main table is the slowest n's. */
static void F(churn_run)(const struct workload *w, double *ns, struct churn *c)
{
	unsigned int n;

	ns[S_CHURN] = 0;
	for (n = 0; n <= CHURN_MAX; n++) {
		F(churn_at)(w, n, c);
		if (c->ns[n] > ns[S_CHURN])
			ns[S_CHURN] = c->ns[n];
	}
}

/* {==================== The PID allocator ==================== */

/* The ID after @id, wrapping at PID_END to PID_START. */
static inline unsigned long F(pid_next)(unsigned long id)
{
	return id + 1 == PID_END ? PID_START : id + 1;
}

/* One step: the next ID, then a random one of @live removed. */
static void F(pid_step)(IMPL_T *s, unsigned int *live, unsigned long *next,
			uint64_t *seed, unsigned long i)
{
	unsigned long k = bench_below(seed, PID_LIVE), old = live[k];

	if (F(cyclic)(s, val(*next), PID_START, PID_END) != (long)*next)
		bench_fail(IMPL_NAME, "pid", i, "wrong ID");
	if (!F(remove)(s, old, val(old)))
		bench_fail(IMPL_NAME, "pid", i, "remove failed");
	live[k] = (unsigned int)*next;
	*next = F(pid_next)(*next);
}

/*
 * w->pid_steps steps after PID_LIVE allocations; ns per step (alloc +
 * remove) into *@ns if not NULL.  A live ID outlives a sweep of 4
 * million steps with probability e^-4000, so the next free ID is always
 * the one after the last: no ID is ever skipped.
 */
static IMPL_T *F(pid)(const struct workload *w, double *ns)
{
	unsigned int live[PID_LIVE];
	unsigned long i, next = PID_START;
	uint64_t seed = 17;
	IMPL_T *s = F(new)(PID_END);
	double t;

	for (i = 0; i < PID_LIVE; i++) {
		if (F(cyclic)(s, val(next), PID_START, PID_END) != (long)next)
			bench_fail(IMPL_NAME, "pid", i, "wrong ID");
		live[i] = (unsigned int)next;
		next = F(pid_next)(next);
	}
	t = bench_now();
	for (i = 0; i < w->pid_steps; i++)
		F(pid_step)(s, live, &next, &seed, i);
	if (ns)
		*ns = bench_per(t, w->pid_steps);
	return s;
}

/* }==================== The PID allocator ==================== */

/* {==================== Finds among changes ==================== */

/*
 * N IDs live, then N steps of 8 finds of random IDs, one lowest-free
 * alloc and one remove of a random live ID.  The tree keeps one hole,
 * the ID removed last, which the next alloc must fill; a find of the
 * hole must miss.
 */
static void F(mixed_finds)(IMPL_T *s, const struct workload *w,
			   unsigned long *j, unsigned long hole)
{
	unsigned long k, id;

	for (k = 0; k < 8; k++) {
		id = w->order[*j];
		if (++*j == w->n)
			*j = 0;
		if (F(find)(s, id) != (id == hole ? NULL : val(id)))
			bench_fail(IMPL_NAME, "mixed", id, "wrong pointer");
	}
}

static void F(mixed)(const struct workload *w, double *ns)
{
	IMPL_T *s = F(new)(w->n + 1);
	unsigned long i, j = w->n / 2, hole = w->n;
	double t;

	F(fill)(s, w->n, "mixed");
	t = bench_now();
	for (i = 0; i < w->n; i++) {
		F(mixed_finds)(s, w, &j, hole);
		if (F(alloc)(s, val(hole)) != (long)hole)
			bench_fail(IMPL_NAME, "mixed", i,
				   "not the lowest free ID");
		hole = w->order[i];
		if (!F(remove)(s, hole, val(hole)))
			bench_fail(IMPL_NAME, "mixed", hole, "remove failed");
	}
	*ns = bench_per(t, 10 * w->n);
	F(del)(s);
}

/* }==================== Finds among changes ==================== */

static void F(run)(const struct workload *w, double ns[MAP_SCENS],
		   struct churn *churn)
{
	F(dense)(w, ns);
	F(refill)(w, ns);
	F(cyclic_run)(w, ns);
	F(sparse)(w, ns);
	F(churn_run)(w, ns, churn);
	F(del)(F(pid)(w, &ns[S_PID]));
	F(mixed)(w, &ns[S_MIXED]);
}

/* Bytes per live ID after filling N and removing the first @k of order. */
static void F(mem_at)(const struct workload *w, unsigned long k, struct mem *m)
{
	size_t heap = bench_heap();
	IMPL_T *s = F(new)(w->n);
	double live = (double)(w->n - k);

	F(fill)(s, w->n, "mem");
	F(remove_some)(s, w->order, k, "mem");
	m->reported = (double)F(bytes)(s) / live;
	m->heap = (double)(bench_heap() - heap) / live;
	F(del)(s);
}

/* After the PID run: PID_LIVE IDs live, wherever the cursor left them. */
static void F(pid_mem)(const struct workload *w, struct mem *m)
{
	size_t heap = bench_heap();
	IMPL_T *s = F(pid)(w, NULL);

	m->reported = (double)F(bytes)(s) / PID_LIVE;
	m->heap = (double)(bench_heap() - heap) / PID_LIVE;
	F(del)(s);
}

/* The bytes of the first @n of the sparse IDs (random in [0, 2^31)). */
static void F(sparse_mem)(const struct workload *w, unsigned long n,
			  struct mem *m)
{
#if IMPL_SPARSE
	size_t heap = bench_heap();
	IMPL_T *s = F(new)(n);

	F(insert_all)(s, w->sparse, n);
	m->reported = (double)F(bytes)(s) / (double)n;
	m->heap = (double)(bench_heap() - heap) / (double)n;
	F(del)(s);
#else
	(void)w;
	(void)n;
	m->reported = m->heap = NAN;
#endif
}

static void F(mem)(const struct workload *w, struct mem m[MAP_MEMS])
{
	F(mem_at)(w, 0, &m[M_100]);
	F(mem_at)(w, w->n / 2, &m[M_50]);
	F(mem_at)(w, w->n - w->n / 10, &m[M_10]);
	F(sparse_mem)(w, w->n, &m[M_SPARSE]);
	/* Issue 32 asks for 10^5 and 10^6 sparse IDs: N and N / 10. */
	F(sparse_mem)(w, w->n / 10 ? w->n / 10 : 1, &m[M_SPARSE_TENTH]);
	F(pid_mem)(w, &m[M_PID]);
}

const struct map_impl CAT(IMPL, impl) = { IMPL_NAME, F(run), F(mem), F(dense) };

#undef F
#undef IMPL
#undef IMPL_NAME
#undef IMPL_T
#undef IMPL_SPARSE
