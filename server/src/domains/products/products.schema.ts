import { z } from "zod";

export const productIdQuery = z.object({
  product_id: z.coerce.number({ error: "Please choose a product" }).int({ error: "Please choose a product" }).positive({ error: "Please choose a product" }),
});
