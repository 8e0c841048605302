-- The Lua twin of graph/*.ds: 2,000 nodes, the even ones `on` the next; 3,000 rounds of
-- counting the nodes with an `on` edge, over each node's table of targets.
local function run()
   local on = {}
   for i = 1, 2000 do on[i] = {} end
   for i = 1, 2000, 2 do on[i][i + 1] = true end
   local c = 0
   for _ = 1, 3000 do
      for x = 1, 2000 do
         if next(on[x]) ~= nil then c = c + 1 end
      end
   end
   return c
end
print(run())
