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
		$(RCU_SRC) $(LIB_HDR)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(SANITIZE) $(LUA_CFLAGS) -Isrc -I$(B) \
		-o $@ $(IDRSH_SRC) $(LIDR_SRC) $(LIB_SRC) $(RCU_SRC) $(LUA_LIBS) \
		$(READLINE_LIBS) $(URCU_LIBS) $(LDFLAGS)

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

# {==================== RCU idrs (issue 29) ====================
#
# tests/rcu/rcu.c: lock-free readers of an RCU idr beside its writers, in
# three builds: as shipped (liburcu); under ASan+UBSan with 3 bits a level
# (deep trees from small IDs) and the widened windows (readers pause
# between loading a pointer and using it; the library frees each node
# right after a grace period); and under ThreadSanitizer with the rwlock
# shim in liburcu's place.  make test runs each case RCU_SECONDS, make
# soak RCU_SOAK_SECONDS.
RCU_SECONDS ?= 0.2
RCU_SOAK_SECONDS ?= 20
RCU_TEST_SRC := tests/rcu/rcu.c
RCU_TEST_DEPS := $(RCU_TEST_SRC) $(LIB_SRC) $(RCU_SRC) $(LIB_HDR)

$(B)/rcu/rcu: $(RCU_TEST_DEPS)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DIDR_RCU_WINDOWS $(CFLAGS) -Isrc -o $@ \
		$(RCU_TEST_SRC) $(LIB_SRC) $(RCU_SRC) $(URCU_LIBS) -pthread

$(B)/rcu-asan/rcu: $(RCU_TEST_DEPS)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DIDR_BITS=3 -DIDR_RCU_WINDOWS $(CFLAGS) \
		$(SANITIZE) -Isrc -o $@ $(RCU_TEST_SRC) $(LIB_SRC) $(RCU_SRC) \
		$(URCU_LIBS) -pthread

$(B)/rcu-tsan/rcu: $(RCU_TEST_DEPS)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) -DIDR_RCU_SHIM -DIDR_RCU_WINDOWS -std=c11 \
		-O1 -g $(WARN) -fsanitize=thread -Isrc -o $@ $(RCU_TEST_SRC) \
		$(LIB_SRC) $(RCU_SRC) -pthread

RCU_BUILDS := rcu rcu-asan rcu-tsan
EXTRA_SUITES += $(RCU_BUILDS)
SUITE_rcu = env RCU_WIDEN=0 ./$(B)/rcu/rcu $(RCU_SECONDS)
SUITE_rcu-asan = ./$(B)/rcu-asan/rcu $(RCU_SECONDS)
SUITE_rcu-tsan = $(SOAK_TSAN) ./$(B)/rcu-tsan/rcu $(RCU_SECONDS)
TEST_DEPS += $(RCU_BUILDS:%=$(B)/%/rcu)

soak-rcu: $(RCU_BUILDS:%=$(B)/%/rcu)
	./$(B)/rcu/rcu $(RCU_SOAK_SECONDS)
	./$(B)/rcu-asan/rcu $(RCU_SOAK_SECONDS)
	$(SOAK_TSAN) ./$(B)/rcu-tsan/rcu $(RCU_SOAK_SECONDS)

soak: soak-rcu

.PHONY: soak-rcu

# }==================== RCU idrs ====================
