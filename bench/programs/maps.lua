-- Map updates (the Lua twin of maps.ds): 1e6 times `m[k] = m[k] + 1` over 10,007 number keys,
-- the key stepping by a stride of 7,919, and a read of another key each time; then a sum over
-- the map in key order. Floats, as ds numbers are: a float key that holds an integer is the
-- integer key in Lua, as it is one key in ds. The map is filled with the keys in order, or with
-- `shuffled` as the argument in the order of the stride.
local function run(step)
   local n = 10007.0
   local m = {}
   local k = 0.0
   for _ = 1, 10007 do
      m[k] = 0.0
      k = (k + step) % n
   end
   k = 0.0
   local i = 0.0
   local s = 0.0
   while i < 1000000 do
      m[k] = m[k] + 1
      s = (s + m[(k * 3) % n]) % 1000003
      k = (k + 7919) % n
      i = i + 1
   end
   local keys = {}
   for p in pairs(m) do keys[#keys + 1] = p end
   table.sort(keys)
   local t = 0.0
   for _, p in ipairs(keys) do
      t = t + p * m[p]
   end
   return s, t
end
local s, t = run(arg[1] == "shuffled" and 7919 or 1)
print(string.format("%d %d", s, t))
