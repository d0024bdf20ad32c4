import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";

const FLASH_SALE_HOURS = 72;

/** Demo catalogue, prices in USD cents. Created only when missing, so staff edits survive restarts. */
function catalogue(now: Date): Prisma.ProductCreateInput[] {
  return [
    { code: "credits_50", name: "50 credits", kind: "credits", credits: 50, priceMinor: 499, sortOrder: 10 },
    { code: "credits_150", name: "150 credits", kind: "credits", credits: 150, priceMinor: 1299, sortOrder: 20 },
    { code: "credits_500", name: "500 credits", kind: "credits", credits: 500, priceMinor: 3499, bestValue: true, sortOrder: 30 },
    {
      code: "flash_video",
      name: "HD video (flash sale)",
      kind: "flash_sale",
      credits: 1,
      priceMinor: 199,
      wasPriceMinor: 400,
      perUserLimit: 3,
      flashSaleEndsAt: new Date(now.getTime() + FLASH_SALE_HOURS * 3_600_000),
      sortOrder: 0,
    },
    { code: "plan_monthly", name: "Monthly plan", kind: "subscription", credits: 300, priceMinor: 1999, intervalDays: 30, sortOrder: 40 },
  ];
}

export async function seedProducts(db: Db, now = new Date()): Promise<void> {
  for (const product of catalogue(now)) {
    await db.product.upsert({ where: { code: product.code }, update: {}, create: product });
  }
}
