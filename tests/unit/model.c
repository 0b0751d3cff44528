/* SPDX-License-Identifier: MIT */
/*
 * model.c - the reference the library is compared with.  Obviously
 * right before fast: a sorted array, linear scans, memmove.
 *
 * Written from the documented contract (src/idr.h's kernel-doc, idr(3)),
 * never from src/: each allocation below is "the lowest free ID in an
 * inclusive range [lo, hi]", and the comment above each function quotes
 * the words that give its range.  Nothing here clamps, casts or retries
 * the way src/idr.c does, so a mistake there is not made here too.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "seam.h"
#include "tree.h"
#include "walk.h"

void model_init(struct model *m, uint32_t base)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
}

void model_free(struct model *m)
{
	free(m->ids);
	free(m->vals);
	m->ids = NULL;
	m->vals = NULL;
	m->n = m->cap = 0;
}

/* {==================== The set ==================== */

/* Where @id is in the array, or m->n: a linear scan. */
static size_t index_of(const struct model *m, uint64_t id)
{
	size_t i;

	for (i = 0; i < m->n && m->ids[i] <= id; i++)
		if (m->ids[i] == id)
			return i;
	return m->n;
}

static void insert(struct model *m, uint32_t id, void *ptr)
{
	size_t i = 0;

	while (i < m->n && m->ids[i] < id)
		i++;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->ids = realloc(m->ids, m->cap * sizeof(*m->ids));
		m->vals = realloc(m->vals, m->cap * sizeof(*m->vals));
		if (!m->ids || !m->vals)
			abort();
	}
	memmove(m->ids + i + 1, m->ids + i, (m->n - i) * sizeof(*m->ids));
	memmove(m->vals + i + 1, m->vals + i, (m->n - i) * sizeof(*m->vals));
	m->ids[i] = id;
	m->vals[i] = ptr;
	m->n++;
}

static void erase(struct model *m, size_t i)
{
	memmove(m->ids + i, m->ids + i + 1, (m->n - i - 1) * sizeof(*m->ids));
	memmove(m->vals + i, m->vals + i + 1,
		(m->n - i - 1) * sizeof(*m->vals));
	m->n--;
}

/*
 * The lowest ID in [@lo, @hi] the model lacks, or -1 if there is none
 * (an empty range, @lo > @hi, included).  The IDs are ascending, so one
 * pass carries the candidate past each taken ID it meets, and stops at
 * the first ID above it.
 */
int64_t model_lowest_free(const struct model *m, uint64_t lo, uint64_t hi)
{
	uint64_t id = lo;
	size_t i;

	for (i = 0; i < m->n && m->ids[i] <= id; i++)
		if (m->ids[i] == id)
			id++;
	return id <= hi ? (int64_t)id : -1;
}

/* Take @id, found free by model_lowest_free(), for @ptr. */
static int take(struct model *m, int64_t id, void *ptr)
{
	if (id < 0)
		return -ENOSPC;
	insert(m, (uint32_t)id, ptr);
	return 0;
}

/* }==================== The set ==================== */

/* {==================== The idr ==================== */

/*
 * The documented ranges.  idr_init_base(): "@base: the lowest ID
 * idr_alloc() may hand out".  idr_alloc(): "@end: the first ID not
 * wanted, or <= 0 for 'up to INT_MAX'".  idr_alloc_u32(): "@max: the
 * highest ID wanted (inclusive); clamped to UINT32_MAX".
 */
static uint64_t at_least_base(const struct model *m, uint64_t lo)
{
	return lo < m->base ? m->base : lo;
}

static uint64_t last_before(int end)
{
	if (end <= 0)
		return INT_MAX;
	return (uint64_t)end - 1;
}

/* idr_alloc_u32(): "no ID in [*@nextid, @max] is free" is -ENOSPC. */
int model_alloc_u32(struct model *m, void *ptr, uint32_t *nextid,
		    unsigned long max)
{
	uint64_t hi = max < UINT32_MAX ? max : UINT32_MAX;
	int64_t id = model_lowest_free(m, at_least_base(m, *nextid), hi);
	int err = take(m, id, ptr);

	if (!err)
		*nextid = (uint32_t)id;
	return err;
}

/* idr_alloc(): "the lowest free ID in [@start, @end)". */
int model_alloc(struct model *m, void *ptr, int start, int end)
{
	int64_t id;
	int err;

	if (start < 0)
		return -EINVAL;
	id = model_lowest_free(m, at_least_base(m, (uint64_t)start),
			       last_before(end));
	err = take(m, id, ptr);
	return err ? err : (int)id;
}

/*
 * idr_alloc_cyclic(): "Searches [max(cursor, @start), @end), then once
 * more from @start.  On success the cursor becomes the new ID plus one";
 * "On error the idr and its cursor are unchanged".  A cursor past the
 * range makes the first search empty: only the second can find an ID.
 */
int model_alloc_cyclic(struct model *m, void *ptr, int start, int end)
{
	uint64_t from, hi = last_before(end);
	int64_t id;

	if (start < 0)
		return -EINVAL;
	from = m->next > (uint64_t)start ? m->next : (uint64_t)start;
	id = model_lowest_free(m, at_least_base(m, from), hi);
	if (id < 0)
		id = model_lowest_free(m, at_least_base(m, (uint64_t)start),
				       hi);
	if (take(m, id, ptr))
		return -ENOSPC;
	m->next = (uint32_t)id + 1;
	return (int)id;
}

bool model_find(const struct model *m, unsigned long id, void **val)
{
	size_t i = index_of(m, id);

	if (i == m->n)
		return false;
	*val = m->vals[i];
	return true;
}

bool model_remove(struct model *m, unsigned long id, void **val)
{
	size_t i = index_of(m, id);

	if (i == m->n)
		return false;
	*val = m->vals[i];
	erase(m, i);
	return true;
}

void *model_next(const struct model *m, unsigned long *id)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->ids[i] >= *id && m->vals[i]) {
			*id = m->ids[i];
			return m->vals[i];
		}
	return NULL;
}

/* }==================== The idr ==================== */

/* {==================== The IDA ==================== */

/*
 * ida_alloc_range(): "the lowest free ID in [@min, @max]"; "@max: ...
 * above INT_MAX means INT_MAX"; "-ENOSPC if none is free, or if @min >
 * INT_MAX or @min > @max".  An IDA has no base: model_init(m, 0).
 */
int model_ida_alloc(struct model *m, unsigned int min, unsigned int max)
{
	int64_t id;

	if (min > INT_MAX || min > max)
		return -ENOSPC;
	id = model_lowest_free(m, min, max < INT_MAX ? max : INT_MAX);
	return take(m, id, NULL) ? -ENOSPC : (int)id;
}

/* ida_free(): "-ENOENT if @id is not allocated". */
int model_ida_free(struct model *m, unsigned int id)
{
	void *val;

	return model_remove(m, id, &val) ? 0 : -ENOENT;
}

/*
 * ida_find_first_range(): "The lowest allocated ID in [@min, @max]";
 * "@max: the highest (inclusive); above INT_MAX means INT_MAX"; "-EINVAL
 * if @min is above INT_MAX"; "-ENOENT if none is allocated there".
 */
int model_ida_first(const struct model *m, unsigned int min, unsigned int max)
{
	uint64_t hi = max < INT_MAX ? max : INT_MAX;
	size_t i;

	if (min > INT_MAX)
		return -EINVAL;
	for (i = 0; i < m->n; i++)
		if (m->ids[i] >= min && m->ids[i] <= hi)
			return (int)m->ids[i];
	return -ENOENT;
}

bool model_has(const struct model *m, unsigned long id)
{
	return index_of(m, id) < m->n;
}

/* Whether @ida holds exactly the IDs of @m. */
bool model_ida_matches(const struct model *m, const struct ida *ida)
{
	unsigned int next = 0;
	size_t i;

	if (ida_count(ida) != m->n || ida_is_empty(ida) != (m->n == 0))
		return false;
	for (i = 0; i < m->n; i++) {
		if (ida_find_first_range(ida, next, UINT_MAX) !=
			    (int)m->ids[i] ||
		    !ida_exists(ida, m->ids[i]))
			return false;
		next = m->ids[i] + 1u;
	}
	return m->n == 0 || m->ids[m->n - 1] == INT_MAX ||
	       ida_find_first_range(ida, next, UINT_MAX) == -ENOENT;
}

/* }==================== The IDA ==================== */

bool model_matches(const struct model *m, const struct idr *idr)
{
	unsigned long id = 0;
	size_t i;
	void *val;

	if (idr_count(idr) != m->n || idr_is_empty(idr) != (m->n == 0))
		return false;
	for (i = 0; i < m->n; i++)
		if (idr_find(idr, m->ids[i]) != m->vals[i])
			return false;
	/* Iteration sees the non-NULL entries, in order, and nothing else. */
	for (i = 0; (val = idr_get_next_ul(idr, &id)) != NULL; id++, i++) {
		while (i < m->n && !m->vals[i])
			i++;
		if (i == m->n || m->ids[i] != id || m->vals[i] != val)
			return false;
	}
	while (i < m->n && !m->vals[i])
		i++;
	return i == m->n;
}

struct idr_snap idr_snap_of(const struct idr *idr)
{
	struct idr_snap s = { idr_count(idr), 0, idr__height(idr),
			      idr_cache_count(idr), idr_is_empty(idr) };
	unsigned long tmp, id;
	void *entry;

	idr_for_each_entry_ul(idr, entry, tmp, id)
		s.sum = s.sum * 31 + id * 7 + (uintptr_t)entry;
	return s;
}

bool idr_snap_same(const struct idr *idr, struct idr_snap was)
{
	struct idr_snap now = idr_snap_of(idr);

	return now.count == was.count && now.sum == was.sum &&
	       now.height == was.height && now.cached == was.cached &&
	       now.empty == was.empty && idr_check(idr) == 0;
}

unsigned int fill_packed_room(struct idr *idr, void *(*value)(unsigned long))
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(idr, 0, views), added = 0;
	struct idr_view *leaf = &views[n - 1];
	int id;

	CHECK(n > 0 && leaf->packed);
	while (n && (unsigned int)__builtin_popcountll(leaf->present) <
			    leaf->packed) {
		id = idr_alloc(idr, NULL, 0, 0, GFP_KERNEL);
		if (!CHECK(id >= 0))
			break;
		idr_replace(idr, value((unsigned long)id), (unsigned long)id);
		added++;
		n = idr__path_views(idr, 0, views);
	}
	return added;
}

unsigned long allocs_of(unsigned long (*run)(unsigned long skip,
					     unsigned long count))
{
	struct seam_mem_stats m;
	unsigned long before;

	seam_mem_stats(&m);
	before = m.allocs;
	CHECK_EQ(run(0, 0), 0);
	seam_mem_stats(&m);
	return m.allocs - before;
}

void fault_each_allocation_of(const char *what,
			      unsigned long (*run)(unsigned long skip,
						   unsigned long count))
{
	unsigned long skip, total = allocs_of(run);

	CHECK(total > 20);
	for (skip = 0; skip < total; skip++)
		CHECK_EQ(run(skip, 1), 1);
	CHECK(run(0, ULONG_MAX) > 0);
	CHECK(run(total / 2, ULONG_MAX) > 0);
	printf("# %s: each of %lu allocations failed in turn\n", what, total);
}

uint64_t rnd_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

uint64_t rnd_below(uint64_t *state, uint64_t n)
{
	return n ? rnd_next(state) % n : 0;
}
