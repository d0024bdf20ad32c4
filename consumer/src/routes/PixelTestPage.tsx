import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { PIXEL_EVENTS, type PixelEventName } from "../../../server/src/contract/pixels.ts";
import { consent, useConsent } from "../features/consent/consent.ts";
import { loadRuntime, trackPixel } from "../features/pixels/pixels.ts";
import { runtimeState } from "../features/pixels/runtime.ts";
import { api } from "../lib/api-client.ts";
import { clickIdCookie, storage, type StoredKey } from "../lib/storage.ts";
import { useStore } from "../lib/store.ts";

/** The three marketer pages of SPEC.md §2, one screen each: which pixels this channel has, and what they sent. */
export const PIXEL_TEST_PAGES = { "/pixel-optimization-test": "pixels", "/ad-conversion-test": "conversions", "/google-ads-tool": "googleAds" } as const;
type Mode = (typeof PIXEL_TEST_PAGES)[keyof typeof PIXEL_TEST_PAGES];

const ATTRIBUTION: StoredKey[] = ["channel_id", "cid", "utm_campaign", "utm_adset", "utm_ad", "app_version", "fbclid", "ttclid", "gclid", "exo_click_id"];

/** A test purchase: value 0 and a test event id, so it cannot be mistaken for revenue in the vendors' reports. */
function testData(event: PixelEventName) {
  return event === "order" ? { value: 0, currency: "USD", order_id: "test", event_id: `test_${Date.now()}` } : {};
}

function GoogleAdsIds() {
  const { t } = useTranslation();
  const [ids, setIds] = useState<Record<string, string[]> | null>(null);
  useEffect(() => {
    const channel = storage.get("channel_id") ?? "";
    Promise.all(
      PIXEL_EVENTS.map((e) => api.get("/api/pixelcollect/pixelList", { query: { type: 3, channel_id: channel, pixel_event: e }, quiet: true }).catch(() => [])),
    )
      .then((lists) => setIds(Object.fromEntries(PIXEL_EVENTS.map((e, i) => [e, lists[i]]))))
      .catch(() => setIds({}));
  }, []);
  return (
    <Paper sx={{ p: 2, mt: 2 }} data-testid="google-ads-ids">
      <Typography variant="h6">{t("pixelTest.googleIds")}</Typography>
      {PIXEL_EVENTS.map((e) => (
        <Typography key={e} variant="body2" sx={{ mt: 0.5, overflowWrap: "anywhere" }}>
          <b>{e}</b>: {ids === null ? "…" : ids[e]?.length ? ids[e].join(", ") : t("pixelTest.none")}
        </Typography>
      ))}
      <Typography variant="body2" sx={{ mt: 1 }}>
        gclid: {storage.get("gclid") ?? t("pixelTest.none")}
      </Typography>
    </Paper>
  );
}

function Attribution() {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 2, mt: 2 }} data-testid="attribution">
      <Typography variant="h6">{t("pixelTest.attribution")}</Typography>
      {ATTRIBUTION.map((k) => (
        <Typography key={k} variant="body2" sx={{ overflowWrap: "anywhere" }}>
          <b>{k}</b>: {storage.get(k) ?? "—"}
        </Typography>
      ))}
      <Typography variant="body2">
        <b>{t("pixelTest.kind.bemob")}</b>: {clickIdCookie() ?? "—"}
      </Typography>
    </Paper>
  );
}

export function Component() {
  const { t } = useTranslation();
  const mode: Mode = PIXEL_TEST_PAGES[useLocation().pathname as keyof typeof PIXEL_TEST_PAGES] ?? "pixels";
  const choice = useConsent();
  const state = useStore(runtimeState);
  const allowed = choice?.advertising === true;
  useEffect(() => {
    if (allowed) loadRuntime();
  }, [allowed]);
  // the conversion page offers the steps after choosing a pack
  const events: PixelEventName[] = mode === "conversions" ? PIXEL_EVENTS.slice(PIXEL_EVENTS.indexOf("checkout_order")) : [...PIXEL_EVENTS];

  return (
    <Box sx={{ maxWidth: 1000, mx: "auto", px: 2, py: 4 }} data-testid={`pixel-test-${mode}`}>
      <Typography variant="h4" component="h1">
        {t(`pixelTest.title.${mode}`)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t("pixelTest.channel", { channel: storage.get("channel_id") || "default" })}
      </Typography>
      {!allowed && (
        <Alert
          severity="warning"
          sx={{ mt: 2 }}
          action={
            <Button color="inherit" onClick={() => consent.openSettings()}>
              {t("consent.settings")}
            </Button>
          }
          data-testid="pixel-test-no-consent"
        >
          {t("pixelTest.noConsent")}
        </Alert>
      )}
      {mode === "googleAds" && <GoogleAdsIds />}
      {mode === "conversions" && <Attribution />}
      <Paper sx={{ mt: 2, overflowX: "auto" }}>
        <Table size="small" data-testid="pixel-test-vendors">
          <TableHead>
            <TableRow>
              <TableCell>{t("pixelTest.vendor")}</TableCell>
              <TableCell>{t("pixelTest.switch")}</TableCell>
              <TableCell>{t("pixelTest.ids")}</TableCell>
              <TableCell>{t("pixelTest.script")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {state.vendors
              .filter((v) => mode !== "googleAds" || v.kind === "google_ads")
              .map((v) => (
                <TableRow key={v.kind} data-testid={`pixel-vendor-${v.kind}`} data-script={v.script}>
                  <TableCell>{t(`pixelTest.kind.${v.kind}`)}</TableCell>
                  <TableCell>
                    <Chip size="small" color={v.switchOn ? "success" : "default"} label={t(v.switchOn ? "pixelTest.on" : "pixelTest.off")} />
                  </TableCell>
                  <TableCell sx={{ overflowWrap: "anywhere", maxWidth: 260 }}>{v.ids.join(", ") || "—"}</TableCell>
                  <TableCell>
                    {t(`pixelTest.status.${v.script}`)}
                    {v.attempts > 1 ? ` (${t("pixelTest.tries", { count: v.attempts })})` : ""}
                  </TableCell>
                </TableRow>
              ))}
          </TableBody>
        </Table>
        {!state.started && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t("pixelTest.notStarted")}
          </Typography>
        )}
      </Paper>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 2 }}>
        {events.map((e) => (
          <Button key={e} variant="outlined" disabled={!allowed} data-testid={`fire-${e}`} onClick={() => trackPixel(e, testData(e))}>
            {t("pixelTest.fire", { event: e })}
          </Button>
        ))}
      </Box>
      <Paper sx={{ p: 2, mt: 2 }}>
        <Typography variant="h6">{t("pixelTest.sent")}</Typography>
        <Box component="ol" sx={{ pl: 3, m: 0 }} data-testid="pixel-test-sent">
          {state.sent
            .filter((s) => mode !== "googleAds" || s.kind === "google_ads")
            .map((s) => (
              <Typography component="li" variant="body2" key={`${s.at}-${s.kind}-${s.name}-${s.detail}`} sx={{ overflowWrap: "anywhere" }}>
                {new Date(s.at).toLocaleTimeString()} · {t(`pixelTest.kind.${s.kind}`)} · {s.event} → {s.name} {s.detail}
              </Typography>
            ))}
        </Box>
        {state.sent.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("pixelTest.nothingSent")}
          </Typography>
        )}
      </Paper>
    </Box>
  );
}
