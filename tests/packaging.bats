# The Debian packages (tests/packaging.mk builds them in build/deb): what
# each package holds, and the packages' programs run from a dpkg -x
# staging folder.  tests/packaging-abi.bats checks the exported symbols.

# Build the packages if they are not, and unpack them all, once, into
# one staging folder.
setup_file() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	make -s deb || return 1
	MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
	VERSION=$(sed -n 's/^#define IDR_VERSION "\(.*\)"/\1/p' src/idr.h)
	STAGE=$BATS_FILE_TMPDIR/stage
	export MA ARCH VERSION STAGE
	for p in libidr1 libidr-rcu1 libidr-dev lua-idr idrsh; do
		dpkg -x "build/deb/${p}_$VERSION-1_$ARCH.deb" "$STAGE" || return 1
	done
}

setup() {
	load test_helper
}

deb() {
	echo "build/deb/$1_$VERSION-1_$ARCH.deb"
}

# The names of the files and links package $1 installs.
contents() {
	dpkg-deb -c "$(deb "$1")" | awk '{ print $6 }' | sed 's|^\./|/|'
}

# Each of "$@" is among the paths package $1 installs.
holds() {
	local pkg=$1 path
	shift
	contents "$pkg" > "$BATS_TEST_TMPDIR/list"
	for path in "$@"; do
		grep -qxF "$path" "$BATS_TEST_TMPDIR/list" ||
			{ echo "$pkg lacks $path"; return 1; }
	done
}

@test "the package build makes the five packages, at the version in idr.h" {
	for p in libidr1 libidr-rcu1 libidr-dev lua-idr idrsh; do
		[ -f "$(deb $p)" ] || { echo "no $(deb $p)"; return 1; }
	done
	[ "$(dpkg-parsechangelog -l debian/changelog -SVersion)" = "$VERSION-1" ]
}

@test "the package build runs no tests (even without nocheck) and checks symbols at -c4" {
	# make test builds the package: dh_auto_test would run make test.
	# dh skips an override target that is completely empty.
	run dh_assistant detect-hook-targets
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	hook=$(grep -o '{[^}]*"target-name":"override_dh_auto_test"[^}]*}' <<< "$output")
	[[ "$hook" == *'"is-empty":true'* ]] || { echo "$output"; return 1; }
	! grep -q 'make.* test' build/deb/build.log
	grep -q '^dh_makeshlibs -- -c4$' build/deb/build.log
}

@test "libidr1 holds the shared library, its soname libidr.so.1" {
	holds libidr1 "/usr/lib/$MA/libidr.so.1" "/usr/lib/$MA/libidr.so.$VERSION"
	! contents libidr1 | grep -q -e '\.a$' -e 'libidr\.so$' -e '^/usr/bin'
	run readelf -d "$STAGE/usr/lib/$MA/libidr.so.$VERSION"
	[[ "$output" == *'(SONAME)'*'[libidr.so.1]'* ]]
}

@test "libidr-rcu1 holds libidr-rcu.so.1, which needs libidr.so.1 and liburcu" {
	holds libidr-rcu1 "/usr/lib/$MA/libidr-rcu.so.1" \
		"/usr/lib/$MA/libidr-rcu.so.$VERSION"
	! contents libidr-rcu1 | grep -q -e '\.a$' -e 'libidr-rcu\.so$'
	run readelf -d "$STAGE/usr/lib/$MA/libidr-rcu.so.$VERSION"
	[[ "$output" == *'(SONAME)'*'[libidr-rcu.so.1]'* ]]
	[[ "$output" == *'(NEEDED)'*'[libidr.so.1]'* ]]
	[[ "$output" == *'(NEEDED)'*'[liburcu.so.'* ]]
	# A plain idr's library needs no liburcu.
	run readelf -d "$STAGE/usr/lib/$MA/libidr.so.$VERSION"
	[[ "$output" != *urcu* ]]
	run dpkg-deb -f "$(deb libidr-rcu1)" Depends
	[[ "$output" == *"liburcu8"* && "$output" == *"libidr1"* ]]
}

@test "libidr-dev holds <idr_rcu.h>, libidr-rcu's static library and idr-rcu.pc" {
	holds libidr-dev /usr/include/idr_rcu.h "/usr/lib/$MA/libidr-rcu.a" \
		"/usr/lib/$MA/libidr-rcu.so" "/usr/lib/$MA/pkgconfig/idr-rcu.pc" \
		/usr/share/man/man3/idr_init_rcu.3.gz \
		/usr/share/man/man3/DEFINE_IDR_RCU.3.gz
	run dpkg-deb -f "$(deb libidr-dev)" Depends
	[[ "$output" == *"libidr-rcu1 (= $VERSION-1)"* ]]
	[[ "$output" == *"liburcu-dev"* ]]
}

@test "libidr-dev holds the headers, static library, .so link, pkg-config file, idr(3)" {
	holds libidr-dev /usr/include/idr.h /usr/include/idr_view.h \
		"/usr/lib/$MA/libidr.a" \
		"/usr/lib/$MA/libidr.so" "/usr/lib/$MA/pkgconfig/idr.pc" \
		/usr/share/man/man3/idr.3.gz /usr/share/man/man3/idr_alloc.3.gz
	run dpkg-deb -f "$(deb libidr-dev)" Depends
	[[ "$output" == *"libidr1 (= $VERSION-1)"* ]]
}

@test "lua-idr puts the module where Debian's lua5.4 looks for it" {
	holds lua-idr "/usr/lib/$MA/lua/5.4/idr.so" /usr/share/man/man3/idr.3lua.gz
	lua5.4 -e 'print(package.cpath)' | tr ';' '\n' |
		grep -qxF "/usr/lib/$MA/lua/5.4/?.so"
}

@test "idrsh holds the shell, idrsh(1) and its bash completion" {
	holds idrsh /usr/bin/idrsh /usr/share/man/man1/idrsh.1.gz \
		/usr/share/bash-completion/completions/idrsh
}

@test "libidr-dev, lua-idr and idrsh hold the README and doc/, whose links work there" {
	local p f
	for p in libidr-dev lua-idr idrsh; do
		contents "$p" > "$BATS_TEST_TMPDIR/list"
		# Uncompressed and in their places: the README links doc/X.md.
		for f in README.md doc/*; do
			grep -qxF "/usr/share/doc/$p/$f" "$BATS_TEST_TMPDIR/list" ||
				{ echo "$p lacks /usr/share/doc/$p/$f"; return 1; }
		done
		for f in $(grep -o '](doc/[^)#]*' README.md | cut -c3- | sort -u); do
			[ -f "$STAGE/usr/share/doc/$p/$f" ] ||
				{ echo "$p: the README's link $f leads nowhere"; return 1; }
		done
	done
	! contents libidr1 | grep -q '\.md'
}

@test "the packages hold the examples: C in libidr-dev, Lua in lua-idr, idrsh's in idrsh" {
	holds libidr-dev /usr/share/doc/libidr-dev/examples/minor-numbers.c
	holds lua-idr /usr/share/doc/lua-idr/examples/pid-allocator.lua
	holds idrsh /usr/share/doc/idrsh/examples/quickstart.idrsh \
		/usr/share/doc/idrsh/examples/lessons/why-64.lesson
}

@test "the source package builds, in the 3.0 (quilt) format its version asks for" {
	[ "$(cat debian/source/format)" = "3.0 (quilt)" ]
	[ -f "build/deb/idr_$VERSION.orig.tar.xz" ]
	[ -f "build/deb/idr_$VERSION-1.dsc" ]
	# The upstream tarball is the tree without debian/.
	! tar -tJf "build/deb/idr_$VERSION.orig.tar.xz" | grep -q '^[^/]*/debian/'
	tar -tJf "build/deb/idr_$VERSION.orig.tar.xz" | grep -qx "idr-$VERSION/src/idr.h"
}

@test "debian/copyright: MIT for the library and module, GPL-3+ for the idrsh binary" {
	grep -q '^License: Expat$' debian/copyright
	grep -q '^License: GPL-3.0-or-later$' debian/copyright
	grep -q 'idrsh binary.*links GNU' debian/copyright
}

@test "from dpkg -x: the C example builds with pkg-config and runs" {
	export PKG_CONFIG_SYSROOT_DIR=$STAGE
	export PKG_CONFIG_PATH=$STAGE/usr/lib/$MA/pkgconfig
	run sh -c "cc -std=c11 -Wall -Wextra -Werror -Wwrite-strings \
		-o '$BATS_TEST_TMPDIR/minor-numbers' examples/minor-numbers.c \
		\$(pkg-config --cflags --libs idr)"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	LD_LIBRARY_PATH=$STAGE/usr/lib/$MA "$BATS_TEST_TMPDIR/minor-numbers" \
		> "$BATS_TEST_TMPDIR/out" 2>&1
	diff examples/minor-numbers.out "$BATS_TEST_TMPDIR/out"
	# The staged library, not some other one, was the one loaded.
	run env LD_LIBRARY_PATH="$STAGE/usr/lib/$MA" ldd "$BATS_TEST_TMPDIR/minor-numbers"
	[[ "$output" == *"libidr.so.1 => $STAGE/usr/lib/$MA/libidr.so.1"* ]]
}

@test "from dpkg -x: lua5.4 requires the module and allocates" {
	run env LUA_CPATH_5_4="$STAGE/usr/lib/$MA/lua/5.4/?.so" lua5.4 -e '
		local idr = require "idr"
		local t = idr.new()
		print(t:alloc("a"), t:alloc("b"), t:find(1))
		print(package.searchpath("idr", package.cpath))'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "${lines[0]}" = "$(printf '0\t1\tb')" ]
	[ "${lines[1]}" = "$STAGE/usr/lib/$MA/lua/5.4/idr.so" ]
}

@test "from dpkg -x: idrsh -c runs commands" {
	run "$STAGE/usr/bin/idrsh" -c 'alloc tty' -c 'alloc disk' -c 'find 1'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "$(printf '0\n1\ndisk')" ]
	run "$STAGE/usr/bin/idrsh" --version
	[[ "$output" == *"$VERSION"* ]]
}
