/* SPDX-License-Identifier: MIT */
/*
 * kernel_idr.c - the adapter between bench/kernel.h and Linux 6.1's idr
 * (lib/idr.c on lib/radix-tree.c), compiled against the kernel's headers
 * and the shims of its own userspace harness, tools/testing/radix-tree,
 * whose kmem_cache (linux.c) hands out the nodes.  bench/bench.mk
 * extracts those sources from Debian's linux-source-6.1 at build time
 * and links them with this file into one object whose only global names
 * are bench_kernel_*: the kernel's idr_alloc and ours never meet.  Its
 * IDA is here too, on lib/xarray.c.
 */
#include <stdlib.h>

#include <linux/idr.h>
#include <linux/slab.h>

#include "kernel.h"

struct bench_kernel {
	struct idr idr;
	unsigned long base; /* the node cache's bytes when it was made */
};

/* The harness's kmem_cache: size * objects in use, allocations ever. */
extern struct kmem_cache *radix_tree_node_cachep;
unsigned long kmem_cache_get_alloc(struct kmem_cache *cachep);
unsigned long kmem_cache_nr_tallocated(struct kmem_cache *cachep);

/*
 * call_rcu() (urcu's, under the harness) would free a node later on
 * liburcu's thread, out of the CPU time measured and of the bytes
 * counted: the bench frees it at once, on the caller's thread.
 */
void urcu_memb_call_rcu(struct rcu_head *head,
			void (*func)(struct rcu_head *head))
{
	func(head);
}

/* The same pointer as bench.h's val(). */
static void *val(unsigned long id)
{
	return (void *)((id + 1) * 8);
}

struct bench_kernel *bench_kernel_new(unsigned long cap)
{
	struct bench_kernel *k = calloc(1, sizeof(*k));

	(void)cap;
	if (!k)
		abort();
	if (!radix_tree_node_cachep)
		radix_tree_init();
	idr_init(&k->idr);
	k->base = kmem_cache_get_alloc(radix_tree_node_cachep);
	return k;
}

void bench_kernel_del(struct bench_kernel *k)
{
	idr_destroy(&k->idr);
	free(k);
}

long bench_kernel_alloc(struct bench_kernel *k, void *p)
{
	return idr_alloc(&k->idr, p, 0, 0, GFP_KERNEL);
}

void *bench_kernel_find(struct bench_kernel *k, unsigned long id)
{
	return idr_find(&k->idr, id);
}

bool bench_kernel_remove(struct bench_kernel *k, unsigned long id, void *p)
{
	return idr_remove(&k->idr, id) == p;
}

long bench_kernel_cyclic(struct bench_kernel *k, void *p, unsigned long start,
			 unsigned long end)
{
	return idr_alloc_cyclic(&k->idr, p, (int)start, (int)end, GFP_KERNEL);
}

/* [id, id + 1), where an end of 0 means "up to INT_MAX". */
bool bench_kernel_insert(struct bench_kernel *k, unsigned long id, void *p)
{
	int end = id == INT_MAX ? 0 : (int)id + 1;

	return idr_alloc(&k->idr, p, (int)id, end, GFP_KERNEL) == (long)id;
}

unsigned long bench_kernel_iterate(struct bench_kernel *k)
{
	unsigned long n = 0;
	void *e;
	int id;

	idr_for_each_entry(&k->idr, e, id) {
		if (e != val((unsigned long)id) || (unsigned long)id != n)
			abort();
		n++;
	}
	return n;
}

unsigned long bench_kernel_count(struct bench_kernel *k, void *p)
{
	unsigned long n = 0;
	void *e;
	int id;

	idr_for_each_entry(&k->idr, e, id)
		n += e == p;
	return n;
}

size_t bench_kernel_bytes(struct bench_kernel *k)
{
	return kmem_cache_get_alloc(radix_tree_node_cachep) - k->base;
}

/* The node cache's count, for every idr at once, as the idr's seam. */
double bench_kernel_mallocs(struct bench_kernel *k)
{
	(void)k;
	return (double)kmem_cache_nr_tallocated(radix_tree_node_cachep);
}

/* {==================== The IDA ==================== */

struct bench_kernel_ida {
	struct ida ida;
	unsigned long base; /* the node cache's bytes when it was made */
};

struct bench_kernel_ida *bench_kernel_ida_new(unsigned long cap)
{
	struct bench_kernel_ida *k = calloc(1, sizeof(*k));

	(void)cap;
	if (!k)
		abort();
	if (!radix_tree_node_cachep)
		radix_tree_init();
	ida_init(&k->ida);
	k->base = kmem_cache_get_alloc(radix_tree_node_cachep);
	return k;
}

void bench_kernel_ida_del(struct bench_kernel_ida *k)
{
	ida_destroy(&k->ida);
	free(k);
}

long bench_kernel_ida_get(struct bench_kernel_ida *k)
{
	return ida_alloc(&k->ida, GFP_KERNEL);
}

/* The kernel's ida_free() returns nothing (it warns on a free ID). */
bool bench_kernel_ida_put(struct bench_kernel_ida *k, unsigned long id)
{
	ida_free(&k->ida, (unsigned int)id);
	return true;
}

/* A slot holds a bitmap, or a value entry: up to 62 IDs in the slot's
 * own word, with no bitmap. */
size_t bench_kernel_ida_bytes(struct bench_kernel_ida *k)
{
	size_t bytes = kmem_cache_get_alloc(radix_tree_node_cachep) - k->base;
	unsigned long index;
	void *entry;

	xa_for_each(&k->ida.xa, index, entry) {
		if (!xa_is_value(entry))
			bytes += sizeof(struct ida_bitmap);
	}
	return bytes;
}

/* }==================== The IDA ==================== */
