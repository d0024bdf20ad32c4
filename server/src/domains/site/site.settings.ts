import type { Db, Tx } from "../../db/client.ts";

/**
 * A keyed setting as the product reads it: its check applied, the defaults when none is stored. A stored value that no
 * longer passes (written before the checks, by hand) counts as the default, never half-applied.
 */
export async function storedSetting<T>(db: Db | Tx, key: string, checked: (value: unknown) => T, defaults: T): Promise<T> {
  const row = await db.siteSetting.findUnique({ where: { key } });
  if (!row) return defaults;
  try {
    return checked(row.value);
  } catch {
    return defaults;
  }
}
