-- The Lua twin of append/*.ds: Lua strings are immutable, so a buffer of pieces joined once
-- (the idiomatic way; `r = r .. "ab"` would be quadratic).
local function run()
   local parts = {}
   local i = 0
   while i < 1000000 do
      parts[#parts + 1] = "ab"
      i = i + 1
   end
   return #table.concat(parts)
end
print(run())
