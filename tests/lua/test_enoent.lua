-- find, remove, replace and unalloc of a free ID: nil, "no such id N",
-- "ENOENT", with the failed call's events delivered (op first, done
-- last, its errno) before it returns (lapi.c's no_such_id).
local idr = require "idr"

local t = idr.new()
assert(t:alloc("a") == 0)
local calls = {
	find = function() return t:find(7) end,
	remove = function() return t:remove(7) end,
	replace = function() return t:replace(7, "x") end,
}
for op, call in pairs(calls) do
	local v, msg, code
	local evs = t:events(function() v, msg, code = call() end)
	assert(v == nil and msg == "no such id 7" and code == "ENOENT", op)
	assert(evs[1].event == "op" and evs[1].op == op, op)
	assert(evs[#evs].event == "done" and evs[#evs].errno == "ENOENT", op)
end
local v, msg, code = t:unalloc(7)
assert(v == nil and msg == "no such id 7" and code == "ENOENT")
assert(t:unalloc(0) == "a" and t:count() == 0)
t:destroy()
