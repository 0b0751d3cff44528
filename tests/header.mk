# tests/header.mk - the public header in other hands (included by the
# Makefile): a C++17 program includes idr.h and idr_view.h and uses their
# macros, and a C
# program with kernel names of its own includes it with
# IDR_NO_KERNEL_NAMES.  Both build with -Werror and run in make test.

CXX ?= g++

$(B)/header/cxx: tests/cxx/header.cc src/idr.h src/idr_view.h $(B)/libidr.a
	@mkdir -p $(@D)
	$(QUIET_CC)$(CXX) -std=c++17 -pedantic -Wall -Wextra -Wshadow -Werror \
		-Isrc -o $@ $< \
		$(B)/libidr.a

$(B)/header/names: tests/cxx/names.c src/idr.h $(B)/libidr.a
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ $< $(B)/libidr.a

EXTRA_SUITES += header-cxx header-names
SUITE_header-cxx = ./$(B)/header/cxx
SUITE_header-names = ./$(B)/header/names
TEST_DEPS += $(B)/header/cxx $(B)/header/names
