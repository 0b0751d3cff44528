-- luacheck's settings (make test runs luacheck lua tests/lua): the
-- globals, and nothing else.
std = "lua54"
-- tests/lua/oom.lua runs in tests/lua.bats's small C host, which gives
-- it budget(n): fail the allocations after the next n.
files["tests/lua/oom.lua"] = { read_globals = { "budget" } }
