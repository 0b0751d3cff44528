-- One collapse rule (lua/view/fold.lua): the same tree folds the same
-- way in the text dump, in DOT, in t:fold()'s data, and in the replay
-- page's layout (lua/view/frame.lua): on 32 leaves of one ID each (runs
-- broken by empty slots), a dense tree and two sparse ones.
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local C = require "dot_cases"

-- The runs a text dump folded, as "L0 0..639: 10 leaves of 1/64"; the
-- nodes it drew, as "L1 0..4095".  Its gaps ("1 empty slot") fold none.
local function text_runs(text)
	local runs, drawn = {}, {}
	for line in text:gmatch("[^\n]+") do
		local run = line:match("^ *(L%d+ %d+%.%.%d+: .*)$")
		if run and not run:find("empty slots?$") then runs[run] = true end
		local node = line:match("^ *(L%d+ %d+%.%.%d+)  %d+/%d+")
		if node then drawn[node] = true end
	end
	return runs, drawn
end

-- The same of a DOT picture: its dashed boxes and its nodes.
local function dot_runs(text)
	local runs, drawn = {}, {}
	for what, words in text:gmatch('style=dashed, label="(L%d+ %d+%.%.%d+)' ..
			'\\n([^\\]*)\\n') do
		runs[what .. ": " .. words] = true
	end
	for level, first, last in text:gmatch("<B>L(%d+)</B> (%d+)%.%.(%d+) ") do
		drawn[("L%s %s..%s"):format(level, first, last)] = true
	end
	return runs, drawn
end

-- The runs t:fold() folds under each interior node of @t, by node.
local function all_folds(t)
	local folds = {}
	for _, n in ipairs(t:nodes()) do
		if n.level > 0 then
			local runs = {}
			for _, r in ipairs(t:fold(n)) do
				if r.alike then
					runs[#runs + 1] = ("L%d %d..%d: %s"):format(r.level,
						r.first, r.last, r.words)
				end
			end
			folds[("L%d %d..%d"):format(n.level, n.first, n.last)] = runs
		end
	end
	return folds
end

-- The runs of @folds under the nodes @drawn names.
local function fold_runs(folds, drawn)
	local runs = {}
	for node in pairs(drawn) do
		for _, run in ipairs(folds[node] or {}) do runs[run] = true end
	end
	return runs
end

local function same(a, b, what)
	for k in pairs(a) do assert(b[k], what .. ": " .. k .. " only in one") end
	for k in pairs(b) do assert(a[k], what .. ": " .. k .. " only in one") end
end

local function keys(set)
	local n = 0
	for _ in pairs(set) do n = n + 1 end
	return n
end

-- The same of a replay frame of @t after @evs: its run boxes, the nodes
-- it drew, and those of them whose children it drew all (no "not drawn"
-- box below them).
local function page_runs(t, evs)
	local rec = idr.recorder()
	local boxes = rec:frame_boxes(rec:frame { tree = t, events = evs })
	local runs, drawn, whole = {}, {}, {}
	for _, b in ipairs(boxes) do
		if b.k == "r" then runs[(b.t:gsub("\n", ": "))] = true end
		if b.k == "n" then
			local r = rec.rows[b.r]
			drawn[("L%d %d..%d"):format(r[1], r[2], r[3])] = b
		end
	end
	for name, b in pairs(drawn) do
		whole[name] = true
		for _, k in ipairs(boxes) do
			if k.k == "m" and boxes[k.p] == b then whole[name] = nil end
		end
	end
	return runs, drawn, whole
end

-- The text dump, DOT, t:fold() and the page fold @t alike; returns the
-- runs.
local function folds_alike(t)
	local folds = all_folds(t)
	local pruns, _, pwhole = page_runs(t)
	same(pruns, fold_runs(folds, pwhole), "page and fold")
	local truns, tdrawn = text_runs(t:dump { entries = 1 })
	local druns, ddrawn = dot_runs(t:dot { max_nodes = 100000 })
	same(truns, fold_runs(folds, tdrawn), "text and fold")
	same(druns, fold_runs(folds, ddrawn), "DOT and fold")
	-- Where both drew a node, both folded its runs alike.
	local both = {}
	for k in pairs(tdrawn) do both[k] = ddrawn[k] end
	assert(keys(both) > 0)
	for run in pairs(fold_runs(folds, both)) do
		assert(truns[run] and druns[run], run)
	end
	return truns
end

-- 32 leaves of one ID each over 40 slots, runs of 10, 10, 4, 4 and 4
-- apart: the runs of ten fold (20 leaves), the runs of four do not, and
-- no run covers an empty slot.
do
	local t = idr.new()
	local slot = 0
	for _, run in ipairs { 10, 10, 4, 4, 4 } do
		for _ = 1, run do
			t:alloc("x", slot * 64)
			slot = slot + 1
		end
		slot = slot + 2
	end
	assert(#t == 32 and t:top().level == 1)
	local runs = folds_alike(t)
	assert(keys(runs) == 2)
	-- The page folds the same two runs (and leaves the rest of the 12
	-- leaves past its room "not drawn").
	local pruns = page_runs(t)
	assert(keys(pruns) == 2 and pruns["L0 0..639: 10 leaves of 1/64"])
	assert(runs["L0 0..639: 10 leaves of 1/64"])
	assert(runs["L0 768..1407: 10 leaves of 1/64"])
	local folded = 0
	for _, r in ipairs(t:fold(t:top())) do
		if r.alike then folded = folded + r.to - r.from end
		assert(r.kind ~= "room" or r.count == 1)
		if r.kind == "room" then
			for s = r.from, r.to - 1 do
				assert(t:top().present >> s & 1 == 1, "no empty slot in a run")
			end
		end
	end
	assert(folded == 20)
end

-- Dense: 100,000 IDs in a row.
do
	local t = idr.new()
	for _ = 1, 100000 do t:alloc(true) end
	local runs = folds_alike(t)
	assert(runs["L1 0..98303: 24 full nodes"])
	assert(runs["L0 98304..99967: 26 full leaves"])
	-- The way to an operation's ID and the nodes it changed stay out of
	-- the page's runs, as DOT keeps them: removing 500 breaks the run of
	-- full nodes at L1 0..4095 and draws the leaf L0 448..511.
	local evs = t:events(t.remove, t, 500)
	local pruns, drawn = page_runs(t, evs)
	assert(drawn["L0 448..511"] and drawn["L1 0..4095"])
	assert(not pruns["L1 0..98303: 24 full nodes"])
	assert(pruns["L1 4096..98303: 23 full nodes"])
	for run in pairs(pruns) do
		local lo, hi = run:match("^L%d+ (%d+)%.%.(%d+)")
		assert(not (500 >= tonumber(lo) and 500 <= tonumber(hi)), run)
	end
end

-- Sparse: 500 IDs 64 apart (one a leaf), and 3000 scattered over 31 bits.
do
	local t = idr.new()
	for i = 0, 499 do t:alloc("s", i * 64 + 5) end
	local runs = folds_alike(t)
	assert(runs["L0 0..4095: 64 leaves of 1/64"])
	assert(runs["L0 28672..31999: 52 leaves of 1/64"] and keys(runs) == 8)
	-- A replace changes no bitmap: the way to its ID alone breaks the
	-- run of 64 alike leaves around it on the page.
	local pruns, drawn = page_runs(t, t:events(t.replace, t, 10 * 64 + 5, "r"))
	assert(drawn["L0 640..703"], "the way to the ID, drawn")
	assert(not pruns["L0 0..4095: 64 leaves of 1/64"])
	assert(pruns["L0 0..639: 10 leaves of 1/64"])
	assert(pruns["L0 704..4095: 53 leaves of 1/64"])
	folds_alike(C.scatter(idr.new(), 1, 2147483647))
end

-- t:fold() misused.
do
	local t = idr.new()
	t:alloc(1)
	assert(t:fold(t:top()) == nil, "a leaf has no runs")
	assert(not pcall(t.fold, t, 7))
end
