-- bench/dump.lua - how long idrsh's default dump takes (issue 15): the
-- text of a tree of 10^7 IDs held to 50 lines, as 'dump' prints it off a
-- terminal, dense and with a hole every 4096 IDs; then a sparse tree's
-- dump and picture against building it (issue 28).  Informative only:
-- no time is a failure.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 bench/dump.lua [N [RUNS]]

local idr = require "idr"

local N = math.tointeger(tonumber(arg[1] or "")) or 10000000
local RUNS = math.tointeger(tonumber(arg[2] or "")) or 5

local here = arg[0]:match("^(.*)/[^/]*$") or "."
local median_ms = dofile(here .. "/median.lua")(RUNS)

local function row(name, tree)
	local text
	local ms = median_ms(function() text = tree:dump { max_lines = 50 } end)
	local _, lines = text:gsub("\n", "")
	print(string.format("%-22s %10.1f %8d", name, ms, lines))
end

local dense = idr.new()
for _ = 1, N do dense:alloc(true) end
print(string.format("\n%-22s %10s %8s", "dump, " .. N .. " IDs", "ms", "lines"))
row("dense", dense)
for i = 0, N - 1, 4096 do dense:remove(i) end
row("a hole every 4096", dense)

-- Issue 28: the views cost what they show, not the tree.  A sparse tree
-- of N / 10 random IDs in [0, 2^31) (a million at the default N), and
-- the views of it as idrsh shows them by default, each against the time
-- building the tree took.
local SPARSE = N // 10
local sparse = idr.new()
math.randomseed(28)
local c0 = os.clock()
local n = 0
while n < SPARSE do
	local id = math.random(0, (1 << 31) - 1)
	if sparse:alloc_u32(true, id, id) then n = n + 1 end
end
local build_ms = (os.clock() - c0) * 1000
print(string.format("\n%-22s %10s %9s", "sparse, " .. SPARSE .. " IDs", "ms",
	"of build"))
print(string.format("%-22s %10.1f", "build", build_ms))
local function share(name, f)
	local ms = median_ms(f)
	print(string.format("%-22s %10.1f %8.2f%%", name, ms, ms / build_ms * 100))
end
share("dump, 10 lines", function() sparse:dump { max_lines = 10 } end)
share("dump, 50 lines", function() sparse:dump { max_lines = 50 } end)
share("dot", function() sparse:dot() end)
