/* SPDX-License-Identifier: MIT */
/* args.h - the benchmarks' numeric arguments, whole and in range. */
#ifndef IDR_BENCH_ARGS_H
#define IDR_BENCH_ARGS_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

/* Parse @s into *@v: false unless all of it is a number in [@lo, @hi]. */
static inline bool bench_num(const char *s, unsigned long lo, unsigned long hi,
			     unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && *v >= lo &&
	       *v <= hi;
}

#endif
