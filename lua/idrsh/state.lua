-- SPDX-License-Identifier: MIT
-- state.lua - the shell's state: one table that every module of the
-- shell shares, as SQLite's shell passes one state struct everywhere.

local setmetatable = setmetatable

-- The trees by name, which one is current, the options, what is on.
return {
	trees = {},		-- name -> idr or ida object (the Lua global 'trees')
	current = "default",
	config = {},		-- src/idrsh.c's: colours, bail, preload ...
	depth = 0,		-- nesting of 'source'
	on = {},		-- reader name -> true while it reads events
	marks = {},		-- 'mark' name -> { snap, of = { tree } (weak), tree }
	tty = false,		-- the line running came from the terminal
	only = nil,		-- in a lesson: only(line) -> true, or nil, why not
	chained = setmetatable({}, { __mode = "k" }), -- tree -> user's trace
	capture = nil,		-- while recording: what commands print
	started = nil,		-- a lesson a line just started (see run.lua)
}
