-- A 3-million-iteration while loop with arithmetic on locals (the Lua twin of loop.ds).
-- Floats, as ds numbers are: `%` of floats, as in ds.
local function run()
   local i = 0.0
   local s = 0.0
   while i < 3000000 do
      s = (s + i * 3) % 1000003
      i = i + 1
   end
   return s
end
print(string.format("%d", run()))
