-- garbage.lua SEED COUNT FIRST - COUNT lines of random bytes on stdout
-- (NUL where a newline would fall, so each stays one line), and on stderr
-- the number of each line idrsh must refuse, counting from FIRST: all but
-- the blank ones and the comments, which are no commands at all.
local seed, count, first = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3])
math.randomseed(seed)
for i = 1, count do
	local bytes = {}
	for j = 1, math.random(0, 120) do
		local b = math.random(0, 255)
		bytes[j] = string.char(b == 10 and 0 or b)
	end
	local line = table.concat(bytes)
	io.stdout:write(line, "\n")
	if line:find("\0", 1, true)
		or not (line:find("^%s*$") or line:find("^%s*#")) then
		io.stderr:write(first + i - 1, "\n")
	end
end
