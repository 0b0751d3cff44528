# tests/reliability.mk - reliability suites (included by the Makefile).
#
#   make soak [SOAK_SECONDS=600] [SOAK_THREADS=8]
#                   threads sharing one idr, under ThreadSanitizer
#
# make test runs the soak for 3 seconds, and the C unit tests under
# valgrind memcheck.  The bats files (tests/limits.bats, tests/hostile.bats)
# run with the other bats suites.

SOAK_SECONDS ?= 60
SOAK_THREADS ?= 4
SOAK_TSAN := TSAN_OPTIONS='halt_on_error=1 exitcode=66'

# clang's ThreadSanitizer, with the library built in: a race fails the run.
$(B)/soak/soak: tests/soak/soak.c $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -std=c11 -O1 -g $(WARN) -fsanitize=thread -Isrc \
		-o $@ tests/soak/soak.c $(LIB_SRC) -pthread

soak: $(B)/soak/soak
	$(SOAK_TSAN) ./$(B)/soak/soak $(SOAK_THREADS) $(SOAK_SECONDS)

EXTRA_SUITES += soak valgrind-unit
SUITE_soak = $(SOAK_TSAN) ./$(B)/soak/soak 4 3
# The unit tests under memcheck: an error or a definite leak fails.  The
# four 250,000-step model mixes (model_base*) are left out: memcheck takes
# 70 of its 115 seconds on them, and they run in the three other builds,
# ASan+UBSan included.  make valgrind runs every case.
SUITE_valgrind-unit = env UNIT_SKIP=model_base valgrind -q \
	--error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	./$(B)/unit/unit
TEST_DEPS += $(B)/soak/soak $(B)/unit/unit

.PHONY: soak

# idrsh under ASan+UBSan, for tests/hostile.bats (skipped when absent).
$(B)/idrsh-asan: src/idrsh.c lua/lidr.c $(B)/idrsh_lua.h $(LIB_SRC) $(LIB_HDR)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SANITIZE) $(LUA_CFLAGS) -Isrc -I$(B) \
		-o $@ src/idrsh.c lua/lidr.c $(LIB_SRC) $(LUA_LIBS) \
		$(READLINE_LIBS) $(LDFLAGS)

TEST_DEPS += $(B)/idrsh-asan
