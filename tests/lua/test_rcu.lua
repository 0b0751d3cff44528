-- idr.new{ rcu = true }: an RCU idr (idr_init_rcu), its pending frees in
-- t:stats(), and idr.rcu_barrier(), which runs them.
local idr = require "idr"

local t <close> = idr.new { rcu = true }
assert(t:info().rcu == true)
assert(idr.new():info().rcu == nil)
-- idr.new(t:info()) makes another RCU idr.
assert(idr.new(t:info()):info().rcu == true)

local st = t:stats()
assert(st.rcu_pending == 0 and st.rcu_pending_bytes == 0)
assert(math.type(st.rcu_pending) == "integer")

-- Two leaves under a top node; removing the far ID frees its leaf and
-- the top, after a grace period.  liburcu's thread may free them before
-- stats looks (it waits some milliseconds first): so pending may be 0
-- here, but never more than after the removal, and 0 after the barrier.
assert(t:alloc("a", 0) == 0)
assert(t:alloc("b", 5000) == 5000)
idr.rcu_barrier()
assert(t:remove(5000) == "b")
st = t:stats()
assert(st.rcu_pending >= 0)
assert((st.rcu_pending == 0) == (st.rcu_pending_bytes == 0))
idr.rcu_barrier()
st = t:stats()
assert(st.rcu_pending == 0 and st.rcu_pending_bytes == 0)
assert(t:find(0) == "a" and t:find(5000) == nil and t:validate())

-- A tagged RCU idr: idr_tag_init() after idr_init_rcu().
local g = idr.new { rcu = true, tagged = true }
assert(g:info().rcu and g:info().tagged)
local tid = g:alloc_tagged("x")
assert(g:find_tagged(tid) == "x")
g:destroy()
g:destroy() -- idempotent
assert(g:info().destroyed)

-- Many RCU idrs collected at once: each destroy waits for its frees.
for _ = 1, 20 do
	local u = idr.new { rcu = true }
	for i = 0, 200, 7 do u:alloc(i, i) end
	for i = 0, 200, 7 do u:remove(i) end
end
collectgarbage("collect")

-- Bad values say what is wrong.
local ok, err = pcall(idr.new, { rcu = 1 })
assert(not ok and err:find("rcu must be true or false", 1, true), err)
ok, err = pcall(idr.new, { rcu = "yes" })
assert(not ok and err:find("rcu must be true or false", 1, true), err)
-- An RCU idr from a base (idr_init_rcu_base()): its IDs start there, and
-- what it lets go of still waits for readers.
local b = idr.new { rcu = true, base = 1 }
assert(b:info().rcu and b:info().base == 1)
assert(b:alloc("first") == 1)
for i = 1, 300 do b:alloc(i, i * 7919) end
for i = 1, 300, 2 do b:remove(i * 7919) end
assert(b:validate() and #b == 151)
-- rcu = false is a plain idr, and may take a base.
local p = idr.new { rcu = false, base = 3 }
assert(p:info().rcu == nil and p:info().base == 3)
assert(p:stats().rcu_pending == 0)
-- The base keeps the idr an RCU one.  Pending frees cannot show it:
-- liburcu's thread may have run them before anyone looks (under valgrind
-- it did).  A removal from a keyed block can: an RCU idr copies the
-- block, for readers may be in it, and with no memory for the copy it
-- fails, where a plain idr takes the key out in place.  (A packed leaf
-- would not do: its copy falls back on the idr's cache, which liburcu's
-- thread fills with the whole nodes the idr freed, when it likes.)
for _, rcu in ipairs { true, false } do
	local t0 = idr.new { rcu = rcu, base = 1 }
	t0:alloc_u32("w", 5000, 5000)
	t0:alloc_u32("w", 5001, 5001)
	idr.fault(0, 5)
	local got = t0:remove(5001)
	idr.fault(0, 0)
	assert((got == nil) == rcu, "an RCU idr from a base copies")
	t0:destroy()
end
-- The barrier with no RCU idr at all.
idr.rcu_barrier()

-- A removal an RCU idr has no memory for (the copy of a keyed block)
-- changes nothing: the ID keeps its value, and the error says ENOMEM,
-- not ENOENT; unalloc the same.  Once memory comes back, both work.
-- Traced, it tells no key leaving.
for _, how in ipairs { "remove", "unalloc" } do
	local r = idr.new { rcu = true }
	r:alloc_u32("v1", 5000, 5000)
	r:alloc_u32("v2", 5002, 5002)
	local before = r:dump { full = true }
	idr.fault(0, 5)
	local says, none, why, errno = r:step_text(r[how], r, 5002)
	idr.fault(0, 0)
	assert(not says:find("leaves the keyed block", 1, true), says)
	assert(none == nil and why == "not enough memory" and errno == "ENOMEM",
		how .. ": " .. tostring(why))
	assert(r:find(5002) == "v2" and #r == 2 and r:validate())
	assert(r:dump { full = true } == before, how .. " changed the tree")
	assert(r[how](r, 5002) == "v2" and r:find(5002) == nil and #r == 1)
	idr.rcu_barrier()
end
