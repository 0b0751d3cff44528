-- pid-allocator.lua - cyclic allocation, as process IDs use it.
--
-- PIDs are handed out cyclically: each new process gets the lowest free
-- PID above the last one handed out, and the search wraps back to the
-- bottom of the range only when it reaches the top.  A PID that was just
-- freed is therefore not reused at once: a "kill 305" sent a moment
-- late hits nothing, rather than a new, unrelated process.  The kernel
-- uses [300, pid_max) once it has booted (pid_max is 32768 by default);
-- here the range is [300, 310) so that it wraps in a few lines.
--
-- Run: LUA_CPATH_5_4='build/?.so;;' lua5.4 examples/pid-allocator.lua

local idr = require "idr"

local PID_MIN, PID_MAX = 300, 310

local pids = idr.new()

local function fork(name)
	local pid, msg, err = pids:alloc_cyclic(name, PID_MIN, PID_MAX)
	if pid then
		print(string.format("fork %-8s -> pid %d", name, pid))
	else
		print(string.format("fork %-8s -> %s (%s)", name, msg, err))
	end
	return pid
end

local function exit(pid)
	print(string.format("exit %-8s    pid %d", pids:remove(pid), pid))
end

local function ps()
	local line = {}
	for pid, name in pids:pairs() do
		line[#line + 1] = pid .. ":" .. name
	end
	print("ps:  " .. table.concat(line, " "))
end

for _, name in ipairs { "init", "sshd", "cron", "bash" } do
	fork(name)
end
exit(301)
exit(302)
-- 301 and 302 are free, but the search goes on from 303.
fork("vim")
fork("make")
ps()

-- Churn: short-lived processes move the cursor up to the top...
for i = 1, 4 do
	exit(fork("cc" .. i))
end
-- ...and the next fork wraps to the bottom, taking the lowest free PID.
fork("less")
fork("grep")
fork("sort")
ps()
-- After the wrap the search goes on from the last PID again, not from 300.
print("cursor: " .. pids:get_cursor())
fork("top")

print()
print("the same churn with plain alloc reuses a PID at once:")
local plain = idr.new()
for _, name in ipairs { "init", "sshd", "cron" } do
	plain:alloc(name, PID_MIN, PID_MAX)
end
print("remove 301 (" .. plain:remove(301) .. "); alloc -> " ..
	plain:alloc("intruder", PID_MIN, PID_MAX))
