# tests/mutate.mk - mutation testing (included by the Makefile).
#
#   make mutate [MUTANTS=100] [SEED=1]
#                   small changes to src/*.c, one at a time, against the C
#                   unit suite: the score and every survivor (tests/mutate);
#                   survivors again in the sanitizer build (SANITIZE= skips)
#                   equivalent mutants, left out, are named in
#                   tests/mutate.equivalent

MUTANTS ?= 100
SEED ?= 1

mutate: deps-build
	CC='$(CC)' CFLAGS='$(CPPFLAGS) $(CFLAGS)' SANITIZE='$(SANITIZE)' sh tests/mutate $(MUTANTS) $(SEED)

.PHONY: mutate
