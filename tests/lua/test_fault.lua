-- Allocation failure through idr.fault(skip, count): every allocating
-- method returns nil, "not enough memory", "ENOMEM" and leaves the tree,
-- its values and the allocator's byte count exactly as they were.
local idr = require "idr"

local function snapshot(t)
	local s = { t:dump { max_entries = 64 }, tostring(#t) }
	for id, v in t:pairs() do s[#s + 1] = id .. "=" .. tostring(v) end
	return table.concat(s, "\n")
end

-- Call @f(t) with the @n-th allocation and all after it failing (0: the
-- first): a lone ID's packed blocks, then the whole nodes it falls back
-- on.  True if it failed as it should, false if it succeeded (it needed
-- fewer).
local function fails_at(t, n, f)
	-- Finalizers of other idrs would change the byte count meanwhile.
	collectgarbage("stop")
	local before, bytes = snapshot(t), idr.mem().bytes
	local failed = idr.mem().failed
	idr.fault(n, 1000)
	local id, msg, code = f(t)
	idr.fault(0, 0)
	assert(t:validate())
	local after = idr.mem()
	local now = id == nil and snapshot(t)
	collectgarbage("restart")
	if id ~= nil then
		return false
	end
	assert(msg == "not enough memory" and code == "ENOMEM", msg)
	assert(after.failed > failed)
	assert(now == before, "the tree changed")
	assert(after.bytes == bytes, "memory leaked or lost")
	return true
end

-- Fail each allocation in turn until @f needs no more; @f must then work.
local function every_failure(make, f)
	local n = 0
	while true do
		local t = make()
		if not fails_at(t, n, f) then
			return n
		end
		n = n + 1
	end
end

local function filled()
	local t = idr.new()
	t:alloc("a")
	t:alloc("b", 100)
	return t
end

-- A lone ID in a fresh tree of height 6: a packed top, a keyed block
-- and three packed levels between them, five blocks: each can fail.
assert(every_failure(idr.new, function(t)
	return t:alloc("deep", 1 << 30)
end) == 5)
-- From height 2: four levels on top, the block and three levels below.
assert(every_failure(filled, function(t)
	return t:alloc("deep", 1 << 30)
end) == 8)
assert(every_failure(filled, function(t)
	return t:alloc_cyclic("c", 5000)
end) == 2)
assert(every_failure(filled, function(t)
	return t:alloc_u32("u", 4294967295)
end) == 8)
-- One of those five failing alone: whole nodes take the ID instead, six
-- of them, as a preloaded insertion's would.
for n = 0, 4 do
	local t = idr.new()
	idr.fault(n, 1)
	assert(t:alloc("deep", 1 << 30) == 1 << 30)
	idr.fault(0, 0)
	local st = t:stats()
	assert(t:validate() and st.packed == 0 and st.nodes == 6, n)
	assert(idr.mem().failed > 0)
end
-- No node needed: fault injection is not even consulted.
assert(every_failure(filled, function(t) return t:alloc("c") end) == 0)

-- The cyclic cursor is unchanged by a failure.
local c = idr.new()
c:alloc_cyclic("a")
idr.fault(0, 1000)
assert(select(3, c:alloc_cyclic("b", 64)) == "ENOMEM")
idr.fault(0, 0)
assert(c:get_cursor() == 1)

-- Many failures in a row, then recovery.
local t = filled()
idr.fault(0, 1000)
for i = 1, 20 do
	local id, _, code = t:alloc(i, i * 4096)
	assert(id == nil and code == idr.ENOMEM)
end
idr.fault(0, 0)
assert(#t == 2 and t:validate())
assert(t:alloc("now", 4096) == 4096)

-- pre_get: false when memory failed; the nodes it got stay cached.
local p = idr.new()
idr.fault(0, 1)
assert(p:pre_get() == false)
idr.fault(2, 100)
assert(p:pre_get() == false)
idr.fault(0, 0)
assert(p:stats().cached == 2)
assert(p:pre_get() == true)
assert(p:validate() and p:is_empty())

-- get_new takes only cached nodes: fault injection cannot touch it, and
-- an empty cache says EAGAIN whatever the allocator does.
local g = idr.new()
idr.fault(0, 1000)
local id, msg, code = g:get_new("x")
assert(id == nil and code == "EAGAIN", msg)
assert(g:pre_get() == false)
idr.fault(0, 0)
assert(g:pre_get())
idr.fault(0, 1000)
assert(g:get_new("x") == 0)
idr.fault(0, 0)

-- Tagged: the generation node is one more allocation.
local function tagged()
	return idr.new { tagged = { id_bits = 12 } }
end
assert(every_failure(tagged, function(tt)
	return tt:alloc_tagged("t")
end) == 2)
local tt = tagged()
local tid = tt:alloc_tagged("t")
idr.fault(0, 1)
assert(select(3, tt:alloc_tagged("u", 2000)) == "ENOMEM")
idr.fault(0, 0)
assert(tt:check(tid) and tt:find_tagged(tid) == "t" and #tt == 1)

-- IDA: a new bitmap, and the tree above it.
local function ida_snapshot(a)
	local s = { a:dump(), tostring(#a) }
	for i in pairs(a) do s[#s + 1] = i end
	return table.concat(s, ",")
end
for _, target in ipairs { 0, 5000, 1 << 30 } do
	local n = 0
	repeat
		local a = idr.ida()
		a:alloc()
		collectgarbage("stop")
		local before, bytes = ida_snapshot(a), idr.mem().bytes
		idr.fault(n, 1)
		local got, m, e = a:alloc(target)
		idr.fault(0, 0)
		assert(a:validate())
		if got == nil then
			assert(m == "not enough memory" and e == "ENOMEM")
			assert(ida_snapshot(a) == before)
			assert(idr.mem().bytes == bytes)
		end
		collectgarbage("restart")
		n = n + 1
	until got ~= nil
	assert(n >= 1)
end

-- mem() counts.
collectgarbage("collect")
collectgarbage("stop")
local m0 = idr.mem()
for _, k in ipairs { "bytes", "allocs", "frees", "failed", "thread_allocs" } do
	assert(math.type(m0[k]) == "integer" and m0[k] >= 0, k)
end
local n0 = idr.new()
n0:alloc(1)
local m1 = idr.mem()
assert(m1.allocs == m0.allocs + 1 and m1.bytes > m0.bytes)
n0:destroy()
assert(idr.mem().frees == m1.frees + 1 and idr.mem().bytes == m0.bytes)
collectgarbage("restart")
-- idr.fault() with no arguments turns injection off.
idr.fault(0, 5)
idr.fault()
assert(idr.new():alloc(1) == 0)
