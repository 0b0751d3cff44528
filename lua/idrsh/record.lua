-- SPDX-License-Identifier: MIT
-- record.lua - 'record' and --html: a reader that makes a frame of each
-- command line (the binding's idr.recorder, lua/view/replay.lua), with
-- the events it caused and what it printed.

local idr = require "idr"
local sh = require "idrsh.state"
local output = require "idrsh.output"
local registry = require "idrsh.registry"
local trees = require "idrsh.trees"
local events = require "idrsh.events"

-- Chunks run by 'lua' share _G: the shell keeps its own references.
local ipairs, pairs, rawequal, string, table = ipairs, pairs, rawequal,
	string, table

local outln, write_file = output.outln, output.write_file
local command, usage = registry.command, registry.usage
local current = trees.current
local reader = events.reader

-- {============================ Replay ============================

-- record.rec: the recorder, once started; events: those of the operation
-- going on; ops: the frames of the line's operations so far.
-- rest: the line's operations past OPS_MAX, which share its last frame;
-- more: their events past the 400 that frame keeps.
local record = { events = {}, ops = {}, rest = 0, more = 0 }

-- A frame is a few kilobytes of page: a line of 10^5 operations, a
-- frame each, would make a page no one steps through.
local OPS_MAX = 100

-- The shell's name of tree @t, for the page to show on its frames.
local function name_of(t)
	for name, obj in pairs(sh.trees) do
		if rawequal(obj, t) then return name end
	end
	return ""
end

-- Starts recording; a recording already there goes on, its frames kept
-- (@html: --html's, which 'record off' does not stop).
local function record_start(title, html)
	if record.rec then
		if not sh.on.record then
			sh.on.record, sh.capture = true, {}
		end
		return record.rec:count()
	end
	record.html = html
	record.rec = idr.recorder { title = title, name_of = name_of }
	record.events, record.tree, record.ops = {}, nil, {}
	record.rest, record.more = 0, 0
	sh.on.record = true
	sh.capture = {}
end

local function record_stop()
	sh.on.record = nil
	sh.capture = nil
end

-- Where the library marks operations (events "op" ... "done"), each is
-- a frame, made as it ends, while the tree is as it left it; the line
-- names them once it is over.  A line with no operation is one frame.
local function record_op(t)
	local ops = record.ops
	if #ops >= OPS_MAX then
		record.rest = record.rest + 1
		return
	end
	local evs = record.events
	record.events = {}
	ops[#ops + 1] = record.rec:frame { tree = t, events = evs }
end

-- The line over: its operations' frames are named after it; a line that
-- ran none (@whole) is a frame of its own.
local function record_line(line, whole)
	local evs, t = record.events, record.tree or current()
	local text, ops = table.concat(sh.capture or {}), record.ops
	local rest, more = record.rest, record.more
	record.events, record.tree, record.ops = {}, nil, {}
	record.rest, record.more = 0, 0
	sh.capture = {}
	if line:find("^%s*record%f[%s%z]") then return end
	if #ops == 0 and whole then
		record.rec:frame { tree = t, command = line, output = text,
			events = evs }
	end
	local total = #ops + rest
	if rest > 0 then
		ops[#ops + 1] = record.rec:frame { tree = t, events = evs,
			more = more }
	end
	for i, n in ipairs(ops) do
		local what = total == 1 and line or
			string.format("%s\n[operation %d of %d]", line, i, total)
		if i > OPS_MAX then
			what = string.format("%s\n[operations %d to %d of %d]",
				line, i, total, total)
		end
		record.rec:amend(n, { output = i == #ops and text or "",
			command = what })
	end
end

reader {
	name = "record",
	event = function(ev, t)
		local evs = record.events
		if #record.ops < OPS_MAX or #evs < 400 then
			evs[#evs + 1] = ev
		else
			record.more = record.more + 1
		end
		record.tree = t
		if ev.event == "done" then record_op(t) end
	end,
	done = function(line) record_line(line, true) end,
}

local function record_save(file)
	if not record.rec then
		return nil, "nothing recorded: say 'record on' first"
	end
	return write_file(file, record.rec:html())
end

command {
	name = "record", args = "on|off|save FILE", min = 1, max = 2,
	help = "record the commands that follow, for a replay in a browser",
	text = "'record on' starts recording: each operation on a tree\n" ..
		"makes a frame (the tree, the command, its output, its events);\n" ..
		"a line with none makes one too, and a line's operations past\n" ..
		"its 100th share one last frame.  After 'record off', 'record on'\n" ..
		"goes on with the same recording: no frame is dropped.\n" ..
		"'record save FILE' writes the frames so far as one HTML page\n" ..
		"that needs no network; 'record off' stops recording (not with\n" ..
		"--html, which records every command).",
	example = "record on\nalloc eth0\nrecord save replay.html",
	complete = function(text)
		if text == "" or ("on off save"):find(text, 1, true) then
			return { "on", "off", "save" }
		end
		return "files"
	end,
	run = function(args)
		local what = args[1]
		if what == "on" and not args[2] then
			local kept = record.rec and record.rec:count()
			record_start("idrsh replay")
			if kept then
				outln(("recording goes on: the %d %s so far kept"):format(
					kept, kept == 1 and "frame" or "frames"))
			end
			return true
		elseif what == "off" and not args[2] then
			if record.html then
				outln("--html records every command: recording goes on")
				return true
			end
			record_stop()
			return true
		elseif what == "save" and args[2] then
			local ok, err = record_save(args[2])
			if not ok then return nil, err end
			local n = record.rec:count()
			return output.result({ wrote = { file = args[2], frames = n } },
				("wrote %d %s to %s"):format(n, n == 1 and "frame" or
				"frames", args[2]))
		end
		return nil, usage("record")
	end,
}

-- A Lua script run while recording has no command lines: @fn(...) runs
-- with a frame each operation instead, on any tree (the reader sees
-- only those under trees.NAME).
local function watch(fn, ...)
	sh.on.record = nil
	local r, err = record.rec:watch(fn, ...)
	sh.on.record = true
	return r, err
end

-- }===============================================================

return {
	name_of = name_of,
	-- --html's start (init.lua's html_start).
	start = function(title) return record_start(title, true) end,
	line = record_line,
	save = record_save,
	watch = watch,
}
