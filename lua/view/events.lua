-- events.lua - the one stream every view reads.
--
-- A view (explain, step, diff, the replay) is a reader of the events an
-- operation reports, as t:trace() delivers them: one table an event, in
-- order, after the operation is over.  t:events() collects them for
-- one piece of work, keeping whatever trace function was set.
local _, idr_methods, ida_methods, view = ...

local O = view "options"

-- Each collector events() set: the trace function it passes on to, and
-- whether its call is over.
local links = setmetatable({}, { __mode = "k" })

-- The trace function to set in place of @f: past the collectors whose
-- calls are over (two coroutines' calls can end in either order).
local function live(f)
	while links[f] and links[f].over do f = links[f].prev end
	return f
end

-- Ends @collector's call: the trace function set before it is set again
-- (what fn set meanwhile goes), unless the one set now is another call's
-- collector, still going (two coroutines' calls interleaved): then
-- @collector only passes on, until that one puts back past it.
local function put_back(t, collector)
	local link = links[collector]
	if link.over then return end
	link.over = true
	if t:info().destroyed ~= false then return end
	local now = t:trace(nil)
	if now == collector or not (links[now] and not links[now].over) then
		now = live(link.prev)
	end
	t:trace(now)
end

-- The running coroutine, held weakly: a call's owner (see ours()).
local function owner_now()
	return setmetatable({ coroutine.running() }, { __mode = "v" })
end

-- Whether the running coroutine works for the one in @owner: it is that
-- one, or one that one resumed (which waits, "normal", meanwhile).
local function ours(owner)
	local co = owner[1]
	return co ~= nil and (coroutine.running() == co or
		coroutine.status(co) == "normal")
end

--- t:events(fn, ...) -> events, ...: calls fn(...) with t traced and
-- returns the list of the events its operations on t reported, then
-- fn's results.  An error in fn goes on, with the trace put back; so
-- does a coroutine closed inside fn, or collected.  Only the operations
-- of fn's coroutine, or of one it resumes, are listed: another's, while
-- fn waits in a yield, are not fn's.
function idr_methods:events(fn, ...)
	O.func("events", fn)
	local list = {}
	local owner = owner_now()
	local link = {}
	local function collector(ev)
		if not link.over and ours(owner) then
			list[#list + 1] = ev
		end
		local prev = live(link.prev)
		if prev then prev(ev) end
	end
	links[collector] = link
	link.prev = self:trace(collector)
	local function done() put_back(self, collector) end
	local _ <close> = setmetatable({}, { __close = done,
		__gc = function() pcall(done) end })
	return list, fn(...)
end

-- An IDA's: the events of its tree.
ida_methods.events = idr_methods.events

-- For rec:watch(), whose calls have an owner too.
return { owner_now = owner_now, ours = ours }
