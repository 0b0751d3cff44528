-- words_workout.lua - operations that report every kind of event Lua
-- can cause, on an idr @t, an IDA @a and a tagged idr @g: test_words.lua
-- runs them in Lua and in the shell, to compare.
return function(t, a, g)
	for _ = 1, 70 do t:alloc("x") end            -- grow, no-room, attach
	for i = 0, 69 do t:remove(i) end             -- open, pack, detach, free
	t:alloc("s", 0)
	t:pre_get()                                  -- whole nodes, cached
	t:get_new_above("s", 64)                     -- (a lone ID's: packed)
	t:remove(64)                                 -- shrink, cache-put
	t:remove(0)
	t:alloc("y", 5000)
	t:find(5000)
	t:remove(5000)
	t:pre_get()                                  -- cache-take on get_new
	t:get_new("z")
	for _ = 1, 4096 do a:alloc(0) end            -- bitmap-full
	a:free(7)                                    -- bitmap-open
	a:alloc(5, 10)
	a:find_first(0, 100)
	local id = g:alloc_tagged("g")               -- aux = gens
	g:remove_tagged(id)
end

