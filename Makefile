# idr - the Linux kernel's integer ID allocator, in userspace.
#
#   make            build the library (build/libidr.a, build/libidr.so)
#   make run        build everything (the Lua module too), start idrsh
#   make test       install what is missing, build, run every suite
#   make valgrind   the unit tests under valgrind memcheck
#   make install    PREFIX=/usr/local, DESTDIR for staging
#   make format     clang-format the C sources (make format-check: dry run)
#
# Every output goes under build/.  Quiet by default: "  CC  build/obj/tree.o"
# for a compile, one line per test suite; V=1 shows every command and every
# suite's whole output.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
LUA_CMODDIR ?= $(LIBDIR)/lua/5.4
MANDIR ?= $(PREFIX)/share/man
LUA ?= lua5.4
LUA_PC ?= lua5.4

VERSION := $(shell sed -n 's/^\#define IDR_VERSION "\(.*\)"/\1/p' src/idr.h)
SOVERSION := 1

CC ?= cc
OPT ?= -O2 -g
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Werror
CPPFLAGS += -D_POSIX_C_SOURCE=200809L
CFLAGS += -std=c11 $(OPT) $(WARN)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

B := build
LIB_SRC := src/trace.c src/nodes.c src/defer.c src/seek.c src/tree.c \
	src/shape.c src/pack.c src/keyed.c src/check.c src/idr.c src/legacy.c \
	src/tag.c src/ida.c src/walk.c src/view.c src/dump.c src/alloc.c \
	src/pool.c
# src/idrsh*.[ch] are the shell's, not the library's (make install
# installs idr.h and idr_view.h alone).
LIB_HDR := $(filter-out src/idrsh%,$(wildcard src/*.h))
IDRSH_SRC := src/idrsh.c src/idrsh_history.c src/idrsh_sys.c
IDRSH_HDR := src/idrsh_history.h src/idrsh_sys.h
LIB_OBJ := $(LIB_SRC:src/%.c=$(B)/obj/%.o)
# libidr-rcu: idr_init_rcu() and the hooks it sets, made of liburcu's
# calls, so that libidr (and a plain idr) needs no liburcu at run time.
RCU_SRC := src/rcu.c
RCU_SOVERSION := 1
URCU_LIBS := -lurcu
# tests/seam.c: the tests' counting, failing allocator, on the seam.
UNIT_SRC := $(wildcard tests/unit/*.c) tests/seam.c
UNIT_HDR := $(wildcard tests/unit/*.h) tests/seam.h

LUA_CFLAGS = $(shell pkg-config --cflags $(LUA_PC) 2>/dev/null)

# man idr_alloc and friends: one ".so" page per public name in idr.h and
# idr_view.h.
MAN3_LINKS := $(shell sh tests/man3-links src/idr.h src/idr_view.h \
	src/idr_rcu.h)

# V=1 shows each command; otherwise a compile says "  CC  FILE" (as the
# kernel's and Lua's builds do) and make -s says nothing.  Warnings and
# errors show either way.
ifeq ($(V),1)
Q :=
else
Q := @
ifeq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
QUIET_CC = @printf '  %-3s %s\n' CC $@;
QUIET_LD = @printf '  %-3s %s\n' LD $@;
QUIET_AR = @printf '  %-3s %s\n' AR $@;
QUIET_GEN = @printf '  %-3s %s\n' GEN $@;
endif
endif

# Debian packages: what building needs, and what the tests add (the C++
# header test needs g++, the replay page's checks python3; JSON output,
# lua/view/json.lua, needs lua-dkjson at run time, not to build).  A suite of
# make test (tests/deps.mk) fails on a command the tests call that these
# lists leave out.
DEPS_BUILD := gcc make libc6-dev pkgconf liblua5.4-dev libreadline-dev \
	liburcu-dev lua-dkjson
DEPS_TEST := $(DEPS_BUILD) lua5.4 valgrind bats bats-support bats-assert \
	clang-format-14 lua-check \
	clang libclang-rt-14-dev g++ python3 \
	binutils graphviz mandoc groff-base man-db chromium

.PHONY: all help run test bench valgrind install install-lua install-man uninstall \
	clean deps-build deps-test lua-module demo examples-svg format \
	format-check

all: $(B)/libidr.a $(B)/libidr.so $(B)/libidr-rcu.a $(B)/libidr-rcu.so \
	$(B)/idr.so $(B)/idrsh

help:
	@printf '%s\n' 'make targets (everything builds into build/):' \
	'  run            build, then start idrsh, the interactive shell' \
	'  test           build, then run every test suite' \
	'  all            the libraries, the Lua module and idrsh (the default)' \
	'  demo           build and run a short C demo' \
	'  examples-svg   build/tree.svg, the quickstart'"'"'s tree by Graphviz' \
	'  bench          this idr beside its peers (bench-plot: the figures)' \
	'  valgrind       the C, Lua and shell suites under valgrind' \
	'  fuzz           the fuzzers (fuzz-build, fuzz-merge)' \
	'  soak           threads sharing one idr, under ThreadSanitizer' \
	'  mutate         small changes to src/*.c against the unit tests' \
	'  install        PREFIX (default /usr/local), DESTDIR; uninstall' \
	'  deb, rock      the Debian packages, the LuaRocks rock; lintian' \
	'  format         clang-format the sources (format-check: only check)' \
	'  deps-list      the Debian packages each target installs' \
	'  clean          remove build/'

deps-build:
	@sh .ci/deps $(DEPS_BUILD)

deps-test:
	@sh .ci/deps $(DEPS_TEST)

$(B)/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden \
		-c -o $@ $<

$(B)/libidr.a: $(LIB_OBJ)
	$(Q)rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

$(B)/libidr.so: $(LIB_OBJ)
	$(QUIET_LD)$(CC) $(CFLAGS) -shared -Wl,-soname,libidr.so.$(SOVERSION) \
		-o $@ $^ $(LDFLAGS)

$(B)/libidr-rcu.a: $(B)/obj/rcu.o
	$(Q)rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

# It calls no libc function of its own, but a library that needs no libc
# would be loaded before it (lintian: library-not-linked-against-libc).
$(B)/libidr-rcu.so: $(B)/obj/rcu.o $(B)/libidr.so
	$(QUIET_LD)$(CC) $(CFLAGS) -shared \
		-Wl,-soname,libidr-rcu.so.$(RCU_SOVERSION) -o $@ $(B)/obj/rcu.o \
		-L$(B) -lidr $(URCU_LIBS) $(LDFLAGS) \
		-Wl,--push-state,--no-as-needed -lc -Wl,--pop-state

# The Lua module: no -llua (the host provides Lua), and the library's own
# symbols hidden (--exclude-libs) so that only luaopen_idr is exported.
# libidr-rcu is built in too (idr.new{ rcu = true }), so the module and
# idrsh link liburcu, shared.
# The views written in Lua are compiled into the binding (lua/embed).
# The replay page's style and script become one more view, "page", with
# their SHA-256 for its Content-Security-Policy (lua/embed -p).
LUA_VIEWS = $(sort $(wildcard lua/view/*.lua))
PAGE_FILES = lua/view/page.css lua/view/page.js
LIDR_SRC = $(sort $(wildcard lua/*.c))
LIDR = $(LIDR_SRC) $(wildcard lua/*.h) $(B)/lidr_lua.h

$(B)/view/page.lua: lua/embed $(PAGE_FILES)
	@mkdir -p $(@D)
	$(QUIET_GEN)sh lua/embed -p $(PAGE_FILES) > $@

$(B)/lidr_lua.h: lua/embed $(LUA_VIEWS) $(B)/view/page.lua
	@mkdir -p $(@D)
	$(QUIET_GEN)sh lua/embed views $(LUA_VIEWS) $(B)/view/page.lua > $@

# -z nodelete: lua_close() dlcloses the module, and liburcu with it,
# while liburcu's call_rcu thread may still run (a crash at exit, now
# and then, once an RCU idr was used).
$(B)/idr.so: $(LIDR) $(B)/libidr-rcu.a $(B)/libidr.a $(LIB_HDR)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(LUA_CFLAGS) -Isrc -I$(B) -fPIC \
		-fvisibility=hidden -shared -o $@ $(LIDR_SRC) $(B)/libidr-rcu.a \
		$(B)/libidr.a -Wl,--exclude-libs,ALL -Wl,-z,nodelete \
		$(URCU_LIBS) $(LDFLAGS)

lua-module: $(B)/idr.so

# idrsh: the shell's Lua modules (lua/idrsh/*.lua) and the lessons
# (examples/lessons/*.lesson) are compiled in (lua/embed), and found by
# name through package.preload, as the binding is, which is linked in.
IDRSH_LUA = $(sort $(wildcard lua/idrsh/*.lua))
LESSONS = $(sort $(wildcard examples/lessons/*.lesson))
READLINE_LIBS = $(shell pkg-config --libs readline 2>/dev/null || echo -lreadline)
LUA_LIBS = $(shell pkg-config --libs $(LUA_PC) 2>/dev/null || echo -llua5.4)

$(B)/idrsh_lua.h: lua/embed $(IDRSH_LUA) $(LESSONS)
	@mkdir -p $(@D)
	$(QUIET_GEN){ sh lua/embed -m shell $(IDRSH_LUA) && \
	  sh lua/embed lessons $(LESSONS); } > $@

$(B)/idrsh: $(IDRSH_SRC) $(IDRSH_HDR) $(LIDR) $(B)/idrsh_lua.h $(B)/libidr.a \
		$(B)/libidr-rcu.a $(LIB_HDR)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(LUA_CFLAGS) -Isrc -I$(B) \
		-o $@ $(IDRSH_SRC) $(LIDR_SRC) $(B)/libidr-rcu.a $(B)/libidr.a \
		$(LUA_LIBS) $(READLINE_LIBS) $(URCU_LIBS) $(LDFLAGS)

# The unit tests, in four builds: as shipped, with 3 bits per level so
# that deep trees appear with small IDs, with 4, and under ASan+UBSan.
$(B)/unit/unit: $(UNIT_SRC) $(UNIT_HDR) $(B)/libidr.a
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -Itests -o $@ $(UNIT_SRC) \
		$(B)/libidr.a -pthread

$(B)/unit-b3/unit: $(UNIT_SRC) $(UNIT_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DIDR_BITS=3 $(CFLAGS) -Isrc -Itests -o $@ \
		$(UNIT_SRC) $(LIB_SRC) -pthread

# 4 bits: n * IDR_BITS meets 64 exactly, as at 6 or 3 bits it never does.
$(B)/unit-b4/unit: $(UNIT_SRC) $(UNIT_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DIDR_BITS=4 $(CFLAGS) -Isrc -Itests -o $@ \
		$(UNIT_SRC) $(LIB_SRC) -pthread

$(B)/unit-asan/unit: $(UNIT_SRC) $(UNIT_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(SANITIZE) -Isrc -Itests -o $@ \
		$(UNIT_SRC) $(LIB_SRC) -pthread

# The threaded cases under ThreadSanitizer (clang's): any report fails.
$(B)/unit-tsan/unit: $(UNIT_SRC) $(UNIT_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) -std=c11 -O1 -g $(WARN) \
		-fsanitize=thread -Isrc -Itests -o $@ $(UNIT_SRC) $(LIB_SRC) \
		-pthread

$(B)/demo: examples/demo.c $(B)/libidr.a
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ $< $(B)/libidr.a

run: deps-build all
	./$(B)/idrsh

demo: $(B)/demo
	./$(B)/demo

# Pictures, made on demand (never committed): the quickstart's tree, and
# examples/grow-shrink.idrsh as a sequence, one picture after each alloc
# or remove, the cells it changed marked and the way to its ID in blue.
examples-svg: $(B)/idrsh
	./$(B)/idrsh -q -c 'source examples/quickstart.idrsh' \
		-c 'dot --svg $(B)/tree.svg' > /dev/null
	@echo "wrote $(B)/tree.svg"
	@mkdir -p $(B)/examples
	@awk -v dir='$(B)/examples' '{ print } \
		$$1 == "alloc" || $$1 == "remove" { \
			n++; at = $$1 == "remove" ? $$2 : $$3; \
			printf "dot %s--svg %s/grow-shrink-%d.svg\n", \
				at != "" ? "--at " at " " : "", dir, n }' \
		examples/grow-shrink.idrsh > $(B)/examples/grow-shrink-svg.idrsh
	./$(B)/idrsh $(B)/examples/grow-shrink-svg.idrsh > /dev/null
	@ls $(B)/examples/grow-shrink-*.svg | sed 's/^/wrote /'

# make test runs each suite through tests/run-suite (see tests/run-all),
# which prints one line for it, and its failures in full, and keeps its
# whole output in build/results/NAME.log; the last line adds them up:
# "N passed, N failed".  A suite is a name in SUITES or EXTRA_SUITES with
# its command, in shell syntax, in SUITE_NAME.  Fragments add suites of
# their own (EXTRA_SUITES += NAME), and what they need built to TEST_DEPS.
EXTRA_SUITES :=
TEST_DEPS :=
include bench/bench.mk fuzz/fuzz.mk tests/reliability.mk tests/header.mk \
	tests/mutate.mk tests/packaging.mk tests/deps.mk

UNIT_BUILDS := unit unit-b3 unit-b4 unit-asan unit-tsan
# Each bats file is a suite of its own, so that they run side by side.
BATS_SUITES := $(notdir $(wildcard tests/*.bats))
SUITES := $(UNIT_BUILDS) lua lua-in-idrsh $(BATS_SUITES)
SUITE_unit = ./$(B)/unit/unit
SUITE_unit-b3 = ./$(B)/unit-b3/unit
SUITE_unit-b4 = ./$(B)/unit-b4/unit
SUITE_unit-asan = ./$(B)/unit-asan/unit
SUITE_unit-tsan = env TSAN_OPTIONS='halt_on_error=1 exitcode=66' \
	./$(B)/unit-tsan/unit threads
SUITE_lua = env LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) tests/lua/run.lua
SUITE_lua-in-idrsh = env LUA_CPATH_5_4=';;' ./$(B)/idrsh tests/lua/run.lua
$(foreach f,$(BATS_SUITES),$(eval SUITE_$(f) = bats --tap tests/$(f)))

# The list tests/run-all reads: one "NAME COMMAND" a line, written with
# $(file) so that the commands' quotes reach the shell untouched.
define newline


endef
# The longest start first (tests/run-all starts them in this order), so
# that no core is left with a long one at the end.
LONG_SUITES := mutate.bats valgrind-unit hostile.bats lua.bats replay.bats \
	idrsh_interactive.bats unit-asan
ALL_SUITES = $(filter $(LONG_SUITES),$(SUITES) $(EXTRA_SUITES)) \
	$(filter-out $(LONG_SUITES),$(SUITES) $(EXTRA_SUITES))
SUITE_LIST = $(foreach s,$(ALL_SUITES),$(s) $(SUITE_$(s))$(newline))

test: deps-test all $(UNIT_BUILDS:%=$(B)/%/unit) $(TEST_DEPS)
	$(file >$(B)/suites,$(SUITE_LIST))
	@sh tests/run-all $(B)/results $(B)/suites

# One format, by tool: .clang-format (kernel style) over every C file.
# make format rewrites them; make format-check fails on any difference.
CLANG_FORMAT ?= clang-format-14
FORMAT_SRC = $(wildcard src/*.[ch] lua/*.[ch] tests/*.[ch] tests/unit/*.[ch] \
	tests/soak/*.c bench/*.[ch] fuzz/*.[ch] examples/*.c)

format:
	@sh .ci/deps clang-format-14
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

format-check:
	@sh .ci/deps clang-format-14
	$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC)

# make test checks the format file by file: one pass or failure each.
EXTRA_SUITES += format
SUITE_format = sh tests/format-check $(CLANG_FORMAT) $(FORMAT_SRC)

# Lua lint: luacheck over the Lua sources and the Lua tests, file by
# file (TAP: one pass or failure each); .luacheckrc names the globals.
LUACHECK ?= luacheck
EXTRA_SUITES += luacheck
SUITE_luacheck = $(LUACHECK) --formatter TAP lua tests/lua

# memcheck over the C, Lua and shell suites: no error, no definite leak.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite
valgrind: deps-test all $(B)/unit/unit
	$(VALGRIND) ./$(B)/unit/unit
	LUA_CPATH_5_4='$(B)/?.so;;' $(VALGRIND) $(LUA) tests/lua/run.lua
	$(VALGRIND) ./$(B)/idrsh tests/lua/run.lua
	$(VALGRIND) ./$(B)/idrsh examples/quickstart.idrsh > /dev/null
	$(VALGRIND) ./$(B)/idrsh examples/grow-shrink.idrsh > /dev/null
	$(VALGRIND) ./$(B)/idrsh examples/inside.idrsh > /dev/null

# make install: the library and its header, pkg-config file and static
# archive; idrsh and its bash completion; the Lua module; the man pages.
# Each install-* target installs one part; INSTALLED lists every file they
# make, so that make install prints exactly that and make uninstall
# removes exactly that (directories stay: they may have been there).
# Debian's lua5.4 looks for C modules in /usr/local/lib/lua/5.4, and
# bash-completion in ~/.local/share/bash-completion/completions (so
# PREFIX=~/.local needs nothing more), /usr/local/share/... and
# /usr/share/..., or $XDG_DATA_DIRS/bash-completion/completions.
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
MAN1_PAGES = $(wildcard man/*.1)
MAN3_PAGES = $(wildcard man/*.3 man/*.3lua)

INSTALLED_LIB = $(INCLUDEDIR)/idr.h $(INCLUDEDIR)/idr_view.h \
	$(LIBDIR)/libidr.a $(LIBDIR)/libidr.so.$(VERSION) \
	$(LIBDIR)/libidr.so.$(SOVERSION) $(LIBDIR)/libidr.so \
	$(PKGCONFIGDIR)/idr.pc $(PKGCONFIGDIR)/libidr.pc \
	$(INCLUDEDIR)/idr_rcu.h $(LIBDIR)/libidr-rcu.a \
	$(LIBDIR)/libidr-rcu.so.$(VERSION) \
	$(LIBDIR)/libidr-rcu.so.$(RCU_SOVERSION) $(LIBDIR)/libidr-rcu.so \
	$(PKGCONFIGDIR)/idr-rcu.pc
INSTALLED_BIN = $(BINDIR)/idrsh
INSTALLED_COMPLETION = $(COMPLETIONDIR)/idrsh
INSTALLED_LUA = $(LUA_CMODDIR)/idr.so
INSTALLED_MAN = $(MAN1_PAGES:man/%=$(MANDIR)/man1/%) \
	$(MAN3_PAGES:man/%=$(MANDIR)/man3/%) \
	$(MAN3_LINKS:%=$(MANDIR)/man3/%.3)
INSTALLED = $(INSTALLED_LIB) $(INSTALLED_BIN) $(INSTALLED_COMPLETION) \
	$(INSTALLED_LUA) $(INSTALLED_MAN)

.PHONY: install-lib install-bin install-completion

# Where the dynamic linker looks without being told (Debian's defaults);
# a library anywhere else needs -rpath or LD_LIBRARY_PATH (doc/c.md).
LOADER_DIRS := /lib /usr/lib /lib/$(shell $(CC) -print-multiarch 2>/dev/null) \
	/usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null) /usr/local/lib

install: install-lib install-bin install-completion install-lua install-man
	@echo 'idr $(VERSION) installed in $(DESTDIR)$(PREFIX):'
	@printf '  %s\n' $(foreach f,$(filter-out $(INSTALLED_MAN),$(INSTALLED)),$(DESTDIR)$(f))
	@echo '  $(DESTDIR)$(MANDIR): idrsh(1), idr(3), idr(3lua) and $(words $(MAN3_LINKS)) links to idr(3)'
	@$(if $(filter $(LIBDIR),$(LOADER_DIRS)),$(if $(DESTDIR),:,echo \
		'idr: run ldconfig (as root) so that programs find libidr.so.$(SOVERSION)'), \
		echo 'idr: $(LIBDIR) is not where the dynamic linker looks:'; \
		echo 'idr: link with -Wl,-rpath,$(LIBDIR), set LD_LIBRARY_PATH, or link'; \
		echo 'idr: statically with pkg-config --static (doc/c.md: "Building a program")')

# The .pc files name their directories from ${prefix} where they are
# under it, so that pkgconf --define-prefix can move an install.
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
PC_LIBDIR = $(call pc_dir,$(LIBDIR))
PC_INCLUDEDIR = $(call pc_dir,$(INCLUDEDIR))

install-lib: $(B)/libidr.a $(B)/libidr.so $(B)/libidr-rcu.a $(B)/libidr-rcu.so
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 src/idr.h $(DESTDIR)$(INCLUDEDIR)/idr.h
	install -m 644 src/idr_view.h $(DESTDIR)$(INCLUDEDIR)/idr_view.h
	install -m 644 $(B)/libidr.a $(DESTDIR)$(LIBDIR)/libidr.a
	install -m 755 $(B)/libidr.so \
		$(DESTDIR)$(LIBDIR)/libidr.so.$(VERSION)
	ln -sf libidr.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libidr.so.$(SOVERSION)
	ln -sf libidr.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libidr.so
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(PC_LIBDIR)' \
		'includedir=$(PC_INCLUDEDIR)' '' 'Name: idr' \
		'Description: the Linux kernel integer ID allocator' \
		'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -lidr' > $(DESTDIR)$(PKGCONFIGDIR)/idr.pc
	ln -sf idr.pc $(DESTDIR)$(PKGCONFIGDIR)/libidr.pc
	install -m 644 src/idr_rcu.h $(DESTDIR)$(INCLUDEDIR)/idr_rcu.h
	install -m 644 $(B)/libidr-rcu.a $(DESTDIR)$(LIBDIR)/libidr-rcu.a
	install -m 755 $(B)/libidr-rcu.so \
		$(DESTDIR)$(LIBDIR)/libidr-rcu.so.$(VERSION)
	ln -sf libidr-rcu.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/libidr-rcu.so.$(RCU_SOVERSION)
	ln -sf libidr-rcu.so.$(RCU_SOVERSION) $(DESTDIR)$(LIBDIR)/libidr-rcu.so
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(PC_LIBDIR)' \
		'includedir=$(PC_INCLUDEDIR)' '' 'Name: idr-rcu' \
		'Description: idrs whose readers take no lock, under liburcu' \
		'Version: $(VERSION)' 'Requires: idr liburcu' \
		'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lidr-rcu' \
		> $(DESTDIR)$(PKGCONFIGDIR)/idr-rcu.pc

install-bin: $(B)/idrsh
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(B)/idrsh $(DESTDIR)$(BINDIR)/idrsh

install-completion:
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 644 completion/idrsh.bash $(DESTDIR)$(COMPLETIONDIR)/idrsh

install-man:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	for p in $(MAN1_PAGES); do install -m 644 $$p $(DESTDIR)$(MANDIR)/man1; done
	for p in $(MAN3_PAGES); do install -m 644 $$p $(DESTDIR)$(MANDIR)/man3; done
	for n in $(MAN3_LINKS); do \
		echo '.so man3/idr.3' > $(DESTDIR)$(MANDIR)/man3/$$n.3; \
	done

install-lua: $(B)/idr.so
	install -d $(DESTDIR)$(LUA_CMODDIR)
	install -m 755 $(B)/idr.so $(DESTDIR)$(LUA_CMODDIR)/idr.so

uninstall:
	rm -f $(foreach f,$(INSTALLED),$(DESTDIR)$(f))
	@echo 'idr $(VERSION) removed from $(DESTDIR)$(PREFIX): $(words $(INSTALLED)) files'

clean:
	rm -rf $(B)
