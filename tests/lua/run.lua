-- run.lua - run every tests/lua/test_*.lua (or those named on the command
-- line) in this one Lua state, as Lua's own testes/all.lua does, so that
-- valgrind on this script sees them all.  Prints "ok NAME" or "not ok
-- NAME" and the error for each, then "N passed, N failed"; exits 1 if
-- any failed.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 tests/lua/run.lua [NAME...]

local dir = arg[0]:match("^(.*)/[^/]*$") or "."

local function list()
	local names = {}
	local p = assert(io.popen("ls '" .. dir .. "'"))
	for f in p:lines() do
		local name = f:match("^(test_[%w_]+)%.lua$")
		if name then names[#names + 1] = name end
	end
	p:close()
	table.sort(names)
	return names
end

-- Each script gets its own globals, and the allocator seam starts clean.
local function run(name)
	local env = setmetatable({}, { __index = _G })
	local chunk, err = loadfile(dir .. "/" .. name .. ".lua", "t", env)
	local ok = chunk ~= nil
	if ok then
		ok, err = xpcall(chunk, debug.traceback)
	end
	local idr = package.loaded.idr
	if idr then idr.fault(0, 0) end
	collectgarbage("collect")
	collectgarbage("collect")
	return ok, err
end

local names = #arg > 0 and { table.unpack(arg) } or list()
local passed, failed = 0, 0
for _, name in ipairs(names) do
	name = name:match("([^/]-)%.lua$") or name
	local ok, err = run(name)
	if ok then
		passed = passed + 1
		print("ok " .. name)
	else
		failed = failed + 1
		print("not ok " .. name)
		print("  " .. (tostring(err):gsub("\n", "\n  ")))
	end
end
print(string.format("%d passed, %d failed", passed, failed))
-- Closing the state runs every __gc: valgrind then sees no leak at all.
os.exit(failed == 0 and 0 or 1, true)
