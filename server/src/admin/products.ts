import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { ProductsAdminService } from "../domains/products/products.admin.service.ts";
import { productBody, productFilter, productRecord, productSortable, productUpdateBody } from "../domains/products/products.admin.schema.ts";

/** Credit packs, plans and sales (issue 35 item 1): marketers and admins edit them; no delete, a product is made inactive (orders refer to it). */
export function productsResource(api: ApiRouter, products: ProductsAdminService) {
  const r = new AdminResource(api, "products", "Product");
  r.list({ filter: productFilter, sortable: productSortable, defaultSort: ["sortOrder", "asc"], row: productRecord }, (p) => products.list(p));
  r.get(productRecord, (id) => products.get(id));
  r.create(productBody, productRecord, (body, staff) => products.create(staff.staffId, body));
  r.update(productUpdateBody, productRecord, (id, body, staff) => products.update(staff.staffId, id, body));
}
