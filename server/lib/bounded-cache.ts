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
