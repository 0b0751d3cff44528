-- words: one table turns every event kind into words, and trace, explain
-- and step all word events from it (issue 28).  Each kind in idr.EVENTS
-- goes through each view; a kind the table lacks fails here.
local idr = require "idr"

local W = idr.event_words

-- {================== One event of every kind ======================

local dir = arg and arg[0]:match("^(.*)/lua/[^/]*$") or "tests"
-- The same operations on the trees given: every kind the library
-- reports from Lua (preload-take needs C's idr_preload()).
local workout = dofile(dir .. "/lua/words_workout.lua")

local ida = idr.ida()
local t, g = idr.new(), idr.new { tagged = { id_bits = 16 } }
local evs, by = {}, {}
local function keep(ev)
	evs[#evs + 1] = ev
	by[ev.event] = by[ev.event] or ev
end
for _, x in ipairs { t, ida, g } do x:trace(keep) end
workout(t, ida, g)
for _, x in ipairs { t, ida, g } do x:trace(nil) end

-- preload-take: shaped as malloc and cache-take are.
by["preload-take"] = { event = "preload-take", nodes = 2, height = 1 }

for _, name in ipairs(idr.EVENTS) do
	assert(by[name], "no event of kind " .. name .. " reached the test")
end

-- }================================================================

-- {====================== The table is whole =======================

-- Every kind has a line, a sentence, a verb and a kernel step.
for _, name in ipairs(idr.EVENTS) do
	local w = W(by[name])
	assert(w.event == name)
	for _, k in ipairs { "verb", "line", "text", "kernel" } do
		assert(type(w[k]) == "string" and #w[k] > 0, name .. " has no " .. k)
	end
	assert(w.line:find("^" .. name:gsub("%-", "%%-")), w.line)
end
-- A kind missing from the table is an error, not a silent line.
assert(not pcall(W, { event = "nonesuch", height = 0 }))
assert(not pcall(W, "visit"))

-- The node as the dump names it; an operation's arguments, one wording.
local visit = by.visit
assert(W(visit).node == ("L%d %d..%d"):format(visit.level, visit.first,
	visit.last))
local ida_op = { event = "op", op = "ida_find_first_range", start = 5,
	["end"] = 10, id = 0, height = 1 }
assert(W(ida_op).line == "op ida_find_first_range min=5 max=10", W(ida_op).line)
assert(W(ida_op).text == "ida_find_first_range begins (min 5, max 10)",
	W(ida_op).text)
assert(W(ida_op).call == "ida_find_first_range(min 5, max 10)")
assert(t:explain({ ida_op }):find("^ida_find_first_range%(min 5, max 10%)"))
local alloc_op = { event = "op", op = "alloc", start = 64, ["end"] = 0,
	id = 0, height = 1 }
assert(W(alloc_op).line == "op alloc start=64 end=0")
assert(W(alloc_op).kernel:find("idr_get_free", 1, true))
assert(W(by.grow).kernel:find("^radix_tree_extend%(%)"))
assert(W(by.shrink).kernel:find("^radix_tree_shrink%(%)"))

-- }================================================================

-- {============ step and explain word each kind from it ============

local function has(text, part, what)
	assert(text:find(part, 1, true), ("%s lacks %q:\n%s"):format(what,
		part, text))
end

local function cap(s) return s:sub(1, 1):upper() .. s:sub(2) end

for _, name in ipairs(idr.EVENTS) do
	local ev, w = by[name], W(by[name])
	local step = idr.event_text(ev)
	has(step, name .. ": " .. w.text, "step of " .. name)
	has(step, "kernel: " .. w.kernel, "step of " .. name)
	local told = t:explain({ ev })
	if name == "op" or name == "done" then
		-- An operation is told by the call it is, what it asks and what
		-- it returns, and the kernel's calls from the same table.
		if name == "op" then has(told, w.call, "explain of op") end
		if name == "done" then
			has(told, "Kernel: " .. idr.event_words(
				{ event = "op", op = ev.op, height = 0 }).kernel
				:gsub(": called$", ""), "explain of done")
		end
	elseif name == "visit" or name == "no-room" then
		-- Explain says why the search took its slot; the node named so.
		has(told, "L" .. ev.level .. " " .. ev.first .. ".." .. ev.last,
			"explain of " .. name)
	else
		has(told, cap(w.text), "explain of " .. name)
		-- A full bit: the kernel's step, in the table's words, once.
		if name == "full" or name == "subtree-open" then
			has(told, "(Kernel: " .. w.kernel .. ".)", "explain of " .. name)
		end
	end
end

-- }================================================================

-- {==================== trace words them the same ==================

-- The shell's trace of the same operations, line for line.
local function shell_trace()
	local ops = os.tmpname()
	local f = assert(io.open(ops, "w"))
	f:write("new t\nnew a --ida\nnew g --tagged 16\ntrace on\n",
		"lua dofile('", dir, "/lua/words_workout.lua')(trees.t, trees.a, ",
		"trees.g)\n")
	f:close()
	local p = assert(io.popen(("%s/../build/idrsh --batch %s"):format(dir,
		ops)))
	local lines = {}
	for l in p:lines() do
		if l:find("^trace: ") then lines[#lines + 1] = l end
	end
	p:close()
	os.remove(ops)
	return lines
end

local lines = shell_trace()
assert(#lines == #evs, ("trace printed %d lines for %d events"):format(
	#lines, #evs))
for i, ev in ipairs(evs) do
	assert(lines[i] == "trace: " .. W(ev).line, lines[i])
end

-- }================================================================
