/* SPDX-License-Identifier: MIT */
/*
 * input.h - the fuzzers' byte reader: past the end of the input, every
 * byte is 0, so that any input decodes to some sequence of calls.
 */
#ifndef IDR_FUZZ_INPUT_H
#define IDR_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct input {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t byte(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

#endif
