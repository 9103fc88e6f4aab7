/**
 * A cache of at most `max` entries, for values that are costly to make and cheap to keep (decrypted secrets,
 * HMAC keys, HTTP agents): `get(key, make)` returns the cached value or makes and keeps it; when full, the
 * oldest entry goes first and `onEvict` sees it (an agent is closed there).
 */
export type TBoundedCache<K, V> = { get(key: K, make: () => V): V };

export function createBoundedCache<K, V>(max: number, onEvict?: (value: V) => void): TBoundedCache<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key, make) {
      let value = entries.get(key);
      if (value === undefined) {
        value = make();
        if (entries.size >= max) {
          const [oldestKey, oldest] = entries.entries().next().value as [K, V];
          entries.delete(oldestKey);
          onEvict?.(oldest);
        }
        entries.set(key, value);
      }
      return value;
    },
  };
}

/**
 * A map of at most `max` entries whose values are replaced as they change (a count and its snapshot, a search's
 * hint): `put` makes the key the most recent; when full, the least recently put goes. `get` does not reorder.
 */
export type TRecentMap<K, V> = { get(key: K): V | undefined; put(key: K, value: V): void; readonly size: number };

export function createRecentMap<K, V>(max: number): TRecentMap<K, V> {
  const entries = new Map<K, V>();
  return {
    get: (key) => entries.get(key),
    put(key, value) {
      entries.delete(key); // re-inserted last: a Map keeps insertion order, so the least recent comes first
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}
