import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// The Prisma CLI needs a syntactically valid URL even for `generate`; nothing connects with it then.
process.env.DATABASE_URL ??= "postgresql://reverie@127.0.0.1:5432/reverie";
const url = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  adapter: async () => new PrismaPg({ connectionString: url }),
});
