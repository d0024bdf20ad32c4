/**
 * At most `n` callers run inside at once; the others wait in arrival order, holding nothing (no pool connection).
 * Keeps long transactions from taking every connection of the pool (docs/decisions/074) and image decoding from
 * taking every core (docs/decisions/073).
 */
export function createSlots(n: number) {
  let free = Math.max(1, n);
  const waiting: (() => void)[] = [];
  return async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
