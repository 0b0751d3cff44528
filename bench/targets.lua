-- bench/targets.lua - issue 32's targets, issue 17's, then those of
-- issue 8 that issue 17 does not supersede, each marked ok or MISSED from
-- the figures of the same run (medians of its RUNS; memory is measured
-- once, being deterministic; instructions per operation from
-- bench/instr.sh, which do not vary; CPU-time minimums of interleaved
-- rounds, whose rows show only when their TSV is given).  A missing
-- figure shows "-".  Informative only: it always exits 0.
--
--   lua5.4 bench/targets.lua build/bench/bench.tsv build/bench/lua.tsv \
--     build/bench/instr.tsv build/bench/min.tsv

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

-- bench/instr.sh's figures, by operation (the kernel's as kernel-alloc
-- and so on): { instr =, n = }.
local function read_instr(path)
  local ops = {}
  local f = path and io.open(path)
  if not f then return ops end
  for line in f:lines() do
    local op, instr, n = line:match("^([%a-]+)\t([%d.]+)\t[^\t]*\t[^\t]*\t(%d+)$")
    if op then ops[op] = { instr = tonumber(instr), n = tonumber(n) } end
  end
  f:close()
  return ops
end

local instr = read_instr(arg[3])
local min = arg[4] and read_tsv(arg[4])

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

local groups = {}

local function group(title)
  groups[#groups + 1] = { title = title }
end

local function row(figure, target, shown, ok)
  local g = groups[#groups]
  g[#g + 1] = { figure, target, shown, verdict(ok) }
end

-- x <= limit, or nil when x is missing.
local function le(x, limit)
  if x then return x <= limit end
  return nil
end

-- x < y, or nil when either is missing.
local function lt(x, y)
  if x and y then return x < y end
  return nil
end

local function ratio_row(figure, key, limit, base)
  local r = get(c, key, "ratio_flat")
  row(figure, string.format("<= %gx %s", limit, base), fmt(r, "%.2fx"),
      le(r, limit))
end

local function bytes(key, col)
  return get(c, key, col or "bytes_per_id")
end

-- Bytes per ID and, when there is a base, their ratio to it.
local function with_ratio(x, base, spec)
  if not (x and base) then return fmt(x, spec) end
  return string.format(spec .. " (%.2fx)", x, x / base)
end

-- Issue 32: its marks are the kernel's counts it quotes (instructions at
-- 10^5 under callgrind, from its own harness): "take its instruction
-- counts above as the mark".  The kernel measured in the same run
-- (bench/instr.sh over bench/instr-kernel, the same program on Linux
-- 6.1's idr) shows beside each mark, for comparison.
group("issue 32")
-- The marks hold at 10^5 IDs (INSTR_N's default): at another N the
-- count shows, with no verdict.
local function instr_row(op, target, limit)
  local f = instr[op]
  local x = f and f.instr
  local ok
  if limit and f and f.n == 100000 then ok = le(x, limit) end
  row(op .. " instr/op", target,
      f and f.n ~= 100000 and string.format("%.1f at N %d", x, f.n)
        or fmt(x, "%.1f"), ok)
end
-- The kernel's count of @op, measured at ours' N, or nil.
local function kernel_instr(op)
  local k, f = instr["kernel-" .. op], instr[op]
  return k and f and k.n == f.n and k.instr or nil
end
-- The kernel's count measured at ours' N, shown beside a mark.
local function here(op)
  local k = kernel_instr(op)
  return k and string.format(", here %.1f", k) or ""
end
instr_row("remove", "<= 238 (kernel" .. here("remove") .. ")", 238)
instr_row("find", "<= 71 (0.8 kernel" .. here("find") .. ")", 71)
instr_row("alloc", "(kernel 496" .. here("alloc") .. ")")
groups[#groups].note = "instructions: the marks are the kernel's counts " ..
  "issue 32 quotes (find: 0.8 of 89); " .. (kernel_instr("remove")
  and "\"here\": the kernel's, measured in this run"
  or "no kernel peer measured")
-- CPU time, the minimum of interleaved rounds: ours at least twice as
-- fast as the kernel.
if min then
  for _, op in ipairs { "alloc", "find", "remove" } do
    local x, k = get(min, op .. "/idr", "ns_min"),
                 get(min, op .. "/kernel", "ns_min")
    local faster = x and k and k / x
    local shown = faster and (faster >= 1
      and string.format("%.2fx faster", faster)
      or string.format("%.2fx slower", 1 / faster)) or "-"
    row(op .. " CPU min", ">= 2x faster (kernel)", shown,
        faster and faster >= 2)
  end
end
local heap10 = bytes("mem-10/idr", "heap_bytes_per_id")
local judy10 = bytes("mem-10/judyl-hint", "heap_bytes_per_id")
row("bytes/ID 10% (heap)", "< judyl (" .. fmt(judy10, "%.2f") .. ")",
    with_ratio(heap10, judy10, "%.2f"), lt(heap10, judy10))
local sparse = bytes("mem-sparse/idr", "heap_bytes_per_id")
local judys = bytes("mem-sparse/judyl-hint", "heap_bytes_per_id")
row("bytes/ID sparse (heap)",
    "<= 2x judyl (" .. fmt(judys and 2 * judys, "%.1f") .. ")",
    with_ratio(sparse, judys, "%.1f"), judys and le(sparse, 2 * judys))
-- The issue's sparse row is at 10^5 IDs as well as 10^6: N / 10.
local tenth = bytes("mem-sparse-tenth/idr", "heap_bytes_per_id")
local judyt = bytes("mem-sparse-tenth/judyl-hint", "heap_bytes_per_id")
row("bytes/ID sparse N/10 (heap)",
    "<= 2x judyl (" .. fmt(judyt and 2 * judyt, "%.1f") .. ")",
    with_ratio(tenth, judyt, "%.1f"), judyt and le(tenth, 2 * judyt))
local dense = bytes("mem-100/idr")
row("bytes/ID 100%", "<= 8.6", fmt(dense, "%.2f"), le(dense, 8.6))

group("issue 17 (round two)")
ratio_row("random find", "find/idr", 4, "flat")
ratio_row("random remove", "remove/idr", 4, "flat")
ratio_row("lowest-free alloc", "alloc/idr", 3, "flat")
ratio_row("iteration", "iterate/idr", 1.5, "flat")
row("bytes/ID 10% (heap)", "< judyl (" .. fmt(judy10, "%.2f") .. ")",
    with_ratio(heap10, judy10, "%.2f"), lt(heap10, judy10))
local sparse_seam = bytes("mem-sparse/idr")
local judys_seam = bytes("mem-sparse/judyl-hint")
row("bytes/ID sparse", "<= 100 (judyl " .. fmt(judys_seam, "%.1f") .. ")",
    with_ratio(sparse_seam, judys_seam, "%.1f"), le(sparse_seam, 100))
ratio_row("IDA alloc", "ida-alloc/ida", 3, "bitmap")

-- Dropped as superseded by issue 17's rows: "<= 2x flat" for alloc,
-- find, remove and iteration, bytes/ID 10 % and sparse below JudyL's
-- own count, and IDA alloc <= 3x.
group("issue 8, kept")
for _, op in ipairs { "alloc", "find", "remove" } do
  local j = get(c, op .. "/idr", "ratio_judy")
  row(op .. " vs judyl-hint", ">= 3x faster",
      j and string.format("%.2fx faster", 1 / j) or "-", le(j, 1 / 3))
end
row("bytes/ID 100%", "<= 8.6 (flat " .. fmt(bytes("mem-100/flat"), "%.2f") ..
    ")", fmt(dense, "%.2f"), le(dense, 8.6))
local half, judy50 = bytes("mem-50/idr"), bytes("mem-50/judyl-hint")
row("bytes/ID 50%", "< judyl (" .. fmt(judy50, "%.2f") .. ")",
    fmt(half, "%.2f"), lt(half, judy50))
local ida = bytes("ida-mem-100/ida")
row("IDA bytes/ID dense", "<= 0.14", fmt(ida, "%.3f"), le(ida, 0.14))
for _, op in ipairs { "alloc", "find" } do
  local r = get(lua, op .. "/idr", "ratio_idiom")
  row("Lua t:" .. op, "<= 2x idiom", fmt(r, "%.2fx"), le(r, 2))
end

local n, runs = get(c, "alloc/idr", "n"), get(c, "alloc/idr", "runs")
print(string.format("\ntargets at N = %s, medians of %s runs%s: " ..
                    "informative, never a failure", fmt(n, "%d"),
                    fmt(runs, "%d"),
                    runs and runs < 5 and " (issue 17 asks for 5)" or ""))
for _, g in ipairs(groups) do
  local met = 0
  print(string.format("\n%-27s %-30s %s", g.title, "target",
                      "measured"))
  for _, r in ipairs(g) do
    print(string.format("%-27s %-30s %-16s %s", r[1], r[2], r[3], r[4]))
    if r[4] == "ok" then met = met + 1 end
  end
  print(string.format("%d of %d targets met", met, #g))
  if g.note then print(g.note) end
end
