-- Arguments the outside tester found taken without a word, or blamed on
-- the wrong number: each raises now, naming the argument it is about.
local idr = require "idr"

-- f must raise an error whose message contains @text (plainly).  Call
-- the method as t:m(...) inside f: so the message counts from after t.
local function raises(text, f)
	local ok, err = pcall(f)
	assert(not ok, "no error; expected: " .. text)
	err = tostring(err)
	assert(err:find(text, 1, true), "got: " .. err .. "; expected: " .. text)
end

-- keep_events takes a boolean, and has no default.
for _, t in ipairs { idr.new(), idr.ida() } do
	raises("bad argument #1 to 'keep_events' (boolean expected, got string)",
		function() return t:keep_events("yes") end)
	raises("bad argument #1 to 'keep_events' (boolean expected, got no value)",
		function() return t:keep_events() end)
	raises("bad argument #1 to 'keep_events' (boolean expected, got nil)",
		function() return t:keep_events(nil) end)
	t:keep_events(true)
	t:keep_events(false)
end

-- An IDA's pairs checks its options as an idr's does.  It takes the
-- idr's one, reserved, so that code for both kinds may pass it (as
-- test_diff.lua's copy does): an IDA has no reserved IDs to add.
local a = idr.ida()
a:alloc()
raises("bad argument #1 to 'pairs' (table expected, got number)",
	function() return a:pairs(5) end)
raises("bad argument #1 to 'pairs' (unknown option 'reserve')",
	function() return a:pairs { reserve = true } end)
raises("bad argument #1 to 'pairs' (unknown option '1')",
	function() return a:pairs { true } end)
raises("bad argument #1 to 'pairs' (reserved must be a boolean)",
	function() return a:pairs { reserved = 1 } end)
for _, opts in ipairs { {}, { reserved = true }, { reserved = false } } do
	local ids = {}
	for id in a:pairs(opts) do ids[#ids + 1] = id end
	assert(#ids == 1 and ids[1] == 0)
end

-- An options table's __index gives options, as Lua's own functions read
-- a table (lua_getfield); its raw keys are still checked.
local function with(opts) return setmetatable({}, { __index = opts }) end
local b = idr.new(with { base = 5 })
assert(b:info().base == 5 and b:alloc("v") == 5)
local tagged = idr.new(with { tagged = with { id_bits = 4, retire = true } })
local tag = tagged:info().tagged
assert(tag and tag.id_bits == 4 and tag.retire)
assert(idr.new(with { rcu = true }):info().rcu)
raises("bad argument #1 to 'new' (base must be an integer in [0, 2147483647])",
	function() return idr.new(with { base = -1 }) end)
raises("bad argument #1 to 'new' (rcu must be true or false)",
	function() return idr.new(with { rcu = 1 }) end)
raises("bad argument #1 to 'new' (unknown option 'bsae')",
	function() return idr.new(setmetatable({ bsae = 5 },
		{ __index = { base = 5 } })) end)
-- idr.new(t:info()) makes the same kind of idr.
assert(idr.new(with(b:info())):info().base == 5)

local r = idr.new()
r:alloc("a")
r:alloc(nil)
local ids = {}
for id in r:pairs(with { reserved = true }) do ids[#ids + 1] = id end
assert(#ids == 2 and ids[2] == 1, "pairs reads reserved through __index")
raises("bad argument #1 to 'pairs' (reserved must be a boolean)",
	function() return r:pairs(with { reserved = 1 }) end)

-- A tagged idr's find, remove, replace and unalloc ignore the bits above
-- the ID: a message names the ID they looked at, and the value given.
local tg = idr.new { tagged = { id_bits = 4 } }
local given = 15 | (3 << 4)
for _, op in ipairs { "find", "remove", "replace", "unalloc" } do
	local v, msg, errno = tg[op](tg, given)
	assert(v == nil and msg == "no such id 15 (tagged 63)" and
		errno == "ENOENT", op .. ": " .. tostring(msg))
	v, msg = tg[op](tg, 15)
	assert(v == nil and msg == "no such id 15", op .. ": " .. tostring(msg))
end

-- save's and load's errors name the argument that is wrong.
local s = idr.new()
local path = os.tmpname()
raises("bad argument #1 to 'save' (path must be a string)",
	function() return s:save(5) end)
raises("bad argument #2 to 'save' (bad tree name bad name: a letter",
	function() return s:save(path, "bad name") end)
raises("bad argument #2 to 'save' (bad tree name 5: a letter",
	function() return s:save(path, 5) end)
raises("bad argument #2 to 'save' (bad tree name",
	function() return s:save(path, 0 / 0) end)
raises("bad argument #1 to 'save' (path must be a string)",
	function() return idr.save(5, {}) end)
raises("bad argument #2 to 'save' (trees must be a table)",
	function() return idr.save(path, 5) end)
raises("bad argument #2 to 'save' (bad tree name 1: a letter",
	function() return idr.save(path, { s }) end)
raises("bad argument #2 to 'save' (idr or ida expected, got number)",
	function() return idr.save(path, { a = 5 }) end)
raises("bad argument #3 to 'save' (current names no tree of trees)",
	function() return idr.save(path, { a = s }, "b") end)
raises("bad argument #1 to 'load' (path must be a string)",
	function() return idr.load(5) end)
raises("bad argument #1 to 'load_text' (text must be a string)",
	function() return idr.load_text(5) end)
assert(s:save(path, "ok_name"))
assert(idr.load(path))
os.remove(path)

-- So do diff_text's: its options are argument #2.
local d = idr.new()
local snap = d:mark()
raises("bad argument #2 to 'diff_text' (table expected, got number)",
	function() return d:diff_text(snap, 5) end)
raises("bad argument #2 to 'diff_text' (unknown option 'bogus')",
	function() return d:diff_text(snap, { bogus = 1 }) end)
raises("bad argument #1 to 'diff_text' (a mark expected",
	function() return d:diff_text(5) end)

-- tagged.retire is a boolean: "no" or 1 turned retiring on.
for _, v in ipairs { "no", 1, {} } do
	local ok, err = pcall(idr.new, { tagged = { retire = v } })
	assert(not ok and err:find("tagged.retire must be true or false", 1,
		true), err)
end
assert(idr.new { tagged = { retire = false } }:info().tagged.retire == false)
