# fuzz/fuzz.mk - libFuzzer targets (included by the Makefile).
