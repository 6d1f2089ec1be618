// Settings every replica shares, kept in the database rather than in one machine's data folder.
import type { Queryable } from "../db/client.ts";

/** The value of `key`, setting it to `make()` first when it has none (the first writer wins). */
export async function settingOrCreate(db: Queryable, key: string, make: () => string): Promise<string> {
  await db.appSetting.createMany({ data: [{ key, value: make() }], skipDuplicates: true });
  const row = await db.appSetting.findUniqueOrThrow({ where: { key } });
  return row.value;
}
