-- The Lua 5.4 module "idr", for LuaRocks.  From the top of the source tree:
--
--   luarocks --lua-version=5.4 make rockspecs/idr-0.1.0-1.rockspec
--
-- builds the binding and the library together into one idr.so with
-- LuaRocks's own compiler settings: no readline, no Makefile, nothing of
-- the project but the sources listed here.  The project has no public
-- address yet, so "source" names a placeholder: luarocks make and a
-- binary rock (luarocks make --pack-binary-rock) do not use it.
rockspec_format = "3.0"
package = "idr"
version = "0.1.0-1"
source = {
	url = "git+https://a-seed-4176a70c.example/idr.git",
	tag = "v0.1.0",
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
dependencies = {
	"lua >= 5.4, < 5.5",
}
build = {
	type = "builtin",
	modules = {
		idr = {
			sources = {
				"lua/lidr.c",
				"src/nodes.c", "src/tree.c", "src/idr.c",
				"src/legacy.c", "src/tag.c", "src/ida.c",
				"src/view.c", "src/dump.c", "src/alloc.c",
			},
			incdirs = { "src" },
			defines = { "_POSIX_C_SOURCE=200809L" },
		},
	},
}
