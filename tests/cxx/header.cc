// SPDX-License-Identifier: MIT
// header.cc - a C++17 program includes idr.h and idr_view.h and uses
// their macros: the static initialisers, idr_for_each_entry, the kernel's
// error helpers, and idr_info() and idr_stats(), whose structs share
// their names (so "struct idr_stats", as for stat()).  Built with
// g++ -std=c++17 -pedantic -Wshadow -Werror by make test.
#include <cstdio>

#include "idr.h"
#include "idr_view.h"

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
	struct idr_stats stats;
	struct idr_info info;
	idr_info(&ids, &info);
	check(idr_stats(&ids, &stats) == 0 && stats.ids == 3 &&
		      info.slots == 64 && info.nodes == stats.nodes,
	      "idr_info and idr_stats fill their structs");
	idr_destroy(&ids);
	idr_destroy(&based);
	ida_destroy(&numbers);
	std::printf("%d passed, %d failed\n", 5 - failures, failures);
	return failures != 0;
}
