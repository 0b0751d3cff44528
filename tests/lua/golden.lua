-- golden.lua - the golden files of the Lua tests (tests/golden/): what a
-- test's text must be, byte for byte.  IDR_UPDATE_GOLDEN=1 in the
-- environment writes the text into its file first, as the C unit tests
-- do (tests/unit/main.c): then read the diff as a student would.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

local G = {}

--- G.want(file, got): tests/golden/@file's text, after @got is written
-- there if IDR_UPDATE_GOLDEN is set.
function G.want(file, got)
	local path = here .. "/../golden/" .. file
	if os.getenv("IDR_UPDATE_GOLDEN") then
		local w = assert(io.open(path, "wb"))
		w:write(got)
		w:close()
	end
	local f = assert(io.open(path, "rb"), "no golden file " .. path)
	local want = f:read("a")
	f:close()
	return want
end

return G
