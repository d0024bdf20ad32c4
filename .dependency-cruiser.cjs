/**
 * The import rules of ARCHITECTURE.md §2 and docs/decisions/051, checked by tests/architecture/imports.unit.test.ts
 * (`npx depcruise server/src consumer/src console/src prisma/seed.ts` runs the same check by hand).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import circles make start-up order fragile and hide which module owns what.",
      from: {},
      to: { circular: true },
    },
    {
      name: "http-db-know-no-domain",
      severity: "error",
      comment: "http/, db/ and metrics/ are the plumbing every domain stands on; they must not know any domain.",
      from: { path: "^server/src/(http|db|metrics)/" },
      to: { path: "^server/src/domains/" },
    },
    {
      name: "routes-no-db-client",
      severity: "error",
      comment: "routes are HTTP only: they call their service, which talks to Prisma.",
      from: { path: "\\.routes\\.ts$" },
      to: { path: "^server/src/db/(client|database)\\.ts$|^server/src/db/generated/|@prisma/client", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "service-not-other-domains-routes",
      severity: "error",
      comment: "A service may call another domain's service, never its HTTP layer.",
      from: { path: "^server/src/domains/([^/]+)/.+\\.service\\.ts$" },
      to: { path: "^server/src/domains/[^/]+/.+\\.routes\\.ts$", pathNot: "^server/src/domains/$1/" },
    },
    {
      name: "domains-not-worker",
      severity: "error",
      comment: "The worker process is built on the domains, not the other way round (the queue lives with generation).",
      from: { path: "^server/src/domains/" },
      to: { path: "^server/src/worker/" },
    },
    {
      name: "orders-not-payments",
      severity: "error",
      comment: "Payments drive orders through the orders service; orders knows no provider.",
      from: { path: "^server/src/domains/orders/" },
      to: { path: "^server/src/domains/payments/" },
    },
    {
      name: "browser-only-contract",
      severity: "error",
      comment: "The consumer app and the console take nothing from the server but its import-free vocabulary.",
      from: { path: "^(consumer|console)/" },
      to: { path: "^server/", pathNot: "^server/src/contract/" },
    },
    {
      name: "server-not-browser",
      severity: "error",
      comment: "Server code never bundles the browser apps' source.",
      from: { path: "^server/" },
      to: { path: "^(consumer|console)/src/" },
    },
    {
      name: "contract-imports-nothing",
      severity: "error",
      comment: "server/src/contract is bundled into the browser apps and read by the server: it imports nothing at all.",
      from: { path: "^server/src/contract/" },
      to: { path: ".+" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^server/src/db/generated/|\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.server.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".json"] },
  },
};
