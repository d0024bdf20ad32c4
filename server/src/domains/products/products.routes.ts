import type { ApiRouter } from "../../http/api.ts";
import { clientContext } from "../../http/client-context.ts";
import { currencyQuery, productAnswer, getProductsAnswer, productIdQuery, userProductsLimitedAnswer } from "./products.schema.ts";
import type { ProductsService } from "./products.service.ts";

export function productsRoutes(api: ApiRouter, products: ProductsService) {
  const tags = ["products"];

  api.get(
    "/api/index/getProducts",
    { summary: "Credit packs, plans and running flash sales (prices in minor units)", tags, auth: "public", query: currencyQuery, response: getProductsAnswer },
    async ({ req, query }) => ({
      list: await products.list(new Date(), clientContext(req).attribution.channelId, query.currency),
    }),
  );

  api.get(
    "/api/index/getProductsLimited",
    { summary: "Limited offers running now, with their countdown", tags, auth: "public", query: currencyQuery, response: getProductsAnswer },
    async ({ req, query }) => ({
      list: await products.listLimited(new Date(), clientContext(req).attribution.channelId, query.currency),
    }),
  );

  api.get(
    "/api/index/getProductDetail",
    { summary: "One product, as the caller's channel lists it", tags, auth: "public", query: productIdQuery, response: productAnswer },
    ({ query, req }) => products.detail(query.product_id, new Date(), clientContext(req).attribution.channelId, query.currency),
  );

  api.get(
    "/api/Personal/user_products_limited",
    {
      summary: "Limited offers the signed-in user can still buy, with what remains for them",
      tags,
      auth: "user",
      can: ["create", "Order"],
      query: currencyQuery,
      response: userProductsLimitedAnswer,
    },
    async ({ principal, req, query }) => ({
      list: await products.listLimitedForUser(principal.userId, new Date(), clientContext(req).attribution.channelId, query.currency),
    }),
  );
}
