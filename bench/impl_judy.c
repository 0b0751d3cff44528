/* SPDX-License-Identifier: MIT */
/*
 * impl_judy.c - the peers from Debian's libjudy-dev: JudyL as the map,
 * Judy1 as the set, each twice.  Lowest-free is Judy*FirstEmpty, either
 * from 0 ("judyl") or from a hint the caller keeps ("judyl-hint"): every
 * ID below it is taken, so it is the last ID allocated + 1, lowered to
 * an ID when that ID is freed.  Bytes are Judy*MemUsed.
 */
#include <math.h>
#include <stdlib.h>

#include <Judy.h>

#include "bench.h"

struct judy {
	Pvoid_t a;
	Word_t hint;   /* every ID below is taken */
	Word_t cursor; /* cyclic: where the next search starts */
};

static struct judy *judy_new(void)
{
	struct judy *j = calloc(1, sizeof(*j));

	if (!j)
		abort();
	return j;
}

/* The first index at or above @from that is not in the array. */
static long first_empty_l(struct judy *j, Word_t from)
{
	return JudyLFirstEmpty(j->a, &from, PJE0) == 1 ? (long)from : -1;
}

static long first_empty_1(struct judy *j, Word_t from)
{
	return Judy1FirstEmpty(j->a, &from, PJE0) == 1 ? (long)from : -1;
}

/* {==================== JudyL ==================== */

static void jl_del(struct judy *j)
{
	JudyLFreeArray(&j->a, PJE0);
	free(j);
}

static bool jl_store(struct judy *j, Word_t id, void *p)
{
	PPvoid_t v = JudyLIns(&j->a, id, PJE0);

	if (!v || v == PPJERR || *v)
		return false;
	*v = p;
	return true;
}

static long jl_alloc(struct judy *j, void *p, bool hint)
{
	long id = first_empty_l(j, hint ? j->hint : 0);

	if (id < 0 || !jl_store(j, (Word_t)id, p))
		return -1;
	j->hint = (Word_t)id + 1;
	return id;
}

static void *jl_find(struct judy *j, unsigned long id)
{
	PPvoid_t v = JudyLGet(j->a, id, PJE0);

	return v ? *v : NULL;
}

/*
 * JudyLDel does not return the value, and a caller that needs it pays
 * a JudyLGet first; the bench spares Judy that and checks that the
 * index was there.
 */
static bool jl_remove(struct judy *j, unsigned long id, bool hint)
{
	if (JudyLDel(&j->a, id, PJE0) != 1)
		return false;
	if (hint && id < j->hint)
		j->hint = id;
	return true;
}

static long jl_cyclic(struct judy *j, void *p, unsigned long start,
		      unsigned long end)
{
	long id = first_empty_l(j, j->cursor < start ? start : j->cursor);

	if (id < 0 || (unsigned long)id >= end)
		id = first_empty_l(j, start);
	if (id < 0 || (unsigned long)id >= end || !jl_store(j, (Word_t)id, p))
		return -1;
	j->cursor = (Word_t)id + 1;
	return id;
}

static unsigned long jl_iterate(struct judy *j, const char *name)
{
	unsigned long n = 0;
	Word_t id = 0;
	PPvoid_t v;

	for (v = JudyLFirst(j->a, &id, PJE0); v;
	     v = JudyLNext(j->a, &id, PJE0)) {
		if (*v != val(id) || id != n)
			bench_fail(name, "iterate", id, "wrong entry");
		n++;
	}
	return n;
}

static size_t jl_bytes(struct judy *j)
{
	return JudyLMemUsed(j->a);
}

/* judyl and judyl-hint: the same calls, the hint used or not. */
/* clang-format off */
#define JUDYL(name, str, hint)						\
static struct judy *bench_##name##_new(unsigned long cap)		\
{									\
	(void)cap;							\
	return judy_new();						\
}									\
static void bench_##name##_del(struct judy *j) { jl_del(j); }		\
static long bench_##name##_alloc(struct judy *j, void *p)		\
{									\
	return jl_alloc(j, p, hint);					\
}									\
static void *bench_##name##_find(struct judy *j, unsigned long id)	\
{									\
	return jl_find(j, id);						\
}									\
static bool bench_##name##_remove(struct judy *j, unsigned long id,	\
				  void *p)				\
{									\
	(void)p;							\
	return jl_remove(j, id, hint);					\
}									\
static long bench_##name##_cyclic(struct judy *j, void *p,		\
				  unsigned long start,			\
				  unsigned long end)			\
{									\
	return jl_cyclic(j, p, start, end);				\
}									\
static bool bench_##name##_insert(struct judy *j, unsigned long id,	\
				  void *p)				\
{									\
	return jl_store(j, id, p);					\
}									\
static unsigned long bench_##name##_iterate(struct judy *j)		\
{									\
	return jl_iterate(j, str);					\
}									\
static size_t bench_##name##_bytes(struct judy *j)			\
{									\
	return jl_bytes(j);						\
}									\
/* Judy calls malloc itself, uncounted. */				\
static double bench_##name##_mallocs(struct judy *j)			\
{									\
	(void)j;							\
	return NAN;							\
}
/* clang-format on */

JUDYL(judyl, "judyl", false)
JUDYL(judyl_hint, "judyl-hint", true)

#define IMPL judyl
#define IMPL_NAME "judyl"
#define IMPL_T struct judy
#define IMPL_SPARSE 1
#include "map.h"

#define IMPL judyl_hint
#define IMPL_NAME "judyl-hint"
#define IMPL_T struct judy
#define IMPL_SPARSE 1
#include "map.h"

/* }==================== JudyL ==================== */

/* {==================== Judy1 ==================== */

static long j1_get(struct judy *j, bool hint)
{
	long id = first_empty_1(j, hint ? j->hint : 0);

	if (id < 0 || Judy1Set(&j->a, (Word_t)id, PJE0) != 1)
		return -1;
	j->hint = (Word_t)id + 1;
	return id;
}

static bool j1_put(struct judy *j, unsigned long id, bool hint)
{
	if (Judy1Unset(&j->a, id, PJE0) != 1)
		return false;
	if (hint && id < j->hint)
		j->hint = id;
	return true;
}

static void j1_del(struct judy *j)
{
	Judy1FreeArray(&j->a, PJE0);
	free(j);
}

/* clang-format off */
#define JUDY1(name, hint)						\
static struct judy *bench_##name##_new(unsigned long cap)		\
{									\
	(void)cap;							\
	return judy_new();						\
}									\
static void bench_##name##_del(struct judy *j) { j1_del(j); }		\
static long bench_##name##_get(struct judy *j)				\
{									\
	return j1_get(j, hint);						\
}									\
static bool bench_##name##_put(struct judy *j, unsigned long id)	\
{									\
	return j1_put(j, id, hint);					\
}									\
static size_t bench_##name##_bytes(struct judy *j)			\
{									\
	return Judy1MemUsed(j->a);					\
}
/* clang-format on */

JUDY1(judy1, false)
JUDY1(judy1_hint, true)

#define IMPL judy1
#define IMPL_NAME "judy1"
#define IMPL_T struct judy
#include "set.h"

#define IMPL judy1_hint
#define IMPL_NAME "judy1-hint"
#define IMPL_T struct judy
#include "set.h"

/* }==================== Judy1 ==================== */
