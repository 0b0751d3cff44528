-- bench/dot.lua - how long the picture of a large tree takes: t:dot{} of
-- N IDs in a row (the DOT text), with the way to one ID and the cells of
-- the last allocation marked, and Graphviz's layout of it into a PNG.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 bench/dot.lua [N [RUNS [TSV]]]
--
-- Times are medians of RUNS: the DOT text as os.clock() (CPU time), the
-- render as wall time around `dot -Tpng` (it runs in another process).
-- The picture's size is read from the PNG's header and checked against
-- the 4000 pixels a side t:dot{} promises; a larger one, or a
-- render that fails, stops the run with an error.

local idr = require "idr"

local N = math.tointeger(tonumber(arg[1] or "1000000"))
local RUNS = math.tointeger(tonumber(arg[2] or "5"))
local TSV = arg[3]
assert(N and N >= 1 and RUNS and RUNS >= 1, "usage: dot.lua [N [RUNS [TSV]]]")

local function median(v)
  table.sort(v)
  local n = #v
  return n % 2 == 1 and v[(n + 1) // 2] or (v[n // 2] + v[n // 2 + 1]) / 2
end

-- Wall time, in seconds, from the shell's date (os.time() has seconds).
local function now()
  local p = assert(io.popen("date +%s.%N"))
  local s = p:read("l")
  p:close()
  return tonumber(s)
end

local function png_size(path)
  local f = assert(io.open(path, "rb"))
  local head = f:read(24)
  f:close()
  assert(head and head:sub(2, 4) == "PNG", path .. ": not a PNG")
  return string.unpack(">I4>I4", head, 17)
end

local t = idr.new()
for _ = 1, N - 1 do t:alloc(true) end
local changed = t:events(t.alloc, t, true)
local opts = { at = N // 2, changed = changed }

local text_ms, render_ms = {}, {}
local text
for r = 1, RUNS do
  local t0 = os.clock()
  text = t:dot(opts)
  text_ms[r] = (os.clock() - t0) * 1e3
end

local have_dot = os.execute("command -v dot >/dev/null 2>&1")
local w, h
if have_dot then
  local dir = os.getenv("TMPDIR") or "/tmp"
  local src, png = dir .. "/idr-bench-dot.dot", dir .. "/idr-bench-dot.png"
  local f = assert(io.open(src, "w"))
  f:write(text)
  f:close()
  for r = 1, RUNS do
    local t0 = now()
    assert(os.execute("dot -Tpng " .. src .. " -o " .. png),
           "dot failed to render " .. src)
    render_ms[r] = (now() - t0) * 1e3
  end
  w, h = png_size(png)
  os.remove(src)
  os.remove(png)
  assert(w <= 4000 and h <= 4000,
         string.format("the picture is %d x %d pixels", w, h))
end

print(string.format("\ndot: N = %d in a row, medians of %d runs", N, RUNS))
print(string.format("%-26s %10.1f ms  (%d bytes of DOT)", "t:dot{at, changed}",
                    median(text_ms), #text))
if have_dot then
  print(string.format("%-26s %10.1f ms  (%d x %d pixels)", "dot -Tpng",
                      median(render_ms), w, h))
else
  print(string.format("%-26s %10s     (Graphviz is not installed)",
                      "dot -Tpng", "-"))
end
if TSV then
  local f = assert(io.open(TSV, "w"))
  f:write("view\tn\tms\twidth\theight\n")
  f:write(string.format("dot-text\t%d\t%.3f\t\t\n", N, median(text_ms)))
  if have_dot then
    f:write(string.format("dot-png\t%d\t%.3f\t%d\t%d\n", N,
                          median(render_ms), w, h))
  end
  f:close()
end
