/* SPDX-License-Identifier: MIT */
/*
 * main.c - make bench: the idr beside JudyL and a flat array, the IDA
 * beside Judy1 and a flat bitmap, in one run; built with BENCH_KERNEL
 * (build/bench/bench-kernel), Linux 6.1's idr too, as "kernel", a fifth
 * map with a ratio of its own, and its IDA beside ours.
 *
 *	bench [N [RUNS [TSV [CHURN_TSV [MIN_TSV]]]]]
 *	bench --mem N		(the memory child, see mem_from_child)
 *
 * Prints a table of medians over RUNS repetitions (ns per operation;
 * memory as bytes per live ID, measured once since it does not vary),
 * each figure of ours also as a ratio to the flat limit and to Judy with
 * a hint, and writes the same figures to TSV for tools.  Exit 1 if any
 * implementation returned a wrong result.  Churn (bench.h) has a table
 * of its own, by live count, and its own TSV.  The PID allocator (pid,
 * mem-pid) and finds among changes (mixed) are in map.h.  Then alloc,
 * find, iterate and remove again, the minimum CPU time of ROUNDS
 * interleaved rounds (issue 32's method), into MIN_TSV.
 */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "bench.h"

#define RUNS_MAX 99
#define ROUNDS 9
#define STR_(x) #x
#define STR(x) STR_(x)
/* Positions in the lists below: ours first, then the baselines. */
#define OURS 0
#define JUDY 2
#define FLAT 3
#ifdef BENCH_KERNEL
#define KERNEL 4
#define NIMPL 5
#else
#define NIMPL 4
#endif

static const struct map_impl *const maps[NIMPL] = {
	&idr_impl, &judyl_impl, &judyl_hint_impl, &flat_impl,
#ifdef BENCH_KERNEL
	&kernel_impl
#endif
};

/* NULL: no set of that column's implementation. */
static const struct set_impl *const sets[NIMPL] = {
	&ida_impl, &judy1_impl, &judy1_hint_impl, &bitmap_impl,
#ifdef BENCH_KERNEL
	&kernel_ida_impl
#endif
};

static const char *const map_scen[MAP_SCENS] = {
	"alloc",  "find",	 "iterate", "remove", "refill", "cyclic",
	"sparse", "sparse-find", "churn",   "pid",    "mixed"
};

static const char *const map_mem[MAP_MEMS] = {
	"mem-100",    "mem-50",		  "mem-10",
	"mem-sparse", "mem-sparse-tenth", "mem-pid"
};

static const char *const set_scen[SET_SCENS] = { "ida-alloc", "ida-free",
						 "ida-refill" };

/* One figure of the tables: a median, or memory, or NAN for "-". */
struct row {
	const char *scen, *impl;
	int runs;
	double ns, bytes, heap;
	bool absent; /* not in the TSV: sets[] had no implementation */
};

/* {==================== Helpers ==================== */

/*
 * CPU time, not wall time: on a busy machine the time spent descheduled
 * would land on whichever implementation happened to be running.
 */
double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Bytes in use on glibc's heap: small chunks plus mmapped blocks. */
size_t bench_heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

void bench_fail(const char *impl, const char *scen, unsigned long i,
		const char *what)
{
	fprintf(stderr, "bench: %s: %s: at %lu: %s\n", impl, scen, i, what);
	exit(1);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* Fixed seed, so every run and every N sees the same data. */
static uint64_t rng(void)
{
	return bench_rng(&rng_state);
}

/* A bijection of [0, 2^31): distinct inputs give distinct sparse IDs. */
static unsigned int mix31(unsigned int x)
{
	const unsigned int mask = 0x7fffffffu;

	x = (x * 0x2545f491u) & mask;
	x ^= x >> 15;
	x = (x * 0x6b43a9b5u) & mask;
	x ^= x >> 13;
	return x;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static unsigned int *uints(unsigned long n)
{
	unsigned int *a = malloc((n ? n : 1) * sizeof(*a));

	if (!a)
		abort();
	return a;
}

/* }==================== Helpers ==================== */

/* {==================== The workload ==================== */

static void workload_init(struct workload *w, unsigned long n)
{
	unsigned int *order = uints(n), *half = uints(n / 2 + 1);
	unsigned int *sparse = uints(n), t;
	unsigned long i, j;

	for (i = 0; i < n; i++) {
		order[i] = (unsigned int)i;
		sparse[i] = mix31((unsigned int)i);
	}
	for (i = n; i > 1; i--) {
		j = rng() % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	memcpy(half, order, n / 2 * sizeof(*half));
	qsort(half, n / 2, sizeof(*half), cmp_uint);
	w->n = n;
	w->order = order;
	w->half = half;
	w->sparse = sparse;
	/* PID-like: a window of live IDs in a range 4 times as large. */
	w->window = n / 4 < 32768 ? (n / 4 ? n / 4 : 1) : 32768;
	w->range = 4 * w->window;
	w->pid_steps = PID_SWEEPS * (PID_END - PID_START);
}

static void workload_fini(struct workload *w)
{
	free((void *)w->order);
	free((void *)w->half);
	free((void *)w->sparse);
}

/* }==================== The workload ==================== */

/* {==================== Running ==================== */

struct results {
	int runs;
	double map_ns[NIMPL][MAP_SCENS][RUNS_MAX];
	double set_ns[NIMPL][SET_SCENS][RUNS_MAX];
	struct mem map_mem[NIMPL][MAP_MEMS];
	struct mem set_mem[NIMPL];
	double churn_ns[NIMPL][CHURN_MAX + 1][RUNS_MAX];
	double churn_mallocs[NIMPL][CHURN_MAX + 1]; /* the most */
};

/*
 * glibc's tcache keeps up to 7 freed chunks of each size, which
 * mallinfo2() counts as in use: a structure built after another one was
 * freed would look smaller than it is.  So the memory figures come from
 * a child, this program again, run with the tcache off.
 */
#define MEM_ENV "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"

static int mem_child(const struct workload *w)
{
	struct mem m[MAP_MEMS];
	int i, k;

	for (i = 0; i < NIMPL; i++) {
		maps[i]->mem(w, m);
		for (k = 0; k < MAP_MEMS; k++)
			printf("%d %d %.17g %.17g\n", i, k, m[k].reported,
			       m[k].heap);
		if (!sets[i])
			continue;
		sets[i]->mem(w, m);
		printf("%d %d %.17g %.17g\n", i, MAP_MEMS, m[0].reported,
		       m[0].heap);
	}
	return fflush(stdout) ? 1 : 0;
}

static void mem_from_child(const char *self, unsigned long n,
			   struct results *res)
{
	char cmd[4096];
	struct mem m;
	int i, k, got = 0, want = NIMPL * MAP_MEMS;
	FILE *p;

	for (i = 0; i < NIMPL; i++) {
		want += sets[i] != NULL;
		res->set_mem[i] = (struct mem){ NAN, NAN };
	}

	if (strchr(self, '\'') ||
	    snprintf(cmd, sizeof(cmd), "%s '%s' --mem %lu", MEM_ENV, self, n) >=
		    (int)sizeof(cmd))
		bench_fail("bench", "mem", 0, "odd program path");
	p = popen(cmd, "r");
	if (!p)
		bench_fail("bench", "mem", 0, "cannot run the memory child");
	while (fscanf(p, "%d %d %lg %lg", &i, &k, &m.reported, &m.heap) == 4 &&
	       i >= 0 && i < NIMPL && k >= 0 && k <= MAP_MEMS) {
		if (k == MAP_MEMS)
			res->set_mem[i] = m;
		else
			res->map_mem[i][k] = m;
		got++;
	}
	if (pclose(p) != 0 || got != want)
		bench_fail("bench", "mem", (unsigned long)got,
			   "the memory child failed");
}

/* The implementations take turns, so drift hits them all alike. */
static void keep_churn(struct results *res, int i, int r, const struct churn *c)
{
	int n;

	for (n = 0; n <= CHURN_MAX; n++) {
		res->churn_ns[i][n][r] = c->ns[n];
		if (r == 0 || !(c->mallocs[n] <= res->churn_mallocs[i][n]))
			res->churn_mallocs[i][n] = c->mallocs[n];
	}
}

static void run_all(const struct workload *w, struct results *res)
{
	double ns[MAP_SCENS];
	struct churn c;
	int i, k, r;

	for (r = 0; r < res->runs; r++)
		for (i = 0; i < NIMPL; i++) {
			maps[i]->run(w, ns, &c);
			for (k = 0; k < MAP_SCENS; k++)
				res->map_ns[i][k][r] = ns[k];
			keep_churn(res, i, r, &c);
			for (k = 0; k < SET_SCENS; k++)
				ns[k] = NAN;
			if (sets[i])
				sets[i]->run(w, ns);
			for (k = 0; k < SET_SCENS; k++)
				res->set_ns[i][k][r] = ns[k];
		}
}

static struct row timing(const char *scen, const char *impl, double *ns,
			 int runs)
{
	return (struct row){ .scen = scen,
			     .impl = impl,
			     .runs = runs,
			     .ns = median(ns, runs),
			     .bytes = NAN,
			     .heap = NAN };
}

static struct row memory(const char *scen, const char *impl,
			 const struct mem *m)
{
	return (struct row){ .scen = scen,
			     .impl = impl,
			     .runs = 1,
			     .ns = NAN,
			     .bytes = m->reported,
			     .heap = m->heap };
}

/* A set's row: in the column of a map without a set, an absent one. */
static struct row set_row(struct row r, int i)
{
	r.impl = sets[i] ? sets[i]->name : maps[i]->name;
	r.absent = !sets[i];
	return r;
}

/* The figures as rows, by table, then scenario, then implementation. */
static int to_rows(struct results *res, struct row *rows)
{
	int i, k, n = 0, runs = res->runs;

	for (k = 0; k < MAP_SCENS; k++)
		for (i = 0; i < NIMPL; i++)
			rows[n++] = timing(map_scen[k], maps[i]->name,
					   res->map_ns[i][k], runs);
	for (k = 0; k < MAP_MEMS; k++)
		for (i = 0; i < NIMPL; i++)
			rows[n++] = memory(map_mem[k], maps[i]->name,
					   &res->map_mem[i][k]);
	for (k = 0; k < SET_SCENS; k++)
		for (i = 0; i < NIMPL; i++)
			rows[n++] = set_row(timing(set_scen[k], NULL,
						   res->set_ns[i][k], runs),
					    i);
	for (i = 0; i < NIMPL; i++)
		rows[n++] = set_row(
			memory("ida-mem-100", NULL, &res->set_mem[i]), i);
	return n;
}

/* {==================== Minimums ==================== */

/* The operations of map.h's dense scenario, whose minimums are kept. */
#define NMIN 4
static const enum map_scen min_scen[NMIN] = { S_ALLOC, S_FIND, S_ITER,
					      S_REMOVE };

/*
 * Issue 32's method: per operation, the least CPU time of ROUNDS rounds,
 * each implementation once in every round, so that the least disturbed
 * of its runs stands for each.
 */
static void run_min(const struct workload *w, double min[NIMPL][NMIN])
{
	double ns[MAP_SCENS];
	int i, k, r;

	for (i = 0; i < NIMPL; i++)
		for (k = 0; k < NMIN; k++)
			min[i][k] = INFINITY;
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NIMPL; i++) {
			maps[i]->dense(w, ns);
			for (k = 0; k < NMIN; k++)
				min[i][k] = fmin(min[i][k], ns[min_scen[k]]);
		}
}

/* }==================== Minimums ==================== */

/* }==================== Running ==================== */

/* {==================== Output ==================== */

/* The figure a row stands for: time, or else bytes. */
static double figure(const struct row *r)
{
	return isnan(r->ns) ? r->bytes : r->ns;
}

static double ratio(const struct row *r, const struct row *base)
{
	return figure(r) / figure(base);
}

static void put_num(FILE *out, const char *fmt, double x)
{
	if (isnan(x) || isinf(x))
		fputs("-", out);
	else
		fprintf(out, fmt, x);
}

static void cell(double x, int width, const char *suffix)
{
	char buf[32];

	if (isnan(x) || isinf(x))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%.2f%s", x, suffix);
	printf(" %*s", width, buf);
}

static void header(const char *title, const struct row *group)
{
	int i;

	printf("\n%-12s", title);
	for (i = 0; i < NIMPL; i++)
		printf(" %10s", group[i].impl);
	printf(" %9s/%-5s %s/%s", group[OURS].impl, group[FLAT].impl,
	       group[OURS].impl, group[JUDY].impl);
#ifdef KERNEL
	printf(" %9s/%s", group[OURS].impl, group[KERNEL].impl);
#endif
	printf("\n");
}

/* One scenario: each implementation's figure, then ours as ratios. */
static void line(const char *label, const struct row *group, int heap)
{
	int i;

	printf("%-12s", label);
	for (i = 0; i < NIMPL; i++)
		cell(heap ? group[i].heap : figure(&group[i]), 10, "");
	if (heap) {
		printf("\n");
		return;
	}
	cell(ratio(&group[OURS], &group[FLAT]), 15, "x");
	cell(ratio(&group[OURS], &group[JUDY]), 15, "x");
#ifdef KERNEL
	cell(ratio(&group[OURS], &group[KERNEL]), 16, "x");
#endif
	printf("\n");
}

static void print_table(const struct row *rows, int nrows,
			const struct workload *w, int runs)
{
	int g;

	printf("make bench: N = %lu, medians of %d runs; CPU ns/op; memory "
	       "once, bytes per live ID\n",
	       w->n, runs);
	printf("cyclic: %lu live IDs in [0, %lu), one op = alloc + remove; "
	       "ratios < 1: ours is faster or smaller\n",
	       w->window, w->range);
	printf("pid: %d live IDs in [%d, %lu), one op = cyclic alloc + "
	       "remove of a random live ID, %lu ops; mem-pid after them\n",
	       PID_LIVE, PID_START, PID_END, w->pid_steps);
	printf("mixed: %lu live IDs; a step is 8 random finds, alloc, remove "
	       "a random one; one op = a tenth\n",
	       w->n);
	for (g = 0; g < nrows; g += NIMPL) {
		const struct row *group = &rows[g];

		if (g == 0)
			header("map", group);
		else if (!strcmp(group->scen, "mem-100"))
			header("bytes/ID", group);
		else if (!strcmp(group->scen, "ida-alloc"))
			header("ida", group);
		line(group->scen, group, 0);
		if (!isnan(group->heap) || !isnan(group[1].heap))
			line("  heap", group, 1);
	}
}

/* Churn by live count, in ranges of 8: the slowest figure of each. */
static void print_churn(struct results *res)
{
	double ns[NIMPL], worst[NIMPL], ratio_max, mallocs;
	int i, n, lo;

	printf("\nchurn: n IDs live in one leaf (0: the tree empties), one op "
	       "= alloc + remove; each n's median, the slowest n of each "
	       "range\n");
	printf("%-12s", "n live");
	for (i = 0; i < NIMPL; i++)
		printf(" %10s", maps[i]->name);
	printf(" %9s/%-5s %s mallocs/op\n", maps[OURS]->name, maps[FLAT]->name,
	       maps[OURS]->name);
	for (lo = 0; lo <= CHURN_MAX; lo += 8) {
		ratio_max = mallocs = 0;
		for (i = 0; i < NIMPL; i++)
			worst[i] = 0;
		for (n = lo; n < lo + 8 && n <= CHURN_MAX; n++) {
			for (i = 0; i < NIMPL; i++) {
				ns[i] = median(res->churn_ns[i][n], res->runs);
				worst[i] = fmax(worst[i], ns[i]);
			}
			ratio_max = fmax(ratio_max, ns[OURS] / ns[FLAT]);
			mallocs = fmax(mallocs, res->churn_mallocs[OURS][n]);
		}
		printf("%3d .. %-5d", lo, n - 1);
		for (i = 0; i < NIMPL; i++)
			cell(worst[i], 10, "");
		cell(ratio_max, 15, "x");
		printf(" %17.4f\n", mallocs);
	}
}

/* The minimums; with the kernel, how many times faster ours is. */
static void print_min(double min[NIMPL][NMIN])
{
	int i, k;

	printf("\nCPU-time minimums of %d interleaved rounds, ns/op\n", ROUNDS);
	printf("%-12s", "min of " STR(ROUNDS));
	for (i = 0; i < NIMPL; i++)
		printf(" %10s", maps[i]->name);
	printf("\n");
	for (k = 0; k < NMIN; k++) {
		printf("%-12s", map_scen[min_scen[k]]);
		for (i = 0; i < NIMPL; i++)
			cell(min[i][k], 10, "");
#ifdef KERNEL
		if (min[OURS][k] <= min[KERNEL][k])
			printf("   idr is %.2fx faster than the kernel",
			       min[KERNEL][k] / min[OURS][k]);
		else
			printf("   idr is %.2fx slower than the kernel",
			       min[OURS][k] / min[KERNEL][k]);
#endif
		printf("\n");
	}
}

static int write_min_tsv(const char *path, double min[NIMPL][NMIN],
			 unsigned long n)
{
	FILE *out = fopen(path, "w");
	int i, k;

	if (!out) {
		perror(path);
		return -1;
	}
	fputs("scenario\timpl\tn\trounds\tns_min\n", out);
	for (k = 0; k < NMIN; k++)
		for (i = 0; i < NIMPL; i++) {
			fprintf(out, "%s\t%s\t%lu\t%d\t", map_scen[min_scen[k]],
				maps[i]->name, n, ROUNDS);
			put_num(out, "%.3f", min[i][k]);
			fputc('\n', out);
		}
	return fclose(out) ? -1 : 0;
}

/* One row per live count and implementation: medians, mallocs. */
static int write_churn_tsv(const char *path, struct results *res)
{
	FILE *out = fopen(path, "w");
	int i, n;

	if (!out) {
		perror(path);
		return -1;
	}
	fputs("live\timpl\truns\tns_per_op\tmallocs_per_op\n", out);
	for (n = 0; n <= CHURN_MAX; n++)
		for (i = 0; i < NIMPL; i++) {
			fprintf(out, "%d\t%s\t%d\t", n, maps[i]->name,
				res->runs);
			put_num(out, "%.3f",
				median(res->churn_ns[i][n], res->runs));
			fputc('\t', out);
			put_num(out, "%.4f", res->churn_mallocs[i][n]);
			fputc('\n', out);
		}
	return fclose(out) ? -1 : 0;
}

static int write_tsv(const char *path, const struct row *rows, int nrows,
		     unsigned long n)
{
	FILE *out = fopen(path, "w");
	int g, i;

	if (!out) {
		perror(path);
		return -1;
	}
	fputs("scenario\timpl\tn\truns\tns_per_op\tbytes_per_id\t"
	      "heap_bytes_per_id\tratio_flat\tratio_judy",
	      out);
#ifdef KERNEL
	fputs("\tratio_kernel", out);
#endif
	fputc('\n', out);
	for (g = 0; g < nrows; g += NIMPL)
		for (i = 0; i < NIMPL; i++) {
			const struct row *r = &rows[g + i];

			if (r->absent)
				continue;

			fprintf(out, "%s\t%s\t%lu\t%d\t", r->scen, r->impl, n,
				r->runs);
			put_num(out, "%.3f", r->ns);
			fputc('\t', out);
			put_num(out, "%.4f", r->bytes);
			fputc('\t', out);
			put_num(out, "%.4f", r->heap);
			fputc('\t', out);
			put_num(out, "%.4f", ratio(r, &rows[g + FLAT]));
			fputc('\t', out);
			put_num(out, "%.4f", ratio(r, &rows[g + JUDY]));
#ifdef KERNEL
			fputc('\t', out);
			put_num(out, "%.4f", ratio(r, &rows[g + KERNEL]));
#endif
			fputc('\n', out);
		}
	return fclose(out) ? -1 : 0;
}

/* }==================== Output ==================== */

int main(int argc, char **argv)
{
	static struct results res;
	static struct row rows[(MAP_SCENS + MAP_MEMS + SET_SCENS + 1) * NIMPL];
	double min[NIMPL][NMIN];
	struct workload w;
	int child = argc > 2 && !strcmp(argv[1], "--mem");
	unsigned long n = 1000000, runs = 5;
	int nrows;

	if ((argc > 1 + child &&
	     !bench_num(argv[1 + child], 2, 100000000, &n)) ||
	    (argc > 2 && !child && !bench_num(argv[2], 1, RUNS_MAX, &runs))) {
		fprintf(stderr,
			"usage: bench [N [RUNS [TSV [CHURN_TSV [MIN_TSV]]]]], "
			"N >= 2, "
			"1 <= RUNS <= %d\n",
			RUNS_MAX);
		return 2;
	}
	res.runs = (int)runs;
	workload_init(&w, n);
	if (child)
		return mem_child(&w);
	mem_from_child(argv[0], w.n, &res);
	run_all(&w, &res);
	nrows = to_rows(&res, rows);
	print_table(rows, nrows, &w, res.runs);
	print_churn(&res);
	run_min(&w, min);
	print_min(min);
	if (argc > 3 && write_tsv(argv[3], rows, nrows, w.n))
		return 1;
	if (argc > 4 && write_churn_tsv(argv[4], &res))
		return 1;
	if (argc > 5 && write_min_tsv(argv[5], min, w.n))
		return 1;
	workload_fini(&w);
	return 0;
}
