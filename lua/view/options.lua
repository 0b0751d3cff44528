-- options.lua - the options of t:dump{} and t:dot{}, checked: a value
-- of the wrong type or out of its range, an unknown key and two options
-- that exclude each other raise "bad argument #1 to 'dump' (...)", as
-- the binding's own arguments do.
local idr, idr_methods, ida_methods = ...

local O = {}

local LEVELS_MAX = 34		-- levels of the tallest tree at 3 bits a level
local ID_MAX = 0xffffffff	-- IDs end at UINT32_MAX
local INT_MAX = 0x7fffffff
local ENTRIES_MAX = idr.SLOTS	-- a leaf holds this many entries at most
local EVENTS_MAX = INT_MAX	-- changed: a longer list is no list of events

-- Raise "bad argument #N to 'NAME' (why)" (N: @arg, else 1), with no
-- position: the binding's methods say it so.
local function bad(name, why, arg)
	error(("bad argument #%d to '%s' (%s)"):format(arg or 1, name, why), 0)
end
O.bad = bad

-- The type of @v as an error message says it: a metatable's __name.
local function typename(v)
	local mt = getmetatable(v)
	return type(mt) == "table" and type(mt.__name) == "string" and
		mt.__name or type(v)
end

--- O.tree(name, t[, arg]): raise unless @t, in argument @arg (1),
-- is an idr or an IDA, alive.
function O.tree(name, t, arg)
	local mt = getmetatable(t)
	if type(mt) ~= "table" or (mt.__index ~= idr_methods and
			mt.__index ~= ida_methods) then
		bad(name, "idr or ida expected, got " .. typename(t), arg)
	end
	local info = t:info()
	if info.destroyed then
		error("attempt to use a destroyed " .. info.kind, 0)
	end
	return info
end

-- @v as an integer, converting as lua_tointegerx() does; nil if none.
local function integer(v)
	if type(v) == "string" then v = tonumber(v) end
	return type(v) == "number" and math.tointeger(v) or nil
end
O.integer = integer

--- O.id_arg(name, ...) -> id: the first of ..., an ID (0 to 2^32 - 1),
-- checked as the binding checks an integer argument.
function O.id_arg(name, ...)
	local v = ...
	if select("#", ...) == 0 then bad(name, "number expected, got no value") end
	local n = type(v) == "string" and tonumber(v) or v
	if type(n) ~= "number" then
		bad(name, "number expected, got " .. typename(v))
	end
	n = math.tointeger(n)
	if not n then bad(name, "number has no integer representation") end
	if n < 0 or n > ID_MAX then
		bad(name, ("%d out of range [0, %d]"):format(n, ID_MAX))
	end
	return n
end

-- Option @k: an integer in [@lo, @hi], or nil if absent.
local function int_opt(name, o, k, lo, hi)
	local v = o[k]
	if v == nil then return nil end
	local n = integer(v)
	if not n or n < lo or n > hi then
		bad(name, ("%s must be an integer in [%d, %d]"):format(k, lo, hi))
	end
	return n
end

local function bool_opt(name, o, k)
	local v = o[k]
	if v ~= nil and type(v) ~= "boolean" then
		bad(name, ("%s must be a boolean, not %s"):format(k, type(v)))
	end
	return v == true
end

-- range = { FIRST, LAST }: IDs, FIRST <= LAST.
local function range_opt(name, o)
	local r = o.range
	if r == nil then return nil end
	if type(r) ~= "table" or #r ~= 2 then
		bad(name, "range must be a table { FIRST, LAST }")
	end
	local v = {}
	for i = 1, 2 do
		v[i] = integer(r[i])
		if not v[i] or v[i] < 0 or v[i] > ID_MAX then
			bad(name, "range must hold two integers in [0, 4294967295]")
		end
	end
	if v[1] > v[2] then
		bad(name, "range { FIRST, LAST } must have FIRST <= LAST")
	end
	return v
end

-- A misspelt option would be ignored without a word: refuse it.
local function known(name, o, keys, arg)
	for k in next, o do
		if type(k) ~= "string" or not keys[k] then
			bad(name, ("unknown option '%s'"):format(tostring(k)), arg)
		end
	end
end

--- O.func(name, v): raise unless @v can be called.
function O.func(name, v)
	local mt = getmetatable(v)
	if type(v) ~= "function" and not (type(mt) == "table" and mt.__call) then
		bad(name, "function expected, got " .. typename(v))
	end
end

--- O.opts(name, o, keys[, arg]): raise unless @o, argument @arg (1),
-- is nil or a table whose keys are all in the set @keys.
function O.opts(name, o, keys, arg)
	if o == nil then return end
	if type(o) ~= "table" then
		bad(name, "table expected, got " .. typename(o), arg)
	end
	known(name, o, keys, arg)
end

local function set(list)
	local s = {}
	for _, k in ipairs(list) do s[k] = true end
	return s
end

O.DUMP = set { "at", "depth", "entries", "full", "max_entries",
	"max_lines", "max_nodes", "range", "write" }
O.DOT = set { "at", "changed", "entries", "full", "max_entries",
	"max_nodes" }

--- O.check(name, o, keys) -> options: the table @o given to method
-- @name, checked against the keys it takes: { entries, max_nodes,
-- depth, max_lines, full, at, range } (absent: nil, full: false).
function O.check(name, o, keys)
	if o == nil then return { full = false } end
	O.opts(name, o, keys)
	local c = {}
	local entries = int_opt(name, o, "entries", 1, ENTRIES_MAX)
	local old = int_opt(name, o, "max_entries", 1, ENTRIES_MAX)
	if entries and old then
		bad(name, "entries and max_entries: give one, not both")
	end
	c.entries = entries or old
	c.max_nodes = int_opt(name, o, "max_nodes", 1, INT_MAX)
	c.depth = int_opt(name, o, "depth", 1, LEVELS_MAX)
	-- Two lines at least: the header and the one saying how to see more.
	c.max_lines = int_opt(name, o, "max_lines", 2, INT_MAX)
	c.full = bool_opt(name, o, "full")
	c.at = int_opt(name, o, "at", 0, ID_MAX)
	c.range = range_opt(name, o)
	if c.at and c.range then bad(name, "at and range: give one, not both") end
	-- full draws every level, uncollapsed: depth would cut it silently.
	if c.full and c.depth then
		bad(name, "full and depth: give one, not both")
	end
	-- write: the text goes to write(chunk) as it is made, not returned.
	c.write = o.write
	local mt = getmetatable(c.write)
	if c.write ~= nil and type(c.write) ~= "function" and
		not (type(mt) == "table" and mt.__call) then
		bad(name, "write must be a function, not " .. typename(c.write))
	end
	return c
end

-- {======================= changed = events ========================

local EVENT = {}
for _, e in ipairs(idr.EVENTS) do EVENT[e] = true end

-- The largest first or last ID a node may have: a top node covers more
-- than 32 bits.
local FIELD_MAX = { level = LEVELS_MAX - 1, first = math.maxinteger,
	last = math.maxinteger, slot = INT_MAX }

local function event_field(name, i, e, k)
	local v = e[k]
	if v == nil then return 0 end
	v = integer(v)
	if not v or v < 0 or v > FIELD_MAX[k] then
		bad(name, ("changed[%d].%s must be an integer 0..%d"):format(i, k,
			FIELD_MAX[k]))
	end
	return v
end

-- Event @i of the list, as the library reports it.
local function event_of(name, i, e)
	if type(e) ~= "table" then
		bad(name, ("changed[%d] must be an event table (see " ..
			"t:events())"):format(i))
	end
	local ev = e.event
	if type(ev) ~= "string" or not EVENT[ev] then
		bad(name, ("changed[%d].event is not an event name"):format(i))
	end
	return { event = ev, level = event_field(name, i, e, "level"),
		first = event_field(name, i, e, "first"),
		last = event_field(name, i, e, "last"),
		slot = event_field(name, i, e, "slot") }
end

--- O.changed(name, o) -> events: options.changed, a list of events as
-- t:events() returns them, copied and checked; nil if absent.
function O.changed(name, o)
	local list = o and o.changed
	if list == nil then return nil end
	if type(list) ~= "table" then
		bad(name, "changed must be a list of events")
	end
	local n = #list
	if math.type(n) ~= "integer" or n < 0 or n > EVENTS_MAX then
		bad(name, ("changed has a length of %s"):format(tostring(n)))
	end
	local evs = {}
	for i = 1, n do evs[i] = event_of(name, i, list[i]) end
	return evs
end

-- The levels an unsigned long index needs: an event's height is at most
-- this, its level below it.  A larger one is no event of this library,
-- and would have explain spell out that many digits.
local HEIGHT_MAX = (64 + idr.BITS - 1) // idr.BITS

-- Events whose slot is a bit of an IDA bitmap, not a node's slot.
local BIT_EVENT = { ["bit-set"] = true, ["bit-clear"] = true }

-- An event's integer fields and their ranges (nil: any integer).
local EVENT_INTS = { height = { 0, HEIGHT_MAX }, level = { 0, HEIGHT_MAX - 1 },
	slot = {}, nodes = { 0, INT_MAX }, first = {}, last = {},
	full = {}, start = {}, ["end"] = {}, id = {}, result = {} }

local function check_event(name, i, e)
	if type(e) ~= "table" or type(e.event) ~= "string" or
			not EVENT[e.event] then
		bad(name, ("event %d is not an event table (see t:events())")
			:format(i))
	end
	for k, r in pairs(EVENT_INTS) do
		local v = e[k]
		local n = integer(v)
		if v ~= nil and (not n or (r[1] and (n < r[1] or n > r[2]))) then
			bad(name, ("event %d: %s must be an integer%s, not %s"):format(
				i, k, r[1] and (" in [%d, %d]"):format(r[1], r[2]) or "",
				tostring(v)))
		end
	end
	if e.op ~= nil and type(e.op) ~= "string" then
		bad(name, ("event %d: op must be a string"):format(i))
	end
	-- A node's slot, or a bit of an IDA bitmap.
	local top = BIT_EVENT[e.event] and idr.IDA_BITMAP_BITS or idr.SLOTS
	local slot = e.slot ~= nil and integer(e.slot)
	if slot and (slot < 0 or slot >= top) then
		bad(name, ("event %d: slot must be an integer in [0, %d], not %s")
			:format(i, top - 1, tostring(e.slot)))
	end
	if e.first ~= nil and e.last ~= nil and
			integer(e.first) > integer(e.last) then
		bad(name, ("event %d: first %s is above last %s"):format(i,
			tostring(e.first), tostring(e.last)))
	end
end

--- O.events(name, list, n): raise unless the first @n entries of @list
-- are events as t:events() gives them, their fields in range.
function O.events(name, list, n)
	for i = 1, n do check_event(name, i, list[i]) end
end

-- The fields the words of an event read, by kind (the rest: a node's).
local COUNTS = { "nodes" }
local NEEDS = { op = { "op" }, done = { "op", "result" }, malloc = COUNTS,
	["cache-take"] = COUNTS, ["preload-take"] = COUNTS }
local NODE = { "level", "first", "last", "slot" }

--- O.event(name, e, arg): raise unless @e, argument @arg, is an event
-- whose words can be told: checked as O.events() does, and holding
-- the fields its kind is told with.
local function check_needs(name, i, e)
	check_event(name, i, e)
	for _, k in ipairs(NEEDS[e.event] or NODE) do
		if e[k] == nil then
			bad(name, ("event %d (%s) has no %s"):format(i, e.event, k))
		end
	end
end

function O.event(name, e, arg)
	if type(e) ~= "table" then
		error(("bad argument #%d to '%s' (table expected, got %s)"):format(
			arg, name, typename(e)), 3)
	end
	check_needs(name, arg, e)
end

--- O.told(name, list, n): O.events(), and each event holding the fields
-- its kind is told with, as O.event() checks one.
function O.told(name, list, n)
	for i = 1, n do check_needs(name, i, list[i]) end
end

-- }================================================================

return O
