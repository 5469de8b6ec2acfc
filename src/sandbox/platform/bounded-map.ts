/**
 * Sets `key` in `map`, then forgets the oldest entries beyond `capacity`
 * (a Map iterates in insertion order: first in, first out). The sandbox's
 * in-memory caches use it so that no client can grow them without bound.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.set(key, value);
  while (map.size > capacity) map.delete(map.keys().next().value as K);
}
