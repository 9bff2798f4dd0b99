/**
 * A per-isolate memo for a pure function of what a request sends (a cookie header, a token): the
 * same browser sends the same value on every request, so it is worked out once, not on each. It
 * holds at most `max` entries and forgets the oldest first, so a flood of distinct values costs
 * bounded memory and only evicts.
 */
export function boundedCache<K, V>(max: number): (key: K, compute: () => V) => V {
  const entries = new Map<K, V>();
  return (key, compute) => {
    if (entries.has(key)) return entries.get(key) as V;
    const value = compute();
    if (entries.size >= max) entries.delete(entries.keys().next().value as K);
    entries.set(key, value);
    return value;
  };
}

/**
 * A per-isolate map of hints (what this isolate last read of something: a feed's rule, an index's
 * reach, a viewer's filters), never answers: `set` makes a key the newest, and past `max` keys the
 * oldest is forgotten first, so a flood of distinct keys costs bounded memory and only evicts.
 */
export function boundedHints<K, V>(max: number): { get(key: K): V | undefined; set(key: K, value: V): void; delete(key: K): void } {
  const entries = new Map<K, V>();
  everyHintMap.push(entries);
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      entries.delete(key);
      if (entries.size >= max) entries.delete(entries.keys().next().value as K);
      entries.set(key, value);
    },
    delete: (key) => void entries.delete(key),
  };
}

/** Every map of hints this isolate holds, for `forgetAllHints`. */
const everyHintMap: Map<unknown, unknown>[] = [];

/**
 * Test only: forget every hint of this isolate, as a new isolate starts (a module test of an
 * isolate's first read of something — the hints are per isolate, and tests share one).
 */
export function forgetAllHints(): void {
  for (const entries of everyHintMap) entries.clear();
}
