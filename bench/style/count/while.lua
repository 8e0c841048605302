-- The Lua twin of count/*_while_*.ds; floats, as ds numbers are.
local function run()
   local i = 0.0
   local s = 0.0
   while i < 3000000 do
      s = s + i % 7
      i = i + 1
   end
   return s
end
print(string.format("%d", run()))
