-- SPDX-License-Identifier: MIT
-- inside.lua - the commands that look inside a tree: dump, dot, path,
-- stats, trace; and the allocator's: fail, mem.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local words = require "idrsh.words"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local events = require "idrsh.events"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local io, math, os, string, tonumber, type = io, math, os, string,
	tonumber, type

local out, outln, format_table, write_file, result = output.out, output.outln,
	output.format_table, output.write_file, output.result
local quoted, number = words.quoted, words.number
local command, usage = registry.command, registry.usage
local tree, call, id_max, on_id = trees.tree, trees.call, trees.id_max,
	trees.on_id
local reader, switch, mark_changes = events.reader, events.switch,
	events.mark_changes

-- {========================= Seeing inside ========================

-- The terminal's height, when the shell reads a person's lines at one and
-- writes to it; nil in scripts and pipes, which are never paged.
local function screen_lines()
	if not sh.tty or sh.depth > 0 or
		not os.execute("test -t 1") then
		return nil
	end
	-- readline keeps LINES up to date; stty asks the terminal itself.
	local n = tonumber(os.getenv("LINES") or "")
	if not n or n < 2 then
		local p = io.popen("stty size 2>/dev/null")
		n = p and tonumber((p:read("l") or ""):match("^(%d+) ")) or 0
		if p then p:close() end
	end
	return n >= 2 and math.tointeger(n) or 24
end

local function shell_quote(s)
	return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- Runs @feed(write), a command's text made piece by piece, each piece
-- given to write(text).  The text goes through $PAGER (less -R by
-- default) once it is @rows lines long, the terminal's height, else, or
-- off a terminal, out as it comes: a text too long to hold is never
-- held.  A pager that quits before the end ends the text (write raises
-- and feed stops), not the shell.  Return: feed's results, or nil and
-- why.
local function paged(feed, rows)
	local held, lines, p, gone, missing, pager = {}, 0, nil, false, nil, nil
	local function write(text)
		if p then
			gone = gone or not p:write(text)
			if gone then error("the pager quit", 0) end
			return
		elseif not rows then
			return out(text)
		end
		held[#held + 1] = text
		lines = lines + select(2, text:gsub("\n", ""))
		if lines < rows then return end
		local all = table.concat(held)
		held, rows = nil, nil
		pager = os.getenv("PAGER")
		if not pager or not pager:find("%S") then pager = "less -R" end
		-- A pager that cannot run would take the text with it: printed
		-- instead, and said after.
		local cmd = pager:match("^%s*(%S+)")
		if os.execute("command -v " .. shell_quote(cmd) .. " >/dev/null 2>&1")
		then
			io.stdout:flush()
			-- The write to a pager that has quit fails (EPIPE): no error.
			sh.config.pipe_quiet(true)
			p = io.popen(pager, "w")
			if not p then sh.config.pipe_quiet(false) end
		end
		missing = not p
		write(all)
	end
	local r = table.pack(pcall(feed, write))
	local code
	if p then
		code = select(3, p:close())
		sh.config.pipe_quiet(false)
	elseif held and #held > 0 then
		outln(table.concat(held))
	end
	if gone then return true end
	if not r[1] then error(r[2], 0) end
	if missing or code == 127 then
		return nil, "cannot run the pager '" .. pager .. "' (set PAGER)"
	end
	return table.unpack(r, 2, r.n)
end

local DUMP_OPTIONS = { "--depth", "--at", "--range", "--entries", "--full" }
local DUMP_FLAGS = { full = "--full", depth = "--depth N", at = "--at ID",
	range = "--range A B" }

-- A limited dump's last line names the options that show more as
-- t:dump{} takes them ("more: full, depth, at, range)"): say the flags.
local function dump_flags(text)
	return (text:gsub("; more: ([%a, ]+)%)\n$", function(names)
		return "; more: " .. names:gsub("%a+", DUMP_FLAGS) .. ")\n"
	end))
end

-- Options of dump, as t:dump{} takes them, or nil, why.
local function parse_dump(args, t)
	local o, i, idmax = {}, 1, id_max("any", t)
	-- The number after option args[i], as @what: "--at ID".
	local function num(what, max, min)
		local s = args[i + 1]
		if not s then return nil, what .. ": a number is missing" end
		return number(s, what, max, min)
	end
	while args[i] do
		local a = args[i]
		if a == "--full" then
			o.full, i = true, i + 1
		elseif a == "--depth" or a == "--entries" then
			local n, err = num(a .. " N", a == "--depth" and 34 or 64, 1)
			if not n then return nil, err end
			o[a:sub(3)], i = n, i + 2
		elseif a == "--at" then
			local n, err = num("--at ID", idmax)
			if not n then return nil, err end
			o.at, i = n, i + 2
		elseif a == "--range" then
			local first, e1 = num("--range A", idmax)
			if not first then return nil, e1 end
			i = i + 1
			local last, e2 = num("--range B", idmax)
			if not last then return nil, e2 end
			if last < first then
				return nil, string.format("bad --range %d %d: A " ..
					"must not be above B", first, last)
			end
			o.range, i = { first, last }, i + 2
		else
			return nil, a:sub(1, 1) == "-" and
				"unknown option " .. quoted(a) or usage("dump")
		end
	end
	if o.at and o.range then
		return nil, "give --at or --range, not both"
	end
	if o.full and o.depth then
		return nil, "give --full or --depth, not both"
	end
	return o
end

command {
	name = "dump",
	args = "[--depth N] [--at ID | --range A B] [--entries N] [--full]",
	max = 8,
	help = "print the tree: two lines a node, then a leaf's entries",
	text = "Each node's range and use, then a map of its slots: '#' full,\n" ..
		"'+' in use with room below, '.' free, '-' no child; then a\n" ..
		"leaf's entries (8 at most; --entries N shows up to N).\n" ..
		"Runs of alike siblings print as one line: 'L0 64..4031: 62 full\n" ..
		"leaves', 'L0 0..4095: 64 leaves of 1/64'; a gap between children,\n" ..
		"as 'L1 4096..8191: 1 empty slot'.  A dump longer than a screen\n" ..
		"(the terminal's height; 50 lines off a terminal) shows fewer\n" ..
		"levels, and its last line says so, unless --depth or --full\n" ..
		"is given.\n" ..
		"  --depth N    draw N levels from the top; below, runs only;\n" ..
		"               whole, however long: at a terminal, paged\n" ..
		"  --at ID      only the way down to ID, and its leaf\n" ..
		"  --range A B  only the nodes and entries of IDs A to B\n" ..
		"  --entries N  show up to N of a leaf's entries (1 to 64)\n" ..
		"  --full       every node, no collapsing, however long,\n" ..
		"               printed as it is made; at a terminal,\n" ..
		"               through $PAGER (less -R); not with --depth",
	example = "dump --at 8300",
	complete = DUMP_OPTIONS,
	run = function(args)
		local t, err = tree("any")
		if not t then return nil, err end
		local o, e = parse_dump(args, t)
		if not o then return nil, e end
		local rows = screen_lines()
		-- Only the default is fitted: a depth asked for is honoured,
		-- and a dump as long as the tree goes out as it is made.
		if not o.full and not o.depth then
			-- Room for the prompt under a screenful.
			o.max_lines = rows and math.max(rows - 1, 2) or 50
		end
		return paged(function(write)
			if o.max_lines then
				local text, msg = call(t, "dump", o)
				if text then write(dump_flags(text)) end
				return text and true, msg
			end
			o.write = write
			return call(t, "dump", o)
		end, rows)
	end,
}

local function render(text, format, file)
	if not os.execute("command -v dot >/dev/null 2>&1") then
		return nil, "Graphviz 'dot' is not installed; write the DOT " ..
			"text with 'dot FILE' and render it elsewhere"
	end
	local p = io.popen("dot -T" .. format .. " -o " .. shell_quote(file), "w")
	p:write(text)
	local ok = p:close()
	if not ok then
		return nil, "dot failed to render " .. file
	end
	return true
end

-- {------------------------- dot ----------------------------------

-- The format FILE's extension names: "svg", "png", nil for DOT text
-- (.dot, .gv, or none); else nil, why, so that no picture's name gets
-- DOT text.
local function format_of(file)
	local ext = file:match("%.([^./]*)$")
	local e = ext and ext:lower()
	if not ext or e == "dot" or e == "gv" then return nil end
	if e == "svg" or e == "png" then return e end
	return nil, "no format is named " .. quoted("." .. ext) ..
		": name FILE .dot or .gv (DOT text), .svg or .png"
end

-- dot's arguments: { at = ID, format = "svg" | "png" | nil, file = FILE }.
local function dot_args(t, args)
	local o, i = {}, 1
	while args[i] do
		local a = args[i]
		if a == "--at" and args[i + 1] and o.at == nil then
			local id, err = number(args[i + 1], "ID", id_max("any", t))
			if not id then return nil, err end
			o.at, i = id, i + 2
		elseif (a == "--svg" or a == "--png") and args[i + 1] and
				not o.file then
			o.format, o.file, i = a:sub(3), args[i + 1], i + 2
		elseif a:sub(1, 1) ~= "-" and not o.file then
			o.file, i = a, i + 1
			local err
			o.format, err = format_of(a)
			if err then return nil, err end
		else
			return nil, usage("dot")
		end
	end
	return o
end

command {
	name = "dot", args = "[--at ID] [FILE | --svg FILE | --png FILE]",
	max = 4,
	help = "draw the tree as Graphviz DOT (or render it with dot)",
	text = "Each node's slots are a row of cells, slot 0 at the left: '\u{b7}'\n" ..
		"free, '\u{25cf}' in use, '\u{25a0}' full below, '\u{25b8}' a " ..
		"child with room;\nover them the full bitmap in hex, a digit " ..
		"for four slots, the\nleftmost slot its high bit.  '\u{25c6}' " ..
		"marks the cells the last operation\nchanged, from the " ..
		"session's first 'dot' on (until then no tree\nkeeps the " ..
		"events this reads, so that commands cost less); --at ID\n" ..
		"draws the way down to ID in blue.  Large trees are collapsed " ..
		"to fit\n4000 pixels a side, and the picture says so.\n" ..
		"With no FILE the DOT text goes to standard output.  FILE's\n" ..
		"extension names the format: .dot or .gv (or none) DOT text,\n" ..
		".svg or .png a picture; --svg and --png name it whatever FILE\n" ..
		"is called.  Pictures need Graphviz's 'dot' program.",
	example = "dot --at 70 --svg tree.svg",
	complete = function(text)
		if text:sub(1, 1) == "-" then return { "--at", "--svg", "--png" } end
		return "files"
	end,
	run = function(args)
		local t, err = tree("any")
		if not t then return nil, err end
		local o, oerr = dot_args(t, args)
		if not o then return nil, oerr end
		mark_changes()
		local text, msg = call(t, "dot",
			{ at = o.at, changed = t:last_events() })
		if not text then return nil, msg end
		if o.format then return render(text, o.format, o.file) end
		if o.file then return write_file(o.file, text) end
		outln(text)
		return true
	end,
}

-- }---------------------------------------------------------------

command {
	name = "path", args = "ID", min = 1,
	help = "show the way down the tree to ID, level by level",
	example = "path 8300",
	run = on_id("any", "ID", function(t, id)
		return result(function()
			local p, msg = call(t, "path", id)
			return p and output.path(p), msg
		end, function()
			local s, msg = call(t, t.path_text and "path_text" or "path", id)
			return type(s) == "table" and format_table(s) or s, msg
		end)
	end),
}

command {
	name = "stats",
	help = "print IDs, nodes, how full each level is, bytes against a flat array",
	text = "Counts: IDs, height, nodes a level.  Then one bar a level: the\n" ..
		"slots in use of all the slots of that level's nodes (an IDA: and\n" ..
		"the bits set of its bitmaps' bits).  Then packed nodes (keyed\n" ..
		"blocks are counted among them, and then on their own line),\n" ..
		"nodes in the tree's cache and this thread's preload, and the\n" ..
		"bytes: all\n" ..
		"of them, per ID, and against a flat array of the same IDs (8\n" ..
		"bytes an ID; an IDA also 1 bit an ID): 'tree / flat pointer\n" ..
		"array: 1.06' means the tree takes 1.06 times the array's bytes.\n" ..
		"An RCU tree (new NAME --rcu): 'rcu: N blocks (B bytes) wait for\n" ..
		"readers', freed after a grace period (rcu_barrier).",
	example = "stats",
	run = function()
		local t, err = tree("any")
		if not t then return nil, err end
		return result(function() return call(t, "stats") end, function()
			local s, msg = call(t, t.stats_text and "stats_text" or "stats")
			return type(s) == "table" and format_table(s) or s, msg
		end)
	end,
}

-- One trace event as one line, in the presentation's words.
local function trace_line(ev)
	outln("trace: " .. idr.event_words(ev).line)
end

reader { name = "trace",
	event = function(ev) result(output.event, trace_line, ev) end }

command {
	name = "trace", args = "on|off", min = 1,
	help = "print each step of later operations",
	text = "One line a step, as the commands run, on every tree:\n" ..
		"  op, done       an operation begins: its name, its arguments\n" ..
		"                 under the kernel's names (start= end=;\n" ..
		"                 min= max= on an IDA; id=); it ends: result=ID,\n" ..
		"                 or errno=...\n" ..
		"  visit          a node on the way down; slot= is the one taken\n" ..
		"  no-room        no free slot in the node from slot= on: go back\n" ..
		"                 up and right, or grow the tree\n" ..
		"  malloc, cache-take, preload-take   nodes= came from there\n" ..
		"  node-new       a node joined the tree (aux=gens: a tagged\n" ..
		"                 leaf's generations; aux=bitmap: an IDA bitmap)\n" ..
		"  attach         it hangs from slot= of the parent named\n" ..
		"  grow, shrink   a level added on top, or the top removed\n" ..
		"  detach         the node named lets go of its child at slot=\n" ..
		"  node-free      a node left the tree; then cache-put (kept in\n" ..
		"                 the idr's cache) or free (back to malloc)\n" ..
		"  pack           a sparse leaf packed into a smaller block\n" ..
		"  slot-set, slot-clear   a leaf slot took or lost its entry\n" ..
		"  full, open     a leaf slot's full bit set (used) or cleared\n" ..
		"  subtree-full, subtree-open   an interior slot's full bit set\n" ..
		"                 (child full) or cleared (room below again)\n" ..
		"  bit-set, bit-clear   IDA: ID first+slot taken or freed\n" ..
		"  bitmap-full, bitmap-open   IDA: a bitmap became full, or not\n" ..
		"level=0 is a leaf; first..last are the IDs the node covers.  The\n" ..
		"kernel marks free slots (IDR_FREE) where this tree sets full bits.\n" ..
		"In Lua: idr.event_words(ev).line; the same table words\n" ..
		"explain and step.  See also: explain, idr(3).",
	example = "trace on",
	complete = { "on", "off" },
	run = switch("trace"),
}

-- 'fail N' as set: N, and the allocator's count of refused allocations
-- then; those refused since come off N.
local fault = { n = 0, failed = 0 }

local function fails_left()
	local left = fault.n - (idr.mem().failed - fault.failed)
	return left > 0 and left or 0
end

command {
	name = "fail", args = "[N]", max = 1,
	help = "make the next N allocations of tree operations fail (ENOMEM)",
	text = "Fault injection, to watch a failed operation leave the tree as it\n" ..
		"was.  Only what the library allocates for a tree operation (alloc,\n" ..
		"preload, ...) counts: what the views (dump, dot, stats, path, list)\n" ..
		"and the shell allocate for themselves never fails nor uses N up.\n" ..
		"'fail 0' turns it off; 'fail' prints how many allocations are still\n" ..
		"set to fail.",
	example = "fail 1",
	run = function(args)
		if not args[1] then
			local left = fails_left()
			return result(left, "allocations set to fail: " .. left)
		end
		local n, err = number(args[1], "N")
		if not n then return nil, err end
		idr.fault(0, n)
		fault.n, fault.failed = n, idr.mem().failed
		return true
	end,
}

-- The current tree's blocks waiting for a grace period, if it is an
-- RCU idr: its stats.
local function rcu_stats()
	local t = tree("any")
	local ok, info = pcall(function() return t and t:info() end)
	if not (ok and info and info.rcu) then return nil end
	return t:stats()
end

-- The line stats prints of them.
local function rcu_waiting(st)
	return ("rcu: %d %s (%d bytes) wait for readers"):format(st.rcu_pending,
		st.rcu_pending == 1 and "block" or "blocks", st.rcu_pending_bytes)
end

command {
	name = "mem",
	help = "print the allocator's counters, and the allocations set to fail",
	text = "Process-wide counters of the library's allocator.  An RCU tree\n" ..
		"(new NAME --rcu) adds a line for the current tree: the blocks\n" ..
		"freed once readers are done, counted in bytes until then.",
	example = "mem",
	run = function()
		local m = idr.mem()
		m.fail_pending = fails_left()
		local rcu = rcu_stats()
		return result(function()
			m.rcu = rcu and { pending = rcu.rcu_pending,
				bytes = rcu.rcu_pending_bytes }
			return m
		end, function()
			return format_table(m) .. (rcu and "\n" .. rcu_waiting(rcu) or "")
		end)
	end,
}

command {
	name = "rcu_barrier",
	help = "wait for readers, then run every free an RCU tree deferred",
	text = "synchronize_rcu(), then rcu_barrier(): the blocks 'stats' shows\n" ..
		"waiting for readers are freed (liburcu frees them by itself\n" ..
		"within milliseconds; this waits for it).",
	example = "rcu_barrier",
	run = function()
		idr.rcu_barrier()
		return true
	end,
}

-- }===============================================================
