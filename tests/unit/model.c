/* SPDX-License-Identifier: MIT */
/*
 * model.c - the reference the library is compared with.  Obviously
 * right before fast: linear scans, memmove, no cleverness.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "tree.h"

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

/* The position of the first ID >= @id. */
static size_t lower_bound(const struct model *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void insert_at(struct model *m, size_t i, uint32_t id, void *ptr)
{
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

int model_alloc_u32(struct model *m, void *ptr, uint32_t *nextid,
		    unsigned long max)
{
	uint64_t id = *nextid < m->base ? m->base : *nextid;
	size_t i;

	if (max > UINT32_MAX)
		max = UINT32_MAX;
	for (i = lower_bound(m, id); i < m->n && m->ids[i] == id; i++)
		id++;
	if (id > max)
		return -ENOSPC;
	insert_at(m, i, (uint32_t)id, ptr);
	*nextid = (uint32_t)id;
	return 0;
}

static unsigned long range_max(int end)
{
	return end > 0 ? (unsigned long)end - 1 : INT_MAX;
}

int model_alloc(struct model *m, void *ptr, int start, int end)
{
	uint32_t id = (uint32_t)start;
	int err;

	if (start < 0)
		return -EINVAL;
	err = model_alloc_u32(m, ptr, &id, range_max(end));
	return err ? err : (int)id;
}

int model_alloc_cyclic(struct model *m, void *ptr, int start, int end)
{
	uint32_t id = m->next;
	int err;

	if (start < 0)
		return -EINVAL;
	if (id < (uint32_t)start || id > INT_MAX)
		id = (uint32_t)start;
	err = model_alloc_u32(m, ptr, &id, range_max(end));
	if (err == -ENOSPC && id > (uint32_t)start) {
		id = (uint32_t)start;
		err = model_alloc_u32(m, ptr, &id, range_max(end));
	}
	if (err)
		return err;
	m->next = id + 1;
	return (int)id;
}

bool model_find(const struct model *m, unsigned long id, void **val)
{
	size_t i = lower_bound(m, id);

	if (i == m->n || m->ids[i] != id)
		return false;
	*val = m->vals[i];
	return true;
}

bool model_remove(struct model *m, unsigned long id, void **val)
{
	size_t i = lower_bound(m, id);

	if (i == m->n || m->ids[i] != id)
		return false;
	*val = m->vals[i];
	memmove(m->ids + i, m->ids + i + 1, (m->n - i - 1) * sizeof(*m->ids));
	memmove(m->vals + i, m->vals + i + 1,
		(m->n - i - 1) * sizeof(*m->vals));
	m->n--;
	return true;
}

void *model_next(const struct model *m, unsigned long *id)
{
	size_t i;

	for (i = lower_bound(m, *id); i < m->n; i++)
		if (m->vals[i]) {
			*id = m->ids[i];
			return m->vals[i];
		}
	return NULL;
}

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

void fault_each_allocation_of(const char *what,
			      unsigned long (*run)(unsigned long skip,
						   unsigned long count))
{
	struct idr_mem_stats m;
	unsigned long skip, total;

	idr_mem_stats(&m);
	total = m.allocs;
	CHECK_EQ(run(0, 0), 0);
	idr_mem_stats(&m);
	total = m.allocs - total;
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
