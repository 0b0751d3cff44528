-- The Lua 5.4 module "idr", for LuaRocks.  From the top of the source tree:
--
--   luarocks --lua-version=5.4 make --deps-mode=none rockspecs/idr-0.2.0-1.rockspec
--
-- (--deps-mode=none: Debian's lua-dkjson answers the one dependency, but
-- LuaRocks does not count it and, offline, would stop; doc/install.md.)
-- builds the binding and the library together into one idr.so against
-- the system's Lua 5.4 headers: no readline, no idrsh, no pkg-config;
-- libidr-rcu too, which needs liburcu.  The project has no public
-- address yet, so "source" names a placeholder: luarocks make and a
-- binary rock (luarocks make --pack-binary-rock) do not use it.
rockspec_format = "3.0"
package = "idr"
version = "0.2.0-1"
source = {
	url = "git+https://a-seed-4176a70c.example/idr.git",
	tag = "v0.2.0",
}
description = {
	summary = "The Linux kernel's integer ID allocator (idr, ida), in Lua",
	detailed = [[
A sparse array that maps small non-negative integers to values, whose main
operation is "give me the lowest free ID": the kernel's radix tree of
64-slot nodes with a bitmap of full slots per node, its API (alloc, find,
remove, ...), the 2004 API with its EAGAIN protocol, the IDA, tagged IDs,
and views of the tree at work (dumps, paths, traces).]],
	license = "MIT",
	labels = { "data-structures", "allocator", "kernel", "teaching" },
}
-- dkjson: idr.json (idrsh --json, the replay page), loaded on first use.
dependencies = {
	"lua >= 5.4, < 5.5",
	"dkjson >= 2.5",
}
-- idr.new{ rcu = true } is liburcu's (Debian: liburcu-dev), linked shared.
external_dependencies = {
	URCU = { library = "urcu" },
}
-- The "make" type, with the project's own rule for build/idr.so: the same
-- module as make builds (only luaopen_idr exported), with LuaRocks's
-- compiler flags instead of the project's -Werror set.  (The "builtin"
-- type would also install everything in lua/ as Lua modules.)
build = {
	type = "make",
	build_target = "lua-module",
	build_variables = {
		CC = "$(CC)",
		CFLAGS = "$(CFLAGS)",
		LUA_CFLAGS = "-I$(LUA_INCDIR)",
		URCU_LIBS = "-L$(URCU_LIBDIR) -lurcu",
	},
	install_target = "install-lua",
	install_variables = {
		LUA_CMODDIR = "$(LIBDIR)",
	},
}
