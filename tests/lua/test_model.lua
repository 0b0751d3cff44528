-- A randomized differential test: the binding against a plain Lua table
-- that is trivially right, with the tree checked after every step.  The
-- seeds are fixed; a failure names the seed and the step.
local idr = require "idr"

local INT_MAX = 2147483647
local RESERVED = {}     -- the model's mark for an ID reserved with nil

local function model_new(base)
	return { base = base, map = {}, n = 0, cursor = 0 }
end

local function lowest_free(m, start, last)
	local id = math.max(start, m.base)
	while id <= last do
		if m.map[id] == nil then return id end
		id = id + 1
	end
end

local function range_last(stop)
	return stop > 0 and stop - 1 or INT_MAX
end

local function model_alloc(m, v, start, stop)
	local id = lowest_free(m, start, range_last(stop))
	if id then
		m.map[id] = v == nil and RESERVED or v
		m.n = m.n + 1
	end
	return id
end

local function model_cyclic(m, v, start, stop)
	local from = m.cursor
	if from < start or from > INT_MAX then from = start end
	local id = lowest_free(m, from, range_last(stop))
	if not id and from > start then
		id = lowest_free(m, start, range_last(stop))
	end
	if id then
		m.map[id] = v == nil and RESERVED or v
		m.n = m.n + 1
		m.cursor = id + 1
	end
	return id
end

local function model_value(m, id)
	local v = m.map[id]
	if v == RESERVED then return nil end
	return v
end

local function model_next(m, id)
	local best
	for k, v in pairs(m.map) do
		if k >= id and v ~= RESERVED and (not best or k < best) then
			best = k
		end
	end
	return best
end

local function compare(t, m, where)
	assert(#t == m.n, where .. ": count " .. #t .. " ~= " .. m.n)
	local ok, msg = t:validate()
	assert(ok, where .. ": " .. tostring(msg))
	local seen = 0
	for id, v in t:pairs() do
		assert(m.map[id] == v, where .. ": value at " .. id)
		seen = seen + 1
	end
	for _, v in pairs(m.map) do
		if v ~= RESERVED then seen = seen - 1 end
	end
	assert(seen == 0, where .. ": pairs missed entries")
end

local function random_id(span)
	local r = math.random(100)
	if r <= 90 then return math.random(0, span) end
	if r <= 97 then return math.random(0, 70000) end
	return math.random(0, INT_MAX)
end

local function step(t, m, span)
	local op = math.random(100)
	local v = math.random(10) == 1 and nil or ("v" .. math.random(1000))
	if op <= 30 then
		local start = math.random(3) == 1 and random_id(span) or 0
		local stop = math.random(3) == 1
			and start + math.random(0, 50) or 0
		local got = t:alloc(v, start, stop)
		assert(got == model_alloc(m, v, start, stop),
			"alloc " .. start .. " " .. stop)
	elseif op <= 40 then
		local start = math.random(2) == 1 and random_id(span) or 0
		local stop = math.random(2) == 1
			and start + math.random(1, 100) or 0
		local got = t:alloc_cyclic(v, start, stop)
		assert(got == model_cyclic(m, v, start, stop), "cyclic")
		assert(t:get_cursor() == m.cursor, "cursor")
	elseif op <= 70 then
		local id = random_id(span)
		local had = m.map[id]
		local got, _, code = t:remove(id)
		if had == nil then
			assert(got == nil and code == "ENOENT", "remove absent")
		else
			assert(got == model_value(m, id), "remove " .. id)
			m.map[id] = nil
			m.n = m.n - 1
		end
	elseif op <= 80 then
		local id = random_id(span)
		local got, _, code = t:replace(id, v)
		if m.map[id] == nil then
			assert(got == nil and code == "ENOENT", "replace absent")
		else
			assert(got == model_value(m, id), "replace " .. id)
			m.map[id] = v == nil and RESERVED or v
		end
	elseif op <= 90 then
		local id = random_id(span)
		assert(t:find(id) == model_value(m, id), "find " .. id)
	elseif op <= 97 then
		local id = random_id(span)
		local nid, nv = t:get_next(id)
		local want = model_next(m, id)
		assert(nid == want and nv == (want and m.map[want]),
			"get_next " .. id)
	else
		-- A failing allocation changes nothing.
		idr.fault(0, 1)
		local got, _, code = t:alloc(v, random_id(INT_MAX))
		idr.fault(0, 0)
		if got ~= nil then
			model_alloc(m, v, got, got + 1)
		else
			assert(code == "ENOMEM" or code == "ENOSPC", code)
		end
	end
end

for _, seed in ipairs { 1, 42, 2024, 31337 } do
	math.randomseed(seed)
	local base = seed % 3 == 0 and 0 or math.random(0, 100)
	local t, m = idr.new { base = base }, model_new(base)
	local span = ({ 100, 1000, 5000 })[seed % 3 + 1]
	for i = 1, 1500 do
		local where = "seed " .. seed .. " step " .. i
		local ok, err = pcall(step, t, m, span)
		assert(ok, where .. ": " .. tostring(err))
		if i % 10 == 0 then compare(t, m, where) end
	end
	compare(t, m, "seed " .. seed .. " end")
	t:destroy()
end
