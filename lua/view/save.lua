-- save.lua - the save file: idr.save(path, trees, current) and
-- t:save(path [, name]); load.lua reads it back (idr.load).  A readable
-- text, one record a line, that builds the trees again exactly: IDs,
-- values, reserved IDs, each tree's kind, base, tagging, cyclic cursor,
-- and a tagged tree's generation counters and seed (idrsh(1), FILES,
-- describes it).
local idr, idr_methods, ida_methods, view = ...

local O = view "options"
local File = view "file"

-- idrsh's 'lua' chunks share _G: keep the library's own references.
local io, ipairs, math, os, pairs, string, table, tostring, type, utf8 =
	io, ipairs, math, os, pairs, string, table, tostring, type, utf8

local FORMAT = 1
local MAGIC = "idr-save"
-- A larger file is refused unread; so is one holding more IDs, and a
-- save refuses them too.  An IDA's "range" line costs little memory,
-- but a load makes its IDs one by one (16M take seconds): the limit
-- holds for every kind.
local BYTES_MAX = 256 * 1024 * 1024
local IDS_MAX = 1 << 24
local U32_MAX, INT_MAX = 0xffffffff, 0x7fffffff
local GEN_MAX = 1 << 62

-- {========================= Values ===============================

-- Bytes that stand for themselves in a quoted value: printable ASCII but
-- '"' and '\'; valid UTF-8 beyond ASCII too, C1 controls aside.
local PLAIN = "^[ !#-[%]^-~]+"
local NAMED = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n",
	["\t"] = "\\t", ["\r"] = "\\r" }

-- The UTF-8 character at @i of @s, if it is one worth showing.
local function utf8_char(s, i)
	local c = s:match("^" .. utf8.charpattern, i)
	if not c or #c < 2 or not utf8.len(c) then return nil end
	return utf8.codepoint(c) >= 0xa0 and c or nil
end

local function quote(s)
	if not s:find('[^ !#-[%]^-~]') then return '"' .. s .. '"' end
	local out, i = { '"' }, 1
	while i <= #s do
		local run = s:match(PLAIN, i) or utf8_char(s, i)
		if run then
			out[#out + 1] = run
			i = i + #run
		else
			local b = s:sub(i, i)
			out[#out + 1] = NAMED[b] or ("\\x%02x"):format(b:byte())
			i = i + 1
		end
	end
	out[#out + 1] = '"'
	return table.concat(out)
end

-- A value as the file writes it; nil and why for one it cannot hold.
local function value_text(v)
	local ty = type(v)
	if ty == "string" then return quote(v) end
	if ty == "boolean" then return tostring(v) end
	if math.type(v) == "integer" then return ("%d"):format(v) end
	if ty == "number" and v == v and v ~= math.huge and v ~= -math.huge then
		local s = ("%.17g"):format(v)
		return s:find("[.e]") and s or s .. ".0"
	end
	return nil, "a " .. (ty == "number" and "NaN or infinite number" or ty) ..
		" (a save keeps strings, numbers and booleans)"
end

local UNESCAPE = { ['"'] = '"', ["\\"] = "\\", n = "\n", t = "\t", r = "\r" }

-- The quoted string at @i of @line: its bytes and the index after it.
local function unquote(line, i)
	local out, j = {}, i + 1
	while true do
		local run = line:match('^[^"\\%c]+', j)
		if run then
			out[#out + 1], j = run, j + #run
		end
		local c = line:sub(j, j)
		if c == '"' then return table.concat(out), j + 1 end
		if c == "" then return nil, "a quoted value has no closing '\"'" end
		if c ~= "\\" then
			return nil, ("a control character (byte %d) in a quoted value:" ..
				" write it as \\x%02x"):format(c:byte(), c:byte())
		end
		local e = line:sub(j + 1, j + 1)
		local hex = e == "x" and line:match("^%x%x", j + 2)
		if not (UNESCAPE[e] or hex) then
			return nil, "a bad escape '\\" .. e .. "': use \\\\ \\\" \\n \\t \\r or \\xHH"
		end
		out[#out + 1] = hex and string.char(tonumber(hex, 16)) or UNESCAPE[e]
		j = j + (hex and 4 or 2)
	end
end

-- A bare word as a value: an integer, a float or a boolean.
local function word_value(w)
	if w == "true" or w == "false" then return w == "true" end
	if w:find("^%-?%d+$") then return math.tointeger(tonumber(w)) end
	local n = w:find("^%-?%d[%d.e+-]*$") and tonumber(w)
	-- n * 1.0, not n + 0.0: -0.0 keeps its sign.
	if n and n == n and n ~= math.huge and n ~= -math.huge then return n * 1.0 end
	return nil
end

-- The words of @line; a quoted value is a table { value }.
local function tokens(line)
	local list, i = {}, 1
	while true do
		i = line:match("^ *()", i)
		if i > #line then return list end
		if line:sub(i, i) == '"' then
			local s, after = unquote(line, i)
			if not s then return nil, after end
			list[#list + 1], i = { s }, after
		else
			local w = line:match("^[^ ]+", i)
			if w:find('["%c]') then
				return nil, "a stray '\"' or control character in " .. w
			end
			list[#list + 1], i = w, i + #w
		end
	end
end

-- }===============================================================

-- {========================= Writing ==============================

local function kind_of(info)
	if info.kind == "ida" then return "ida" end
	return info.tagged and "tagged" or "idr"
end

local function header(name, t, info)
	local words = { "tree", name, kind_of(info) }
	local function add(k, v) words[#words + 1] = k .. "=" .. v end
	if info.kind ~= "ida" then
		add("base", info.base)
		add("cursor", t:get_cursor())
		if info.rcu then add("rcu", "yes") end
	end
	if info.tagged then
		add("id_bits", info.tagged.id_bits)
		add("retire", info.tagged.retire and "yes" or "no")
		add("seed", t:get_seed())
	end
	return table.concat(words, " ")
end

-- A tagged tree's counters that differ from the seed, and its retired
-- slots, leaf by leaf; a leaf kept with every counter at the seed is
-- named by its first slot's, so that a load keeps it too.
local function gen_lines(t, info, out)
	local seed, id_max = t:get_seed(), (1 << info.tagged.id_bits) - 1
	for _, n in ipairs(t:nodes()) do
		if n.level == 0 then
			local listed = false
			for i = 0, n.slots - 1 do
				local s = t:slot(n, i)
				if s.first > id_max then break end
				if s.retired then
					out[#out + 1] = "retired " .. s.first
				elseif s.gen ~= seed then
					out[#out + 1] = ("gen %d %d"):format(s.first, s.gen)
				end
				listed = listed or s.retired or s.gen ~= seed
			end
			if not listed then
				out[#out + 1] = ("gen %d %d"):format(n.first, seed)
			end
		end
	end
end

-- IDs without values, a run of three or more as one range line.
local function run_lines(ids, out)
	local i = 1
	while ids[i] do
		local j = i
		while ids[j + 1] == ids[j] + 1 do j = j + 1 end
		if j - i >= 2 then
			out[#out + 1] = ("range %d %d"):format(ids[i], ids[j])
		else
			for k = i, j do out[#out + 1] = "id " .. ids[k] end
		end
		i = j + 1
	end
end

local function id_lines(t, info, out)
	local bare = {}
	local iter = info.kind == "ida" and t:pairs() or t:pairs { reserved = true }
	for id, v in iter, t, nil do
		if v == nil or info.kind == "ida" then
			bare[#bare + 1] = id
		else
			run_lines(bare, out)
			bare = {}
			local text, why = value_text(v)
			if not text then return nil, "id " .. id .. "'s value is " .. why end
			out[#out + 1] = "id " .. id .. " " .. text
		end
	end
	run_lines(bare, out)
	return true
end

local function tree_lines(name, t, out)
	local info = O.tree("save", t)
	out[#out + 1] = header(name, t, info)
	if info.tagged then gen_lines(t, info, out) end
	return id_lines(t, info, out)
end

local ERRNO = { [2] = "ENOENT", [13] = "EACCES", [21] = "EISDIR",
	[28] = "ENOSPC" }

-- @msg without the name of the file it is about, @name, in front.
local function reason(msg, name)
	if msg:sub(1, #name + 2) == name .. ": " then return msg:sub(#name + 3) end
	return msg
end

-- Writes @text into @path, which is no regular file (a symlink, a
-- device, a FIFO): in place, as a shell's > would.
local function write_into(path, text)
	local f, err, code = io.open(path, "w")
	if not f then return nil, err, ERRNO[code] or "EIO" end
	local ok, werr, wcode = f:write(text)
	local closed, cerr, ccode = f:close()
	if ok and closed then return true end
	return nil, path .. ": " .. reason(werr or cerr, path),
		ERRNO[wcode or ccode] or "EIO"
end

-- Writes @text to @path whole, or leaves @path as it was: through a new
-- file beside it, renamed over it.  A path that is there and no regular
-- file is written into instead.
local function write_whole(path, text)
	if File.kind(path) == "other" then return write_into(path, text) end
	local tmp = path .. ".new"
	-- The error names the file asked for, and the one that failed.
	local function failed(msg, code)
		return nil, ("%s: cannot write %s, to rename over it: %s"):format(
			path, tmp, reason(msg, tmp)), ERRNO[code] or "EIO"
	end
	local f, err, code = io.open(tmp, "w")
	if not f then return failed(err, code) end
	local ok, werr, wcode = f:write(text)
	local closed, cerr, ccode = f:close()
	if ok and closed then
		ok, werr, wcode = os.rename(tmp, path)
		if ok then return true end
	end
	os.remove(tmp)
	return failed(werr or cerr, wcode or ccode)
end

local function valid_name(name)
	return type(name) == "string" and #name <= 64 and
		name:find("^[%a_][%w_.-]*$") ~= nil
end

-- Raise unless @name, in argument @arg of save, can name a tree.
local function check_name(name, arg)
	if not valid_name(name) then
		O.bad("save", "bad tree name " .. tostring(name) .. ": a letter " ..
			"or _, then letters, digits, _ . - (64 at most)", arg)
	end
end

--- idr.save(path, trees[, current]) -> true, or nil, msg, errno name.
-- @trees: name -> idr or IDA; written in name order.  See idr(3lua).
function idr.save(path, trees, current)
	if type(path) ~= "string" then O.bad("save", "path must be a string") end
	if type(trees) ~= "table" then O.bad("save", "trees must be a table", 2) end
	local names = {}
	for name in pairs(trees) do
		check_name(name, 2)
		names[#names + 1] = name
	end
	table.sort(names)
	current = current or names[1]
	if current ~= nil and trees[current] == nil then
		O.bad("save", "current names no tree of trees", 3)
	end
	-- The load's limit, checked here so that no file saved fails to load.
	local ids = 0
	for _, name in ipairs(names) do
		O.tree("save", trees[name], 2)
		ids = ids + trees[name]:count()
	end
	if ids > IDS_MAX then
		return nil, ("%d ids: a save file holds at most %d"):format(ids,
			IDS_MAX), "EFBIG"
	end
	local out = { MAGIC .. " " .. FORMAT,
		"# " .. #names .. " trees; the format is in idrsh(1), FILES" }
	for _, name in ipairs(names) do
		local ok, err = tree_lines(name, trees[name], out)
		if not ok then return nil, "tree " .. name .. ": " .. err, "EINVAL" end
	end
	if current then out[#out + 1] = "current " .. current end
	out[#out + 1] = "end\n"
	return write_whole(path, table.concat(out, "\n"))
end

--- t:save(path[, name]) -> true, or nil, msg, errno name: the file
-- holds this tree alone, named @name ("default").
local function save(t, path, name)
	name = name == nil and "default" or name
	-- Checked here: idr.save would blame its own argument #2, trees (and
	-- a NaN name would raise as a table index).
	check_name(name, 2)
	return idr.save(path, { [name] = t }, name)
end
idr_methods.save = save
ida_methods.save = save

-- }===============================================================

-- What load.lua shares.
return {
	FORMAT = FORMAT, MAGIC = MAGIC, BYTES_MAX = BYTES_MAX, IDS_MAX = IDS_MAX,
	U32_MAX = U32_MAX, INT_MAX = INT_MAX, GEN_MAX = GEN_MAX, ERRNO = ERRNO,
	tokens = tokens, word_value = word_value, valid_name = valid_name,
}
