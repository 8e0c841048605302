-- The Lua twin of count/*_for_range.ds: a numeric for; floats, as ds numbers are.
local function run()
   local s = 0.0
   for i = 0.0, 2999999 do
      s = s + i % 7
   end
   return s
end
print(string.format("%d", run()))
