import type { Tx } from "../../db/client.ts";
import { IMPORT_COLUMNS } from "../../contract/imports.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { PixelsService } from "../pixels/pixels.service.ts";
import type { ProductBody } from "../products/products.admin.schema.ts";
import type { ProductsAdminService } from "../products/products.admin.service.ts";
import type { UsersAdminService } from "../users/users.admin.service.ts";
import { creditGrantRow, pixelIdRow, type CreditGrantRow, type PixelIdRow } from "./imports.schema.ts";
import { productsList } from "./imports.products.ts";
import type { ImportListSpec, ParsedRow } from "./imports.list-spec.ts";

export interface ListDeps {
  pixels: PixelsService;
  credits: CreditsService;
  users: UsersAdminService;
  products: ProductsAdminService;
}

function pixelIds({ pixels }: ListDeps): ImportListSpec<PixelIdRow> {
  const channelsOf = (rows: ParsedRow<PixelIdRow>[], tx?: Tx) => pixels.channelIdsByCode([...new Set(rows.map((r) => r.data.channel))], tx);
  return {
    columns: IMPORT_COLUMNS["pixel-ids"],
    schema: pixelIdRow,
    example: ["default", 1, null, "1234567890"],
    async check(rows) {
      const channels = await channelsOf(rows);
      return new Map(rows.filter((r) => !channels.has(r.data.channel)).map((r) => [r.row, "No channel has this code"]));
    },
    // a pixel id the channel has already is left as it is, so a list run again adds nothing twice
    async write(staffId, rows, _digest, tx) {
      const channels = await channelsOf(rows, tx);
      // a channel deleted since the preview: the file no longer says what staff saw
      if (rows.some((r) => !channels.has(r.data.channel))) throw HttpError.conflict("A channel of this list no longer exists: preview the file again");
      const bodies = rows.map(({ data }) => ({ channelId: channels.get(data.channel)!, kind: data.kind, event: data.event, value: data.value }));
      const applied = await pixels.addPixelIdsOnce(staffId, bodies, tx);
      return { applied, unchanged: rows.length - applied };
    },
  };
}

function creditGrants({ credits, users }: ListDeps): ImportListSpec<CreditGrantRow> {
  return {
    columns: IMPORT_COLUMNS["credit-grants"],
    schema: creditGrantRow,
    example: [1, 100, "Apology for the outage of 27 November"],
    async check(rows) {
      const known = await users.existingIds([...new Set(rows.map((r) => r.data.user_id))]);
      return new Map(rows.filter((r) => !known.has(r.data.user_id)).map((r) => [r.row, "No account has this user id"]));
    },
    // each grant is the staff adjustment keyed by the file and its row: the same file applied again grants nothing
    async write(staffId, rows, digest, tx) {
      let applied = 0;
      for (const { row, data } of rows) {
        const r = await credits.adjustCredits(
          { staffId, userId: data.user_id, delta: data.credits, reason: data.reason, idempotencyKey: `import:${digest}:row:${row}` },
          tx,
        );
        if (r.applied) applied++;
      }
      return { applied, unchanged: rows.length - applied };
    },
  };
}

interface Lists {
  "pixel-ids": ImportListSpec<PixelIdRow>;
  "credit-grants": ImportListSpec<CreditGrantRow>;
  products: ImportListSpec<ProductBody>;
}

export function importLists(deps: ListDeps): Lists {
  return { "pixel-ids": pixelIds(deps), "credit-grants": creditGrants(deps), products: productsList(deps.products) };
}
