/* SPDX-License-Identifier: MIT */
/*
 * minor-numbers.c - a character-device driver's minor numbers, the way
 * drivers hand them out: idr_alloc() in [0, MINORS), the device struct
 * stored at its minor, idr_find() when a device node is opened, and
 * idr_remove() when the device goes away.  A full range is -ENOSPC.
 *
 * Build against the installed library:
 *	cc -Wall -Wextra -Werror minor-numbers.c $(pkg-config --cflags --libs idr)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <idr.h>

#define MINORS 4 /* a small driver: minors 0 .. 3 */

struct widget {
	char name[16];
	int minor;
};

static DEFINE_IDR(widget_minors);

/* Probe: give the device the lowest free minor. */
static int widget_probe(struct widget *w, const char *name)
{
	int minor;

	snprintf(w->name, sizeof(w->name), "%s", name);
	minor = idr_alloc(&widget_minors, w, 0, MINORS, GFP_KERNEL);
	if (minor < 0) {
		printf("probe %-8s: %s\n", name,
		       minor == -ENOSPC ? "no free minor (-ENOSPC)"
					: strerror(-minor));
		return minor;
	}
	w->minor = minor;
	printf("probe %-8s: /dev/widget%d\n", name, minor);
	return 0;
}

/* open("/dev/widgetN"): the minor leads back to the device. */
static void widget_open(int minor)
{
	struct widget *w = idr_find(&widget_minors, minor);

	if (w)
		printf("open /dev/widget%d: %s\n", minor, w->name);
	else
		printf("open /dev/widget%d: no such device (-ENODEV)\n", minor);
}

static void widget_remove(struct widget *w)
{
	struct widget *gone = idr_remove(&widget_minors, w->minor);

	printf("remove %-7s: minor %d is free%s\n", w->name, w->minor,
	       gone == w ? "" : " (but held another device!)");
}

int main(void)
{
	static struct widget dev[6];
	struct widget *w;
	int minor;

	widget_probe(&dev[0], "red");
	widget_probe(&dev[1], "green");
	widget_probe(&dev[2], "blue");
	widget_open(1);
	widget_remove(&dev[1]);
	widget_open(1);
	widget_probe(&dev[3], "cyan"); /* takes minor 1 again */
	widget_probe(&dev[4], "magenta");
	widget_probe(&dev[5], "yellow"); /* the range is full */

	printf("%lu devices:\n", idr_count(&widget_minors));
	idr_for_each_entry(&widget_minors, w, minor)
		printf("  /dev/widget%d -> %s\n", minor, w->name);

	idr_destroy(&widget_minors);
	return 0;
}
