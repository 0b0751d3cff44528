-- oom.lua - run by tests/lua.bats inside a small C host whose allocator
-- fails after budget(n) more allocations, with idr in package.preload.
-- Storing a value into the user-value table can then raise a memory
-- error after the C ID was taken; the ID must go back (no orphans), and
-- every tree must stay sound.  Not a test_*.lua: lua5.4 has no budget().
package.cpath = ""
local idr = require "idr"
assert(rawget(_G, "idr") == nil and package.loaded.idr == idr)
local failures, rounds = 0, 0
local function round(n, setup, body, check)
	local t = idr.new()
	local st = setup(t)
	collectgarbage("collect")
	budget(n)
	local ok, err = pcall(body, t, st)
	budget(-1)
	if not ok then
		assert(tostring(err):find("not enough memory"), tostring(err))
		failures = failures + 1
	end
	rounds = rounds + 1
	assert(t:validate())
	check(t, st)
	t:destroy()
	return ok
end
-- alloc: the ID goes back when storing the value fails.
for n = 0, 60 do
	round(n, function() return { count = 0 } end, function(t, st)
		for i = 1, 40 do
			if t:alloc(i) then st.count = st.count + 1 end
		end
	end, function(t, st)
		assert(#t == st.count, #t .. " IDs, " .. st.count .. " stored")
		for id, v in pairs(t) do assert(v == id + 1) end
	end)
end
-- alloc_cyclic: the cursor goes back too.
for n = 0, 60 do
	round(n, function() return { count = 0, cursor = 0 } end, function(t, st)
		for i = 1, 40 do
			if t:alloc_cyclic(i) then
				st.count = st.count + 1
				st.cursor = t:get_cursor()
			end
		end
	end, function(t, st)
		assert(#t == st.count and t:get_cursor() == st.cursor)
	end)
end
-- replace: a reserved ID given a value keeps being reserved on failure.
for n = 0, 60 do
	round(n, function(t)
		for _ = 1, 40 do t:alloc(nil) end
		return { count = 0 }
	end, function(t, st)
		for i = 0, 39 do
			t:replace(i, i)
			st.count = st.count + 1
		end
	end, function(t, st)
		assert(#t == 40)
		local n_values = 0
		for id, v in pairs(t) do
			assert(v == id)
			n_values = n_values + 1
		end
		assert(n_values == st.count)
	end)
end
-- A traced idr: building the event tables fails after the store.
for n = 0, 60 do
	round(n, function(t)
		t:trace(function() end)
		return {}
	end, function(t)
		for i = 1, 20 do t:alloc(i, i * 64) end
	end, function(t)
		for id, v in pairs(t) do assert(v * 64 == id) end
	end)
end
-- get_new and alloc_tagged store values the same way.
for n = 0, 60 do
	round(n, function(t)
		assert(t:pre_get())
		return { count = 0 }
	end, function(t, st)
		for i = 1, 30 do
			if t:get_new(i) then st.count = st.count + 1 end
		end
	end, function(t, st)
		assert(#t == st.count)
		for id, v in pairs(t) do assert(v == id + 1) end
	end)
end
for n = 0, 60 do
	local g = idr.new { tagged = { id_bits = 12 } }
	local count = 0
	local function body()
		budget(n)
		for i = 1, 30 do
			if g:alloc_tagged(i) then count = count + 1 end
		end
	end
	collectgarbage("collect")
	pcall(body)
	budget(-1)
	assert(#g == count and g:validate())
	for id, v in pairs(g) do assert(v == id + 1) end
end
-- A failed store gives the fresh tagged ID back with its generation: with
-- 1 generation bit and retire, ID 0 is still handed out twice.
local burnt = 0
for n = 0, 60 do
	local r = idr.new { tagged = { id_bits = 30, retire = true } }
	local allocs = idr.mem().allocs
	collectgarbage("collect")
	budget(n)
	local ok = pcall(r.alloc_tagged, r, "v")
	budget(-1)
	if not ok and idr.mem().allocs > allocs then
		burnt = burnt + 1
		assert(r:is_empty() and r:validate())
		for i = 1, 2 do
			local tid = r:alloc_tagged(i)
			assert(tid and r:untag(tid) == 0, "ID 0 handed out once")
			assert(r:remove_tagged(tid) == i)
		end
		assert(r:untag(r:alloc_tagged("new")) == 1, "ID 0 not retired")
	end
	r:destroy()
end
assert(burnt > 0, "no store failed after the C allocation")
-- Dumps of many values under memory pressure: no leak of the text.
for n = 0, 30 do
	round(n, function(t)
		for i = 1, 300 do t:alloc(("x"):rep(i % 50)) end
		return {}
	end, function(t)
		for _ = 1, 3 do assert(#t:dump { max_entries = 64 } > 0) end
		assert(#t:dot() > 0)
		assert(t:stats().ids == 300 and t:path(5).value)
	end, function(t) assert(#t == 300) end)
end
-- mark and diff under memory pressure: the tree and the mark unchanged.
local function filled(kind)
	local t = kind == "idr" and idr.new() or idr.ida()
	for i = 0, 299 do
		if kind == "idr" then t:alloc("v" .. i % 7, i * 3) else t:alloc(i * 3) end
	end
	return t
end
local function thin(t, kind)
	for i = 0, 299, 2 do
		if kind == "idr" then t:remove(i * 3) else t:free(i * 3) end
	end
end
local views = {
	mark = function(t) return t:mark() end,
	diff = function(t, m) return t:diff(m) end,
	diff_text = function(t, m) return t:diff_text(m) end,
	diff_count = function(t, m) return t:diff_text(m, { max_lines = 0 }) end,
}
for _, kind in ipairs { "idr", "ida" } do
	for _, view in pairs(views) do
		for n = 0, 120, 3 do
			local t = filled(kind)
			local m = t:mark()
			thin(t, kind)
			local want = #t:diff(m)
			collectgarbage("collect")
			budget(n)
			local ok, err = pcall(view, t, m)
			budget(-1)
			rounds = rounds + 1
			if not ok then
				assert(tostring(err):find("not enough memory"), tostring(err))
				failures = failures + 1
			end
			assert(t:validate())
			assert(#t:diff(m) == want, kind .. ": the mark changed")
			t:destroy()
		end
	end
end
assert(failures > 100 and rounds > failures, failures .. "/" .. rounds)
print("ok " .. failures .. " failures in " .. rounds .. " rounds")
