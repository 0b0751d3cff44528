/* SPDX-License-Identifier: MIT */
/*
 * check.h - a small test harness: CHECK counts, RUN groups checks into
 * test cases, and each case also verifies that it freed what it took.
 */
#ifndef IDR_CHECK_H
#define IDR_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "idr.h"

extern unsigned long check_failures;

bool check_at(bool ok, const char *what, const char *file, int line);
bool check_long_at(long got, long want, const char *what, const char *file,
		   int line);
void run_case(void (*fn)(void), const char *name);
/* Compare @text (@len bytes) with the file at @path and free @text; with
 * IDR_UPDATE_GOLDEN=1 in the environment, rewrite the file first. */
void golden_check(const char *path, char *text, size_t len);

/* Evaluate @cond; on failure report it.  Yields @cond. */
#define CHECK(cond) check_at(!!(cond), #cond, __FILE__, __LINE__)
/* Compare two integers and show both on failure.  Yields got == want. */
#define CHECK_EQ(got, want)                                                   \
	check_long_at((long)(got), (long)(want), #got " == " #want, __FILE__, \
		      __LINE__)
/* The tree's invariants hold. */
#define CHECK_SOUND(idr) CHECK_EQ(idr_check(idr), 0)
#define RUN(fn) run_case(fn, #fn)

/* The suites, one per file. */
void suite_api(void);
void suite_model(void);
void suite_fault(void);
void suite_preload(void);
void suite_legacy(void);
void suite_ida(void);
void suite_tag(void);
void suite_save(void);
void suite_view(void);
void suite_pack(void);
void suite_keyed(void);
void suite_pool(void);
void suite_trace(void);
void suite_edges(void);
void suite_mutants(void);

#endif
