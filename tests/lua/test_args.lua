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
