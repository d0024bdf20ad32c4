import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";

const SALE_HOURS = 72;

/** Regular prices in minor units: USD (every product has one), EUR and RUB (docs/decisions/300). */
const prices = (usd: number, eur: number, rub: number, sale?: [number, number, number]) =>
  (
    [
      ["USD", usd],
      ["EUR", eur],
      ["RUB", rub],
    ] as const
  ).map(([currency, priceMinor], i) => ({ currency, priceMinor, salePriceMinor: sale?.[i] ?? null }));

/**
 * Demo catalogue, priced in US dollars, euros and roubles. Created only when missing, so staff edits survive
 * restarts. The seeded sale is SPEC's "$1.99 per video (was $4)": the pack of one 720P 10-second video (4 credits at
 * the default prices) sells for $4.00 whenever no sale runs, $1.99 during it; in every currency each regular pack
 * costs more per credit than the sale, so the sale is a real deal (products.seed.unit.test.ts checks it;
 * docs/decisions/266).
 */
export function catalogue(now: Date): Prisma.ProductCreateInput[] {
  return [
    {
      code: "flash_video",
      name: "One 720P 10-second video",
      names: { ja: "720P・10秒の動画1本", ko: "720P 10초 영상 1편", ru: "Одно видео 720P, 10 секунд" },
      kind: "credits",
      credits: 4,
      prices: prices(400, 380, 36000, [199, 189, 17900]),
      saleStartsAt: now,
      saleEndsAt: new Date(now.getTime() + SALE_HOURS * 3_600_000),
      perUserLimit: 3,
      sortOrder: 0,
    },
    { code: "credits_50", name: "50 credits", kind: "credits", credits: 50, prices: prices(2999, 2799, 269000), sortOrder: 10 },
    { code: "credits_150", name: "150 credits", kind: "credits", credits: 150, prices: prices(7999, 7499, 719000), sortOrder: 20 },
    { code: "credits_500", name: "500 credits", kind: "credits", credits: 500, prices: prices(24999, 23999, 2249000), sortOrder: 30 },
    {
      code: "plan_monthly",
      name: "Monthly plan",
      kind: "subscription",
      credits: 300,
      prices: prices(14999, 14499, 1349000),
      intervalDays: 30,
      sortOrder: 40,
    },
  ];
}

export async function seedProducts(db: Db, now = new Date()): Promise<void> {
  for (const product of catalogue(now)) {
    await db.product.upsert({ where: { code: product.code }, update: {}, create: product });
  }
}
