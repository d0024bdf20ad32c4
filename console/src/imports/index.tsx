import UploadFileIcon from "@mui/icons-material/UploadFile";
import { ImportPage } from "./ImportPage.tsx";

/** Spreadsheet imports, one console page per list (docs/decisions/285). */
export const pixelIdImports = { list: () => <ImportPage list="pixel-ids" />, icon: UploadFileIcon };
export const creditGrantImports = { list: () => <ImportPage list="credit-grants" />, icon: UploadFileIcon };
export const productImports = { list: () => <ImportPage list="products" />, icon: UploadFileIcon };
