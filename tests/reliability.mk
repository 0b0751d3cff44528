# tests/reliability.mk - reliability suites (included by the Makefile).
#
#   make soak [SOAK_SECONDS=600] [SOAK_THREADS=8]
#                   threads sharing one idr, under ThreadSanitizer
#
# make test runs the soak for 3 seconds, and the C unit tests under
# valgrind memcheck.  tests/limits.bats and tests/hostile.bats run with the
# other bats files; hostile.bats also uses build/idrsh-asan, made here.

SOAK_SECONDS ?= 60
SOAK_THREADS ?= 4
SOAK_TSAN := env TSAN_OPTIONS='halt_on_error=1 exitcode=66'

# clang's ThreadSanitizer, with the library built in: a race fails the run.
$(B)/soak/soak: tests/soak/soak.c tests/seam.c tests/seam.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) -std=c11 -O1 -g $(WARN) -fsanitize=thread -Isrc \
		-Itests -o $@ tests/soak/soak.c tests/seam.c $(LIB_SRC) -pthread

soak: $(B)/soak/soak
	$(SOAK_TSAN) ./$(B)/soak/soak $(SOAK_THREADS) $(SOAK_SECONDS)

# idrsh under ASan+UBSan, for tests/hostile.bats (which skips without it).
$(B)/idrsh-asan: $(IDRSH_SRC) $(IDRSH_HDR) $(LIDR) $(B)/idrsh_lua.h $(LIB_SRC) \
		$(LIB_HDR)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(SANITIZE) $(LUA_CFLAGS) -Isrc -I$(B) \
		-o $@ $(IDRSH_SRC) lua/lidr.c $(LIB_SRC) $(LUA_LIBS) \
		$(READLINE_LIBS) $(LDFLAGS)

EXTRA_SUITES += soak valgrind-unit
SUITE_soak = $(SOAK_TSAN) ./$(B)/soak/soak 4 3
# The unit tests under memcheck: an error or a definite leak fails.  Left
# out, as they took two thirds of memcheck's time (over 150 seconds here):
# the four 250,000-step model mixes (model_base*) and the hundreds of
# replays of test_fault.c's 2,000-step scenario (fault_each*, fault_from*;
# the IDA's and tags' fault drivers stay in).  They run in the three
# other builds, ASan and UBSan included; make valgrind runs every case.
SUITE_valgrind-unit = env UNIT_SKIP='model_base fault_each fault_from' \
	valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite ./$(B)/unit/unit
TEST_DEPS += $(B)/soak/soak $(B)/unit/unit $(B)/idrsh-asan

.PHONY: soak
