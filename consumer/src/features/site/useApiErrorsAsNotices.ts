import { useEffect } from "react";
import { onApiError } from "../../lib/api-client.ts";
import { translateMessage } from "../../i18n/index.ts";
import { notifications } from "./notifications.ts";

/** API errors nobody handles inline are shown once, translated, in the snackbar. */
export function useApiErrorsAsNotices(): void {
  useEffect(() => onApiError((error) => notifications.show(translateMessage(error.message), "error")), []);
}
