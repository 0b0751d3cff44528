# tests/packaging.mk - the ways users install idr, built for make test
# (included by the Makefile):
#
#   make deb        dpkg-buildpackage of a copy of the tree in
#                   build/deb/src, with the upstream tarball (the copy
#                   without debian/) that the 3.0 (quilt) format needs:
#                   the source package and the .deb files land in build/deb
#   make rock       luarocks make of a copy in build/rock/src, into the
#                   tree build/rock/tree, and the binary rock packed from
#                   it (luarocks pack) in build/rock
#   make lintian    lintian over build/deb: no error, no warning
#
# Both builds work on copies because dpkg-buildpackage writes to the
# parent of the tree it builds and LuaRocks writes objects beside the
# sources: nothing lands outside build/, and make clean removes it all.
# The copies hold the files git knows of (tracked, or new and not
# ignored), as a fresh clone would.  tests/packaging*.bats test what is
# built here; make test builds it first (TEST_DEPS), and lintian runs as
# a suite of its own.

# build-essential: dpkg-buildpackage requires it beside Build-Depends.
DEPS_PACKAGING := luarocks debhelper lintian dpkg-dev fakeroot \
	build-essential bash-completion
ROCKSPEC := rockspecs/idr-$(VERSION)-1.rockspec
PKG_FILES := $(wildcard $(shell git ls-files -co --exclude-standard 2>/dev/null))

# copy_tree DIR: the files git knows of, as they are in the worktree.
copy_tree = rm -rf $(1) && mkdir -p $(1) && \
	git ls-files -z -co --exclude-standard | \
	tar --null --ignore-failed-read -T - -cf - | tar -xf - -C $(1)

# The outer make's flags (-s, -j's jobserver, VAR=value) stay out of the
# package build: it is a build of its own, with Debian's flags.  nocheck
# and the empty dh_auto_test keep make test from calling itself.
DEB_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	TMPDIR=$(abspath $(B)/deb/tmp) \
	DEB_BUILD_OPTIONS='nocheck noddebs parallel=2'

$(B)/deb/stamp: $(PKG_FILES)
	@sh .ci/deps $(DEPS_PACKAGING)
	@printf '  %-3s %s\n' DEB $(B)/deb
	$(Q)rm -rf $(B)/deb
	$(Q)$(call copy_tree,$(B)/deb/src)
	$(Q)mkdir -p $(B)/deb/tmp
	$(Q)tar -C $(B)/deb --exclude=src/debian \
		--transform 's|^src|idr-$(VERSION)|' \
		-cJf $(B)/deb/idr_$(VERSION).orig.tar.xz src
	$(Q)cd $(B)/deb/src && $(DEB_ENV) dpkg-buildpackage -us -uc \
		> ../build.log 2>&1 || { tail -n 30 ../build.log; exit 1; }
	$(Q)touch $@

# LuaRocks keeps its temporary trees in $TMPDIR and its cache in $HOME:
# both under build/rock too.  The build is offline: --deps-mode=none
# leaves out the rockspec's dkjson (only idr.json needs it, on first
# use), which luarocks install fetches from luarocks.org.  The binary
# rock is packed from the installed tree: Debian 12's LuaRocks 3.8 runs
# a "make" rockspec's install step, under make --pack-binary-rock, with
# the default tree's paths (it wrote to /usr/local/lib/luarocks) and
# packs a rock without idr.so.
LUAROCKS = env HOME=$(abspath $(B)/rock/home) \
	TMPDIR=$(abspath $(B)/rock/tmp) luarocks --lua-version=5.4

$(B)/rock/stamp: $(PKG_FILES)
	@sh .ci/deps $(DEPS_PACKAGING)
	@printf '  %-3s %s\n' ROCK $(B)/rock
	$(Q)rm -rf $(B)/rock
	$(Q)$(call copy_tree,$(B)/rock/src)
	$(Q)mkdir -p $(B)/rock/home $(B)/rock/tmp
	$(Q)cd $(B)/rock/src && $(LUAROCKS) make --deps-mode=none --tree=../tree $(ROCKSPEC) \
		> ../build.log 2>&1 || { cat ../build.log; exit 1; }
	$(Q)cd $(B)/rock && $(LUAROCKS) pack --tree=tree idr $(VERSION)-1 \
		>> build.log 2>&1 || { cat build.log; exit 1; }
	$(Q)touch $@

deb: $(B)/deb/stamp
rock: $(B)/rock/stamp

# lintian over the source and binary packages: no error, no warning.
LINTIAN := lintian --fail-on error,warning --pedantic
lintian: $(B)/deb/stamp
	$(LINTIAN) $(B)/deb/idr_$(VERSION)-1_*.changes

EXTRA_SUITES += lintian
SUITE_lintian = sh -c '$(LINTIAN) $(B)/deb/idr_$(VERSION)-1_*.changes && \
	echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }'
TEST_DEPS += $(B)/deb/stamp $(B)/rock/stamp

.PHONY: deb rock lintian
