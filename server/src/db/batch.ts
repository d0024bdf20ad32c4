/**
 * Reads by key that arrive in the same turn of the event loop share one round trip: each caller gets the value read
 * for its key (undefined when none). Under a burst of cold reads, one query answers them all instead of each waiting
 * for a pool connection of its own (docs/decisions/226). At most `maxKeys` keys go into one read.
 */
export function createBatchReader<K, V>(read: (keys: K[]) => Promise<Map<K, V>>, maxKeys = 200): (key: K) => Promise<V | undefined> {
  type Waiter = { resolve: (v: V | undefined) => void; reject: (err: unknown) => void };
  let waiting = new Map<K, Waiter[]>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += maxKeys) {
      const part = keys.slice(i, i + maxKeys);
      read(part).then(
        (found) => {
          for (const k of part) for (const w of batch.get(k)!) w.resolve(found.get(k));
        },
        (err: unknown) => {
          for (const k of part) for (const w of batch.get(k)!) w.reject(err);
        },
      );
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      let list = waiting.get(key);
      if (!list) waiting.set(key, (list = []));
      list.push({ resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // after the I/O phase: every request parsed in this turn has asked by then
        setImmediate(flush);
      }
    });
}
