# The man pages: lint-clean, installed, and one page for every public name.

setup() {
	load test_helper
}

@test "every man page is clean under mandoc -Tlint -Wwarning" {
	for page in man/*.[0-9]*; do
		run mandoc -Tlint -Wwarning "$page"
		[ "$status" -eq 0 ] && [ -z "$output" ] ||
			{ echo "$page: $output"; return 1; }
	done
}

@test "every man page is clean under groff -man -ww -z" {
	for page in man/*.[0-9]*; do
		run groff -man -ww -z "$page"
		[ "$status" -eq 0 ] && [ -z "$output" ] ||
			{ echo "$page: $output"; return 1; }
	done
}

@test "man idr_alloc (and every public function) finds idr(3) after install" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s install-man DESTDIR="$dest" PREFIX=/usr
	[ "$status" -eq 0 ]
	names=$(sed -n 's/^IDR_API [^(]*[ *]\([a-zA-Z_0-9]*\)(.*/\1/p' src/idr.h src/idr_view.h)
	[ -n "$names" ]
	for n in $names idr_for_each_entry DEFINE_IDR IDR_INIT IDA_INIT \
		idr_is_err IS_ERR ERR_PTR; do
		[ "$(cat "$dest/usr/share/man/man3/$n.3")" = ".so man3/idr.3" ] ||
			{ echo "no page for $n"; return 1; }
	done
	run env MANWIDTH=200 man --manpath="$dest/usr/share/man" -P cat idr_alloc
	[ "$status" -eq 0 ]
	[[ "$output" == *"the Linux kernel's integer ID allocator"* ]]
}

@test "every public name idr(3) links to is in its synopsis" {
	names=$(sh tests/man3-links src/idr.h src/idr_view.h src/idr_rcu.h)
	synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' man/idr.3)
	[ -n "$names" ] && [ -n "$synopsis" ]
	# idr_iter_step() is ABI for idr_for_each_entry(), not to be called.
	for n in $names; do
		[ "$n" = idr_iter_step ] ||
			[[ "$synopsis" == *"$n("* || "$synopsis" == *"$n "* ]] ||
				{ echo "idr(3)'s synopsis lacks $n"; return 1; }
	done
}

@test "the man page's example is the README's" {
	readme_block c > "$BATS_TEST_TMPDIR/readme.c"
	sed -n '/^\.SH EXAMPLES/,/^\.EE/p' man/idr.3 | sed '1,2d;$d' |
		sed 's/\\en/\\n/g' > "$BATS_TEST_TMPDIR/man.c"
	# The README's comments aside, the code is the same.
	run diff <(sed 's| */\*.*\*/||; s/ *$//' "$BATS_TEST_TMPDIR/readme.c") \
		<(sed 's/ *$//' "$BATS_TEST_TMPDIR/man.c")
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}
