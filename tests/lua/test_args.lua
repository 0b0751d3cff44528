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
