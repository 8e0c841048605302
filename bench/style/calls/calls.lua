-- The Lua twin of calls/*.ds: 1 million calls of a small function; floats, as ds numbers are.
local function f(x) return x % 7 + 1 end
local function run()
   local i = 0.0
   local s = 0.0
   while i < 1000000 do
      s = s + f(i)
      i = i + 1
   end
   return s
end
print(string.format("%d", run()))
