/* SPDX-License-Identifier: MIT */
/*
 * main.c - runs every suite and prints "N passed, N failed".
 *
 * A case passes when none of its checks fail and the library's bytes in
 * use are back where they were when it started: every case is also a
 * leak test.
 *
 *   unit [FILTER]    only the cases whose name holds FILTER; a case
 *                    whose name begins with one of the words of
 *                    $UNIT_SKIP does not run.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "seam.h"

unsigned long check_failures;
static unsigned long passed, failed, nskipped;
static unsigned long skip_used; /* bit i: skip word i matched a case */
static const char *filter, *skip;

bool check_at(bool ok, const char *what, const char *file, int line)
{
	if (!ok) {
		check_failures++;
		if (check_failures < 20)
			fprintf(stderr, "%s:%d: check failed: %s\n", file, line,
				what);
	}
	return ok;
}

bool check_long_at(long got, long want, const char *what, const char *file,
		   int line)
{
	if (got == want)
		return true;
	check_failures++;
	if (check_failures < 20)
		fprintf(stderr, "%s:%d: check failed: %s (got %ld, want %ld)\n",
			file, line, what, got, want);
	return false;
}

/* Whether @name begins with one of the space-separated words of skip. */
static bool skipped(const char *name)
{
	const char *w = skip ? skip : "";
	unsigned int i = 0;

	for (w += strspn(w, " "); *w; w += strspn(w, " "), i++) {
		size_t n = strcspn(w, " ");

		if (strncmp(name, w, n) == 0) {
			skip_used |= 1ul << (i % 64);
			nskipped++;
			return true;
		}
		w += n;
	}
	return false;
}

/* Say what $UNIT_SKIP left out; a word that matched nothing fails. */
static void report_skips(void)
{
	const char *w = skip ? skip : "";
	unsigned int i = 0;

	if (nskipped)
		printf("# skipped %lu cases ($UNIT_SKIP=%s)\n", nskipped, skip);
	for (w += strspn(w, " "); *w; w += strspn(w, " "), i++) {
		size_t n = strcspn(w, " ");

		if (!(skip_used >> (i % 64) & 1)) {
			printf("not ok $UNIT_SKIP: %.*s matches no case\n",
			       (int)n, w);
			failed++;
		}
		w += n;
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf)
		*len = fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

static void spill(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (CHECK(f != NULL)) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

void golden_check(const char *path, char *text, size_t len)
{
	size_t want_len;
	char *want;

	if (getenv("IDR_UPDATE_GOLDEN"))
		spill(path, text, len);
	want = slurp(path, &want_len);
	if (!CHECK(want != NULL) || !CHECK_EQ(want_len, len) ||
	    !CHECK(memcmp(want, text, len) == 0))
		fprintf(stderr, "golden: %s differs; got:\n%s", path, text);
	free(want);
	free(text);
}

void run_case(void (*fn)(void), const char *name)
{
	unsigned long failures = check_failures;
	struct seam_mem_stats before, after;

	if ((filter && !strstr(name, filter)) || skipped(name))
		return;
	seam_mem_stats(&before);
	fn();
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	if (after.bytes != before.bytes) {
		fprintf(stderr, "%s: leaked %ld bytes\n", name,
			(long)(after.bytes - before.bytes));
		check_failures++;
	}
	if (check_failures == failures) {
		passed++;
		printf("ok %s\n", name);
	} else {
		failed++;
		printf("not ok %s\n", name);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		filter = argv[1];
	skip = getenv("UNIT_SKIP");
	suite_api();
	suite_preload();
	suite_fault();
	suite_legacy();
	suite_ida();
	suite_tag();
	suite_save();
	suite_view();
	suite_trace();
	suite_pack();
	suite_keyed();
	suite_pool();
	suite_edges();
	suite_mutants();
	suite_model();
	if (!filter)
		report_skips();
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
