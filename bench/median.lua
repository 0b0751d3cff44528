-- bench/median.lua - the timing bench/dump.lua and bench/diff.lua share:
--
--   local median_ms = dofile(DIR .. "/median.lua")(RUNS)
--   local ms = median_ms(f)
--
-- median_ms(f) is the median of RUNS timings of f() (CPU time, from
-- os.clock), in milliseconds.
return function(runs)
	return function(f)
		local t = {}
		for i = 1, runs do
			local c = os.clock()
			f()
			t[i] = (os.clock() - c) * 1000
		end
		table.sort(t)
		return t[(runs + 1) // 2]
	end
end
