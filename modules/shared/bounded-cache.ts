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
