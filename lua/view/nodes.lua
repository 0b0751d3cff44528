-- nodes.lua - t:nodes(): every node of the tree, each parent before its
-- children, in ID order, as the node reader's tables (t:top(),
-- t:child()).  It reads the whole tree, and costs it: a view that stops
-- at a budget reads the nodes it shows, one at a time, instead.
local _, idr_methods, ida_methods, view = ...

local O = view "options"

--- t:nodes() -> list.  See idr(3lua).
local function nodes(t)
	O.tree("nodes", t)
	local list = {}
	local function visit(n)
		list[#list + 1] = n
		if n.level == 0 then return end
		for _, kid in ipairs(t:children(n)) do visit(kid) end
	end
	local top = t:top()
	if top then visit(top) end
	return list
end

idr_methods.nodes = nodes
ida_methods.nodes = nodes

return true
