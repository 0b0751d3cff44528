# tests/reliability.mk - reliability suites (included by the Makefile).
