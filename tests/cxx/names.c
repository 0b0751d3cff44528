/* SPDX-License-Identifier: MIT */
/*
 * names.c - a program with kernel names of its own includes idr.h with
 * IDR_NO_KERNEL_NAMES and uses the idr_ names: nothing clashes.  Built
 * with -Werror by make test, and run.
 */
#include <stdio.h>

typedef int gfp_t;			/* not idr's unsigned int */
#define GFP_KERNEL 1
static int ERR_PTR(int x) { return x; }	/* not a pointer at all */
#define MAX_ERRNO 1

#define IDR_NO_KERNEL_NAMES
#include "idr.h"

int main(void)
{
	DEFINE_IDR(ids);
	int ok = idr_alloc(&ids, &ids, 0, 0, 0) == 0 &&
		 idr_is_err(idr_replace(&ids, &ids, 7)) &&
		 idr_ptr_err(idr_replace(&ids, &ids, 7)) == -ENOENT &&
		 ERR_PTR(GFP_KERNEL) == 1 && MAX_ERRNO == 1;

	idr_destroy(&ids);
	printf("%s the program's own kernel names\n", ok ? "ok" : "not ok");
	printf("%d passed, %d failed\n", ok, !ok);
	return !ok;
}
