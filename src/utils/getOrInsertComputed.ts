/**
 * The value `map` holds for `key`, first set to `compute(key)` when it holds none (TC39's
 * `Map.prototype.getOrInsertComputed`, not in Node 20). In hot loops pass a function made
 * once, not an arrow written in the loop (one closure a call).
 */
export function getOrInsertComputed<K, V>(map: Map<K, V>, key: K, compute: (key: K) => V): V {
  let value = map.get(key)
  if (value === undefined) {
    value = compute(key)
    map.set(key, value)
  }
  return value
}
