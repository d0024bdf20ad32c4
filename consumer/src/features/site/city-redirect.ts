import { api } from "../../lib/api-client.ts";
import { STORAGE_PREFIX } from "../../lib/storage.ts";

const ASKED = `${STORAGE_PREFIX}city_redirect_asked`;
let asked = false;

/**
 * SPEC.md §7 redirectByCity, asked by the route guard on the app's first navigation in a tab (issue 31.9): when the
 * marketers' rules send this visitor's city or country elsewhere, the tab goes there. Not awaited, so the page (and
 * its largest paint) never waits on the GeoIP lookup; once per tab, so coming back from the other site with the
 * back button does not send the visitor away again.
 */
export function followCityRedirect(): void {
  if (asked) return;
  asked = true;
  try {
    if (sessionStorage.getItem(ASKED)) return;
    sessionStorage.setItem(ASKED, "1");
  } catch {
    // no session storage: asked once per load of the app instead
  }
  api
    .get("/api/Index/redirectByCity", { quiet: true })
    .then(({ url }) => {
      if (url && url !== window.location.href) window.location.replace(url);
    })
    .catch(() => {
      // no answer: the visitor stays here, which is what no rule means too
    });
}
