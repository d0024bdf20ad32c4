import simpleRestProvider from "ra-data-simple-rest";
import { apiUrl, httpClient } from "./http.ts";

/** ra-data-simple-rest against /admin/api, with the staff token on every call. */
export const dataProvider = simpleRestProvider(apiUrl, httpClient);
