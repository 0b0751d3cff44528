/* SPDX-License-Identifier: MIT */
/*
 * demo.c - what `make run` shows until the shell exists: a few IDs
 * handed out, looked up, freed and handed out again.
 */
#include <stdio.h>

#include "idr.h"

static int show(int id, void *p, void *data)
{
	(void)data;
	printf("  %d -> %s\n", id, (const char *)p);
	return 0;
}

int main(void)
{
	static char names[][8] = { "tty", "disk", "net", "sound", "usb", "gpu" };
	DEFINE_IDR(devices);
	int i, id;

	for (i = 0; i < 4; i++)
		printf("idr_alloc(\"%s\") = %d\n", names[i],
		       idr_alloc(&devices, names[i], 0, 0, GFP_KERNEL));
	printf("idr_find(2) = %s\n", (const char *)idr_find(&devices, 2));
	printf("idr_remove(1) = %s\n", (const char *)idr_remove(&devices, 1));
	id = idr_alloc(&devices, names[4], 0, 0, GFP_KERNEL);
	printf("idr_alloc(\"usb\") = %d (the lowest free ID)\n", id);
	id = idr_alloc(&devices, names[5], 1000, 2000, GFP_KERNEL);
	printf("idr_alloc(\"gpu\", 1000, 2000) = %d\n", id);
	printf("idr_alloc(NULL, 2, 4) = %d (ENOSPC is %d)\n",
	       idr_alloc(&devices, NULL, 2, 4, GFP_KERNEL), -ENOSPC);
	puts("idr_for_each:");
	idr_for_each(&devices, show, NULL);
	idr_destroy(&devices);
	return 0;
}
