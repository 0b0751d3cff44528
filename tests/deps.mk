# tests/deps.mk - make test installs what its tests call (included by the
# Makefile): tests/deps-check traces each command of the recipes make
# test runs (make -nB, variables expanded) and of the tests' shell to its
# Debian package, and fails on one the install lists leave out.

DEPS_ALL = $(DEPS_TEST) $(DEPS_PACKAGING)
DEPS_SHELL = $(wildcard tests/*.bats tests/*.bash .ci/run .ci/deps) \
	tests/run-all tests/run-suite tests/summary tests/format-check \
	tests/man3-links tests/mutate fuzz/run fuzz/replay bench/instr.sh \
	bench/replay-load lua/embed $(B)/suites

# What make test builds, but not this file's own output.
TEST_BUILD = all $(UNIT_BUILDS:%=$(B)/%/unit) \
	$(filter-out $(B)/recipes,$(TEST_DEPS))

$(B)/recipes: Makefile $(wildcard tests/*.mk bench/*.mk fuzz/*.mk)
	@mkdir -p $(@D)
	$(QUIET_GEN)$(MAKE) -nB --no-print-directory $(TEST_BUILD) > $@

EXTRA_SUITES += deps
SUITE_deps = sh tests/deps-check '$(DEPS_ALL)' $(B)/recipes $(DEPS_SHELL)
TEST_DEPS += $(B)/recipes

# make deps-list: every package make test may install, one line.
.PHONY: deps-list
deps-list:
	@echo $(DEPS_ALL)
