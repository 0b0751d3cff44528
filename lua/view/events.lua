-- events.lua - the one stream every view reads.
--
-- A view (explain, step, diff, the replay) is a reader of the events an
-- operation reports, as t:trace() delivers them: one table an event, in
-- order, after the operation is over.  t:events() collects them for
-- one piece of work, keeping whatever trace function was set.
local idr, idr_methods, ida_methods, view = ...

local O = view "options"

--- t:events(fn, ...) -> events, ...: calls fn(...) with t traced and
-- returns the list of the events its operations on t reported, then
-- fn's results.  An error in fn goes on, with the trace put back.
function idr_methods:events(fn, ...)
	O.func("events", fn)
	local list = {}
	local prev
	prev = self:trace(function(ev)
		list[#list + 1] = ev
		if prev then prev(ev) end
	end)
	local res = table.pack(pcall(fn, ...))
	if self:info().destroyed == false then self:trace(prev) end
	if not res[1] then error(res[2], 0) end
	return list, table.unpack(res, 2, res.n)
end

-- An IDA's: the events of its tree.
ida_methods.events = idr_methods.events

return idr
