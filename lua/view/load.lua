-- load.lua - idr.load(path) and idr.load_text(text[, name]): a save file
-- (save.lua writes it) read and checked whole, line by line, before any
-- tree is made; then every tree made, and none handed out unless all
-- were.  A bad line is named "FILE:LINE: why".
local idr, _, _, view = ...

local O = view "options"
local S = view "save"

-- idrsh's 'lua' chunks share _G: keep the library's own references.
local io, ipairs, math, pairs, pcall, tonumber, tostring, type =
	io, ipairs, math, pairs, pcall, tonumber, tostring, type

local INT_MAX, U32_MAX, GEN_MAX = S.INT_MAX, S.U32_MAX, S.GEN_MAX
local tokens = S.tokens

-- {========================= Checking =============================

-- @w as an integer in [0, @max], or nil.
local function nat(w, max)
	if type(w) ~= "string" or not w:find("^%d+$") or #w > 19 then return nil end
	local n = math.tointeger(tonumber(w))
	return n and n <= max and n or nil
end

local YESNO = { yes = true, no = false }

-- The keys of a tree line, by kind: each key's check gives its value.
local function yesno(w) return YESNO[w] end
local KEYS = {
	base = function(w) return nat(w, INT_MAX) end,
	cursor = function(w) return nat(w, U32_MAX) end,
	rcu = yesno,
	id_bits = function(w)
		local n = nat(w, 30)
		return n and n >= 1 and n or nil
	end,
	retire = yesno,
	seed = function(w) return nat(w, GEN_MAX) end,
}
local KIND_KEYS = {
	idr = { base = true, cursor = true, rcu = true },
	tagged = { base = true, cursor = true, rcu = true, id_bits = true,
		retire = true, seed = true },
	ida = {},
}

local function tree_keys(tr, words)
	for i = 4, #words do
		local k, w = tostring(words[i]):match("^([%a_]+)=(.*)$")
		if not k then
			return nil, "KEY=VALUE expected, not '" .. tostring(words[i]) .. "'"
		elseif not KIND_KEYS[tr.kind][k] then
			return nil, "a " .. tr.kind .. " tree takes no '" ..
				tostring(words[i]) .. "'"
		end
		local v = KEYS[k](w)
		if v == nil then return nil, "a bad value in '" .. words[i] .. "'" end
		tr[k] = v
	end
	return true
end

-- A tree line's checks beyond each key's own.
local function tree_sound(tr)
	if tr.kind == "tagged" and not tr.id_bits then
		return nil, "a tagged tree needs id_bits=N"
	end
	if tr.id_bits and tr.base >> tr.id_bits ~= 0 then
		return nil, "base must be below 2^id_bits"
	end
	tr.limit = tr.id_bits and 1 << (31 - tr.id_bits)
	if tr.retire and tr.seed > tr.limit then
		return nil, "seed is past the limit of the generations (" ..
			tr.limit .. ")"
	end
	tr.id_max = tr.kind == "idr" and U32_MAX or tr.id_bits and
		(1 << tr.id_bits) - 1 or INT_MAX
	return true
end

local function tree_line(st, words)
	local name, kind = words[2], words[3]
	if type(name) ~= "string" or not S.valid_name(name) then
		return nil, "'tree NAME KIND': a name is a letter or _, then" ..
			" letters, digits, _ . - (64 at most)"
	end
	if st.by_name[name] then return nil, "a second tree named " .. name end
	if not KIND_KEYS[kind] then
		return nil, "the kind is idr, tagged or ida, not " .. tostring(kind)
	end
	local tr = { name = name, kind = kind, base = 0, cursor = 0, seed = 0,
		retire = false, line = st.n, first = {}, last = {}, value = {},
		lines = {}, gens = {}, retired = {}, retired_set = {}, top = -1,
		slot_top = -1, n = 0 }
	local ok, err = tree_keys(tr, words)
	if ok then ok, err = tree_sound(tr) end
	if not ok then return nil, err end
	st.trees[#st.trees + 1], st.by_name[name], st.tree = tr, tr, tr
	return true
end

-- An ID of @tr's in a record line, or nil and why.
local function id_of(tr, w)
	local id = nat(w, tr.id_max)
	if not id or id < tr.base then
		return nil, ("an id is a number in [%d, %d], not %s"):format(
			tr.base, tr.id_max, tostring(w))
	end
	return id
end

local function add_ids(st, tr, first, last, value)
	if first <= tr.top then
		return nil, ("id %d is not above %d: a tree's ids go up"):format(
			first, tr.top)
	end
	for id in pairs(tr.retired_set) do
		if id >= first and id <= last then
			return nil, "id " .. id .. " is retired"
		end
	end
	st.ids = st.ids + (last - first + 1)
	if st.ids > S.IDS_MAX then
		return nil, "more than " .. S.IDS_MAX .. " ids in one file"
	end
	local n = tr.n + 1
	tr.first[n], tr.last[n], tr.value[n], tr.lines[n] = first, last, value, st.n
	tr.n, tr.top = n, last
	return true
end

local function value_of(tr, token)
	if token == nil then return nil end
	if tr.kind == "ida" then return nil, "an IDA's ids hold no value" end
	if type(token) == "table" then return token[1] end
	local v = S.word_value(token)
	if v == nil then
		return nil, "a bad value " .. token ..
			": a \"quoted string\", a number, true or false"
	end
	return v
end

local function id_line(st, tr, words)
	if #words > 3 then return nil, "'id ID [VALUE]': too many words" end
	local id, err = id_of(tr, words[2])
	if not id then return nil, err end
	local v, verr = value_of(tr, words[3])
	if v == nil and verr then return nil, verr end
	return add_ids(st, tr, id, id, v)
end

local function range_line(st, tr, words)
	if #words ~= 3 then return nil, "'range FIRST LAST'" end
	local a, err = id_of(tr, words[2])
	local b, err2 = id_of(tr, words[3])
	if not (a and b) then return nil, err or err2 end
	if a > b then return nil, "the range ends before it begins" end
	return add_ids(st, tr, a, b, nil)
end

-- gen and retired lines come before a tree's IDs, their IDs going up.
local function slot_line(tr, words, what, count)
	if tr.kind ~= "tagged" then return nil, "only a tagged tree has " .. what end
	if tr.top >= 0 then return nil, what .. " lines come before the ids" end
	if #words ~= count then
		return nil, count == 3 and "'gen ID COUNTER'" or "'retired ID'"
	end
	local id, err = id_of(tr, words[2])
	if id and id <= tr.slot_top then
		return nil, ("id %d is not above %d: gen and retired lines go up"):format(
			id, tr.slot_top)
	end
	tr.slot_top = id or tr.slot_top
	return id, err
end

local function gen_line(_, tr, words)
	local id, err = slot_line(tr, words, "gen", 3)
	if not id then return nil, err end
	local g = nat(words[3], GEN_MAX)
	if not g then return nil, "a counter is a number in [0, 2^62]" end
	if tr.retire and g >= tr.limit then
		return nil, "a counter at the limit (" .. tr.limit ..
			") is a retired slot: 'retired " .. id .. "'"
	end
	tr.gens[#tr.gens + 1] = { id, g, tr.line_now }
	return true
end

local function retired_line(_, tr, words)
	local id, err = slot_line(tr, words, "retired", 2)
	if not id then return nil, err end
	if not tr.retire then return nil, "only a tree with retire=yes retires" end
	tr.retired[#tr.retired + 1] = { id, tr.line_now }
	tr.retired_set[id] = true
	return true
end

local RECORDS = { id = id_line, range = range_line, gen = gen_line,
	retired = retired_line }

local function line_of(st, words)
	local w = words[1]
	if w == "tree" then return tree_line(st, words) end
	if w == "current" then
		if #words ~= 2 or type(words[2]) ~= "string" then
			return nil, "'current NAME'"
		end
		if st.current then return nil, "a second 'current' line" end
		st.current, st.current_line = words[2], st.n
		return true
	end
	if w == "end" then
		if #words ~= 1 then return nil, "'end' stands alone" end
		st.ended = true
		return true
	end
	local record = RECORDS[w]
	if not record then return nil, "unknown record '" .. tostring(w) .. "'" end
	if not st.tree then return nil, "a record before any 'tree' line" end
	st.tree.line_now = st.n
	return record(st, st.tree, words)
end

-- The first line: which format, and whether this is a save file at all.
local function magic(line)
	local n = line:match("^" .. S.MAGIC:gsub("%-", "%%-") .. " (%d+)$")
	if not n then
		return nil, "not an idr save file (the first line is '" ..
			S.MAGIC .. " " .. S.FORMAT .. "')"
	end
	if #n > 9 or tonumber(n) > S.FORMAT then
		return nil, "written by a newer idr (format " .. n ..
			"); this one reads format " .. S.FORMAT .. " and older"
	end
	return true
end

-- The most common lines, "id N" and "id N \"text\"" with no escape in
-- the text, read without tokens(): a million of them load twice as fast.
local function plain_id_line(st, line)
	local id, v = line:match('^id (%d+) "([^"\\%c]*)"$')
	if not id then id = line:match("^id (%d+)$") end
	if not id or not st.tree or st.ended then return nil end
	local tr = st.tree
	local n, err = id_of(tr, id)
	if not n then return false, err end
	if v and tr.kind == "ida" then return false, "an IDA's ids hold no value" end
	local ok, aerr = add_ids(st, tr, n, n, v)
	return ok or false, aerr
end

local function parse_line(st, line)
	if st.n == 1 then return magic(line) end
	local plain, perr = plain_id_line(st, line)
	if plain ~= nil then return plain, perr end
	if line:find("^ *$") or line:find("^ *#") then return true end
	if st.ended then return nil, "a line after 'end'" end
	local words, err = tokens(line)
	if not words then return nil, err end
	return line_of(st, words)
end

-- The checked contents of @text, or nil and "NAME:LINE: why".
local function parse(text, name)
	local st = { trees = {}, by_name = {}, n = 0, ids = 0 }
	if text == "" then
		return nil, name .. ":1: an empty file, not an idr save file"
	end
	-- A last line without its newline is read too: truncated, it fails,
	-- and says so (a save ends every line, its 'end' too).
	local cut = text:sub(-1) ~= "\n"
	if cut then text = text .. "\n" end
	for line, after in text:gmatch("(.-)\n()") do
		st.n = st.n + 1
		local ok, err = parse_line(st, (line:gsub("\r$", "")))
		if not ok then
			if cut and after > #text then
				err = err .. "; the file ends in this line, with no " ..
					"newline (truncated?)"
			end
			return nil, ("%s:%d: %s"):format(name, st.n, err)
		end
	end
	if not st.ended then
		return nil, ("%s:%d: the file ends before its 'end' line" ..
			" (truncated?)"):format(name, st.n)
	end
	if st.current and not st.by_name[st.current] then
		return nil, ("%s:%d: no tree named %s"):format(name,
			st.current_line, st.current)
	end
	st.current = st.current or (st.trees[1] and st.trees[1].name)
	return st
end

-- }===============================================================

-- {========================= Building =============================

local function new_tree(tr)
	if tr.kind == "ida" then return idr.ida() end
	local opts = { base = tr.base, rcu = tr.rcu or nil }
	if tr.kind == "tagged" then
		opts.tagged = { id_bits = tr.id_bits, retire = tr.retire }
	end
	return idr.new(opts)
end

-- Counters first, then the retired slots, each making its leaf; the seed
-- before them, unless it allows no new leaf (see idr_tag_set_gen(3)).
local function restore_gens(t, tr)
	local worn = tr.retire and tr.seed == tr.limit
	if not worn then t:set_seed(tr.seed) end
	for _, g in ipairs(tr.gens) do
		local ok, err, code = t:set_gen(g[1], g[2])
		if not ok then return nil, err, g[3], code end
	end
	for _, r in ipairs(tr.retired) do
		local ok, err, code = t:set_gen(r[1], tr.limit)
		if not ok then return nil, err, r[2], code end
	end
	if worn then t:set_seed(tr.seed) end
	return true
end

local function restore_ids(t, tr)
	local ida = tr.kind == "ida"
	for i = 1, tr.n do
		local v = tr.value[i]
		for id = tr.first[i], tr.last[i] do
			local got, err, code
			if ida then
				got, err, code = t:alloc(id, id)
			else
				got, err, code = t:alloc_u32(v, id, id)
			end
			if not got then return nil, err, tr.lines[i], code end
		end
	end
	return true
end

local function build(tr)
	local t = new_tree(tr)
	local ok, err, line, code = true, nil, nil, nil
	if tr.kind == "tagged" then ok, err, line, code = restore_gens(t, tr) end
	if ok then ok, err, line, code = restore_ids(t, tr) end
	if not ok then
		t:destroy()
		return nil, err, line, code
	end
	if tr.kind ~= "ida" then t:set_cursor(tr.cursor) end
	return t
end

-- Every tree of @st, or none: nil, "NAME:LINE: why", errno name.
local function build_all(st, name)
	local trees, names = {}, {}
	for i, tr in ipairs(st.trees) do
		local ok, t, err, line, code = pcall(build, tr)
		if not (ok and t) then
			for _, made in pairs(trees) do made:destroy() end
			local why = ok and err or tostring(t)
			return nil, ("%s:%d: tree %s cannot be built: %s"):format(
				name, line or tr.line, tr.name, why),
				code or (why:find("memory") and "ENOMEM" or "EINVAL")
		end
		trees[tr.name], names[i] = t, tr.name
	end
	return trees, names
end

-- }===============================================================

-- {========================= The API ==============================

-- The text of @path, at most BYTES_MAX bytes.
local function read_file(path)
	local f, err, code = io.open(path, "rb")
	if not f then return nil, err, S.ERRNO[code] or "EIO" end
	-- A directory opens, and fails at the first read.
	local readable, rerr0, rcode = f:read(0)
	if not readable and rerr0 then
		f:close()
		return nil, path .. ": " .. rerr0, S.ERRNO[rcode] or "EIO"
	end
	local size = f:seek("end")
	if size and size > S.BYTES_MAX then
		f:close()
		return nil, ("%s: %d bytes: a save file holds at most %d"):format(
			path, size, S.BYTES_MAX), "EFBIG"
	end
	f:seek("set")
	local text, rerr = f:read(S.BYTES_MAX + 1)
	f:close()
	if rerr then return nil, path .. ": " .. rerr, "EIO" end
	text = text or ""
	if #text > S.BYTES_MAX then
		return nil, path .. ": a save file holds at most " ..
			S.BYTES_MAX .. " bytes", "EFBIG"
	end
	return text
end

--- idr.load_text(text[, name]) -> tree, trees, current, names; or nil,
-- msg, errno name.  @name names the text in messages ("save").  A save
-- of no tree loads as false, {}, nil, {}: nil would say it failed.
function idr.load_text(text, name)
	if type(text) ~= "string" then O.bad("load_text", "text must be a string") end
	name = name or "save"
	if #text > S.BYTES_MAX then
		return nil, name .. ": a save file holds at most " ..
			S.BYTES_MAX .. " bytes", "EFBIG"
	end
	local st, err = parse(text, name)
	if not st then return nil, err, "EINVAL" end
	local trees, names, code = build_all(st, name)
	if not trees then return nil, names, code end
	if not st.current then return false, trees, nil, names end
	return trees[st.current], trees, st.current, names
end

--- idr.load(path) -> as idr.load_text, from the file at @path.
function idr.load(path)
	if type(path) ~= "string" then O.bad("load", "path must be a string") end
	local text, err, code = read_file(path)
	if not text then return nil, err, code end
	return idr.load_text(text, path)
end

-- }===============================================================

return true
