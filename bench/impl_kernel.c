/* SPDX-License-Identifier: MIT */
/*
 * impl_kernel.c - Linux 6.1's idr as a map peer and its IDA as a set
 * peer (bench/kernel.h), in the bench built with them (BENCH_KERNEL,
 * bench/bench.mk).
 */
#include "kernel.h"

#define IMPL kernel
#define IMPL_NAME "kernel"
#define IMPL_T struct bench_kernel
#define IMPL_SPARSE 1
#include "map.h"

#define IMPL kernel_ida
#define IMPL_NAME "kernel"
#define IMPL_T struct bench_kernel_ida
#include "set.h"
