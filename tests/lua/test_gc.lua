-- Garbage collection: values live in a user-value table, so an idr whose
-- values refer back to it is collected, and its C nodes freed by __gc.
local idr = require "idr"

local function full_gc()
	collectgarbage("collect")
	collectgarbage("collect")
end

full_gc()
local base = idr.mem().bytes
local lua_base = collectgarbage("count")

-- Many idrs, each holding values that point back at it.
for _ = 1, 200 do
	local t = idr.new()
	for i = 1, 100 do
		t:alloc({ owner = t, n = i }, i * 50)  -- sparse: several nodes
	end
	t:alloc(t)
	t:trace(function() return t end)    -- the trace function too
end
assert(idr.mem().bytes > base, "the loop allocated nodes")
full_gc()
assert(idr.mem().bytes == base, "nodes of collected idrs were freed")
assert(collectgarbage("count") < lua_base + 64, "the Lua side was collected")

-- A value kept alive only by the idr survives while the idr does.
local weak = setmetatable({}, { __mode = "v" })
local t = idr.new()
do
	local v = {}
	weak[1] = v
	t:alloc(v)
end
full_gc()
assert(weak[1] ~= nil and t:find(0) == weak[1])
-- Once removed (or replaced, or destroyed), the idr no longer holds it.
t:remove(0)
full_gc()
assert(weak[1] == nil)
do
	local v = {}
	weak[2] = v
	t:alloc(v)
	t:replace(0, "other")
end
full_gc()
assert(weak[2] == nil)
do
	local v = {}
	weak[3] = v
	t:alloc(v, 7)
end
t:destroy()
full_gc()
assert(weak[3] == nil, "destroy lets the values go")

-- IDAs are collected too.
for _ = 1, 50 do
	local a = idr.ida()
	for i = 0, 20000, 97 do a:alloc(i) end
end
full_gc()
assert(idr.mem().bytes == base)

-- The 2004 API's cache is freed with the idr.
for _ = 1, 20 do
	local c = idr.new()
	assert(c:pre_get())
end
full_gc()
assert(idr.mem().bytes == base)

-- __close: the idr is destroyed when its variable goes out of scope.
local kept
do
	local c <close> = idr.new()
	c:alloc("x", 1000)
	kept = c
	assert(idr.mem().bytes > base)
end
assert(tostring(kept) == "idr (destroyed)")
assert(idr.mem().bytes == base)

-- ... also when the scope is left by an error, or was destroyed already.
local ok = pcall(function()
	local c <close> = idr.new()
	kept = c
	c:alloc("x")
	error("leaving")
end)
assert(not ok and tostring(kept) == "idr (destroyed)")
do
	local c <close> = idr.new()
	c:destroy()
end
do
	local a <close> = idr.ida()
	a:alloc()
	kept = a
end
assert(tostring(kept) == "ida (destroyed)")
assert(idr.mem().bytes == base)

-- __gc on an idr destroyed by hand does nothing more.
do
	local c = idr.new()
	c:alloc("x")
	c:destroy()
end
full_gc()
assert(idr.mem().bytes == base)
