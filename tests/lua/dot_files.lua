-- dot_files.lua DIR - write each DOT picture of dot_cases.lua to
-- DIR/NAME.dot, for tests/views.bats to render with Graphviz.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 tests/lua/dot_files.lua DIR
local dir = assert(arg[1], "usage: dot_files.lua DIR")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local C = require "dot_cases"

for _, case in ipairs(C.files) do
	local t, opts = case[2]()
	local f = assert(io.open(dir .. "/" .. case[1] .. ".dot", "w"))
	f:write(t:dot(opts))
	f:close()
	t:destroy()
end
