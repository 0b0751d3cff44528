-- bench/targets.lua - issue 8's targets, each marked met or not from the
-- ratios of the same run.  Informative only: it always exits 0.
--
--   lua5.4 bench/targets.lua build/bench/bench.tsv build/bench/lua.tsv

local function read_tsv(path)
  local rows, cols = {}, nil
  local f = io.open(path)
  if not f then return rows end
  for line in f:lines() do
    local fields = {}
    for x in (line .. "\t"):gmatch("([^\t]*)\t") do
      fields[#fields + 1] = x
    end
    if not cols then
      cols = fields
    else
      local r = {}
      for i, c in ipairs(cols) do r[c] = tonumber(fields[i]) or fields[i] end
      rows[r.scenario .. "/" .. r.impl] = r
    end
  end
  f:close()
  return rows
end

local c, lua = read_tsv(arg[1]), read_tsv(arg[2] or "")

-- A number from a row, or nil when the row or figure is missing.
local function get(rows, key, col)
  local r = rows[key]
  local v = r and r[col]
  return type(v) == "number" and v or nil
end

local function fmt(v, spec)
  return v and string.format(spec, v) or "-"
end

local function verdict(ok)
  if ok == nil then return "-" end
  return ok and "ok" or "MISSED"
end

local rows = {}

local function row(figure, target, shown, ok)
  rows[#rows + 1] = { figure, target, shown, verdict(ok) }
end

-- x <= limit, or nil when x is missing.
local function le(x, limit)
  if x then return x <= limit end
  return nil
end

for _, op in ipairs { "alloc", "find", "remove" } do
  local f = get(c, op .. "/idr", "ratio_flat")
  local j = get(c, op .. "/idr", "ratio_judy")
  row(op .. " vs flat", "<= 2x flat", fmt(f, "%.2fx"), le(f, 2))
  row(op .. " vs judyl-hint", ">= 3x faster",
      j and string.format("%.2fx faster", 1 / j) or "-", le(j, 1 / 3))
end
local it = get(c, "iterate/idr", "ratio_flat")
row("iterate vs flat", "<= 2x flat", fmt(it, "%.2fx"), le(it, 2))
local dense = get(c, "mem-100/idr", "bytes_per_id")
row("bytes/ID 100%", "<= 8.6 (flat " ..
    fmt(get(c, "mem-100/flat", "bytes_per_id"), "%.2f") .. ")",
    fmt(dense, "%.2f"), le(dense, 8.6))
for _, m in ipairs { "50", "10", "sparse" } do
  local key = "mem-" .. m
  local ours = get(c, key .. "/idr", "bytes_per_id")
  local judy = get(c, key .. "/judyl-hint", "bytes_per_id")
  row("bytes/ID " .. m .. (m == "sparse" and "" or "%"),
      "< judyl (" .. fmt(judy, "%.2f") .. ")", fmt(ours, "%.2f"),
      ours and judy and ours < judy)
end
local ida = get(c, "ida-mem-100/ida", "bytes_per_id")
row("IDA bytes/ID dense", "<= 0.14", fmt(ida, "%.3f"), le(ida, 0.14))
local ia = get(c, "ida-alloc/ida", "ratio_flat")
row("IDA alloc vs bitmap", "<= 3x bitmap", fmt(ia, "%.2fx"), le(ia, 3))
for _, op in ipairs { "alloc", "find" } do
  local r = get(lua, op .. "/idr", "ratio_idiom")
  row("Lua t:" .. op, "<= 2x idiom", fmt(r, "%.2fx"), le(r, 2))
end

local n = get(c, "alloc/idr", "n")
print(string.format("\ntargets (issue 8; its N = 10^6, this run's N = %s):" ..
                    " informative, never a failure", fmt(n, "%d")))
print(string.format("%-22s %-22s %-16s %s", "figure", "target", "measured",
                    ""))
local met = 0
for _, r in ipairs(rows) do
  print(string.format("%-22s %-22s %-16s %s", r[1], r[2], r[3], r[4]))
  if r[4] == "ok" then met = met + 1 end
end
print(string.format("%d of %d targets met", met, #rows))
