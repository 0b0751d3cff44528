-- t:info(): what a tree is, in the shape idr.new takes back.
local idr = require "idr"

local function same(a, b)
	if type(a) ~= "table" or type(b) ~= "table" then return a == b end
	for k, v in pairs(a) do if not same(v, b[k]) then return false end end
	for k in pairs(b) do if a[k] == nil then return false end end
	return true
end

assert(same(idr.new():info(),
	{ kind = "idr", base = 0, destroyed = false }))
assert(same(idr.new { base = 7 }:info(),
	{ kind = "idr", base = 7, destroyed = false }))
assert(same(idr.new { tagged = true }:info(), { kind = "idr", base = 0,
	tagged = { id_bits = 16, gen_bits = 15, retire = false },
	destroyed = false }))
local t = idr.new { base = 3, tagged = { id_bits = 30, retire = true } }
local info = t:info()
assert(same(info, { kind = "idr", base = 3,
	tagged = { id_bits = 30, gen_bits = 1, retire = true },
	destroyed = false }))
assert(math.type(info.base) == "integer")
assert(math.type(info.tagged.id_bits) == "integer")
assert(math.type(info.tagged.gen_bits) == "integer")
-- A new table each time, and nothing changes the tree.
assert(t:info() ~= info and #t == 0 and t:validate())

-- idr.new(t:info()) makes an empty tree of the same kind options.
t:alloc_tagged("x")
local u = idr.new(t:info())
assert(same(u:info(), t:info()) and u:is_empty())
assert(u:alloc_tagged("y") == 3)

-- A destroyed tree still says what it was.
t:destroy()
info = t:info()
assert(info.destroyed == true and info.base == 3 and info.tagged.retire)
local v = idr.new(info)
assert(same(v:info(), u:info()) and v:info().destroyed == false)

-- The IDA: base 0, never tagged.
local a = idr.ida()
assert(same(a:info(), { kind = "ida", base = 0, destroyed = false }))
a:alloc()
a:destroy()
assert(same(a:info(), { kind = "ida", base = 0, destroyed = true }))

-- idr.new takes kind and destroyed (and ignores them); typos still fail.
assert(idr.new { kind = "idr", destroyed = true }:info().destroyed == false)
local ok, err = pcall(idr.new, { kind = "idr", destroyd = false })
assert(not ok and err:find("unknown option 'destroyd'", 1, true), err)
ok, err = pcall(idr.new, { knd = "idr" })
assert(not ok and err:find("unknown option 'knd'", 1, true), err)

-- A wrong self raises as other methods do.
ok, err = pcall(idr.new().info, {})
assert(not ok and err:find("idr expected, got table", 1, true), err)
ok, err = pcall(idr.ida().info, idr.new())
assert(not ok and err:find("ida expected, got idr", 1, true), err)
