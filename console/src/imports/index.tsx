import { ImportPage } from "./ImportPage.tsx";

/** Spreadsheet imports, one console page per list (docs/decisions/285). */
export const pixelIdImports = { list: () => <ImportPage list="pixel-ids" /> };
export const creditGrantImports = { list: () => <ImportPage list="credit-grants" /> };
export const productImports = { list: () => <ImportPage list="products" /> };
