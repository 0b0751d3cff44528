/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - Linux 6.1's idr as a peer (bench/kernel_idr.c): map.h's
 * interface in plain C types, so that the bench's side needs none of the
 * kernel's headers.  The functions are the only global names of
 * build/bench/kernel/kernel.o (bench/bench.mk).
 */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

struct bench_kernel;

struct bench_kernel *bench_kernel_new(unsigned long cap);
void bench_kernel_del(struct bench_kernel *k);
long bench_kernel_alloc(struct bench_kernel *k, void *p);
void *bench_kernel_find(struct bench_kernel *k, unsigned long id);
bool bench_kernel_remove(struct bench_kernel *k, unsigned long id, void *p);
long bench_kernel_cyclic(struct bench_kernel *k, void *p, unsigned long start,
			 unsigned long end);
bool bench_kernel_insert(struct bench_kernel *k, unsigned long id, void *p);
/* Entries seen, each checked against val(id) and counted from 0 up. */
unsigned long bench_kernel_iterate(struct bench_kernel *k);
/* bench/instr.c's iteration: the entries that are @p. */
unsigned long bench_kernel_count(struct bench_kernel *k, void *p);
size_t bench_kernel_bytes(struct bench_kernel *k);
double bench_kernel_mallocs(struct bench_kernel *k);

/* Its IDA (lib/idr.c on lib/xarray.c), set.h's interface. */
struct bench_kernel_ida;

struct bench_kernel_ida *bench_kernel_ida_new(unsigned long cap);
void bench_kernel_ida_del(struct bench_kernel_ida *k);
long bench_kernel_ida_get(struct bench_kernel_ida *k);
bool bench_kernel_ida_put(struct bench_kernel_ida *k, unsigned long id);
/* Its xarray's nodes and its bitmaps (kmalloc'd, 128 bytes each). */
size_t bench_kernel_ida_bytes(struct bench_kernel_ida *k);

#endif /* BENCH_KERNEL_H */
