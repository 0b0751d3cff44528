// SPDX-License-Identifier: MIT
// header.cc - a C++17 program includes idr.h and uses its macros: the
// static initialisers, idr_for_each_entry and the kernel's error helpers.
// Built with g++ -std=c++17 -pedantic -Werror by make test.
#include <cstdio>

#include "idr.h"

static DEFINE_IDR(ids);
static DEFINE_IDA(numbers);

static int failures;

static void check(bool ok, const char *what)
{
	std::printf("%s %s\n", ok ? "ok" : "not ok", what);
	failures += !ok;
}

int main()
{
	struct idr based = IDR_INIT_BASE(based, 5);
	int values[3] = { 10, 11, 12 }, id, sum = 0, n = 0;
	void *entry;

	for (int &v : values)
		idr_alloc(&ids, &v, 0, 0, GFP_KERNEL);
	idr_for_each_entry(&ids, entry, id) {
		sum += *static_cast<int *>(entry);
		n++;
	}
	check(n == 3 && sum == 33, "idr_for_each_entry visits every entry");
	check(idr_alloc(&based, values, 0, 0, GFP_KERNEL) == 5,
	      "IDR_INIT_BASE starts at its base");
	check(ida_alloc(&numbers, GFP_KERNEL) == 0, "DEFINE_IDA works");
	check(IS_ERR(idr_replace(&ids, values, 99)) &&
		      PTR_ERR(idr_replace(&ids, values, 99)) == -ENOENT,
	      "ERR_PTR, IS_ERR and PTR_ERR");
	idr_destroy(&ids);
	idr_destroy(&based);
	ida_destroy(&numbers);
	std::printf("%d passed, %d failed\n", 4 - failures, failures);
	return failures != 0;
}
