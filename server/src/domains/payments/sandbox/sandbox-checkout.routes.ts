import i18next, { type TFunction } from "i18next";
import type { Request, Response } from "express";
import { z } from "zod";
import type { ApiRouter } from "../../../http/api.ts";
import { HttpError } from "../../../http/errors.ts";
import { formatMinor } from "../../products/money.ts";
import type { SandboxGateway, SandboxView } from "./sandbox-gateway.ts";
import type { SandboxSubscriptions } from "./sandbox-subscriptions.ts";
import en from "./locales/en.json" with { type: "json" };
import ja from "./locales/ja.json" with { type: "json" };
import ko from "./locales/ko.json" with { type: "json" };
import ru from "./locales/ru.json" with { type: "json" };
import { LANGUAGES } from "../../../contract/locales.ts";

type Language = (typeof LANGUAGES)[number];

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { sandbox: en }, ja: { sandbox: ja }, ko: { sandbox: ko }, ru: { sandbox: ru } },
  ns: ["sandbox"],
  defaultNS: "sandbox",
  fallbackLng: "en",
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  // every value is escaped by `html` below, once
  interpolation: { escapeValue: false },
});

const params = z.object({ sessionId: z.string().regex(/^sbx_[A-Za-z0-9_-]{20,64}$/, { error: "Unknown checkout" }) });
const query = z.object({ lang: z.enum(LANGUAGES).optional() });
const subParams = z.object({ subscriptionId: z.string().regex(/^sbsub_[a-f0-9]{24}$/, { error: "Unknown subscription" }) });
const challengeBody = z.object({ result: z.enum(["pass", "fail"], { error: "Choose how the verification ends" }) });

/** The `lang` query wins; otherwise the browser's Accept-Language; otherwise English. */
function languageOf(req: Request, asked: Language | undefined): Language {
  return asked ?? ((req.acceptsLanguages(...LANGUAGES) || "en") as Language);
}

function html(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(res: Response, lang: Language, title: string, body: string, status = 200): void {
  res
    .status(status)
    .type("html")
    .setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
    .send(`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f7;margin:0;display:flex;justify-content:center;padding:40px 16px;color:#1d1d28}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0001;padding:28px;max-width:420px;width:100%}
h1{font-size:1.3rem;margin:0 0 12px}.note{background:#fff6db;border-radius:8px;padding:10px 12px;font-size:.9rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:18px 0}dt{color:#667}dd{margin:0;font-weight:600}
form{margin:10px 0}button{width:100%;padding:12px;border-radius:8px;border:0;font-size:1rem;cursor:pointer}
.pay{background:#4b3cf5;color:#fff}.secure{background:#1f7a4d;color:#fff}.decline{background:#eee;color:#b00020}
</style></head><body><main>${body}</main></body></html>`);
}

function button(action: string, label: string, cls: string, fields = ""): string {
  return `<form method="post" action="${html(action)}">${fields}<button class="${cls}" type="submit">${html(label)}</button></form>`;
}

function closedPage(res: Response, lang: Language, t: TFunction, view: SandboxView): void {
  const key = view.state === "expired" ? "expired" : "closed";
  page(
    res,
    lang,
    t(`${key}Title`),
    `<h1>${html(t(`${key}Title`))}</h1><p>${html(t(`${key}Text`))}</p><p><a href="${html(view.session.returnUrl)}">${html(t("back"))}</a></p>`,
    410,
  );
}

/**
 * The sandbox provider's hosted checkout: pages a browser visits like a real provider's, in the buyer's language.
 * Each button posts a form; the gateway notifies Reverie's webhook, then the browser goes back to the SPEC callback.
 */
export function sandboxCheckoutRoutes(api: ApiRouter, gateway: SandboxGateway, subscriptions: SandboxSubscriptions) {
  const tags = ["sandbox checkout"];
  const pageAnswer = { kind: "file", contentType: "text/html", description: "The page (a 303 to the challenge page while one is pending)" } as const;
  const onward = { kind: "redirect", status: 303, description: "On to the next page: the challenge, the SPEC callback, or this checkout closed" } as const;
  const base = (id: string, lang: Language) => ({ self: `/sandbox-pay/${encodeURIComponent(id)}`, q: `?lang=${lang}` });

  api.get(
    "/sandbox-pay/:sessionId",
    { summary: "Sandbox hosted checkout page", tags, auth: "public", params, query, response: pageAnswer },
    async ({ params: p, query: q, req, res }) => {
      const lang = languageOf(req, q.lang);
      const t = i18n.getFixedT(lang);
      const view = await gateway.view(p.sessionId);
      if (view.state === "challenge") return res.redirect(303, `${base(p.sessionId, lang).self}/challenge${base(p.sessionId, lang).q}`);
      if (view.state !== "open") return closedPage(res, lang, t, view);
      const { self, q: lq } = base(p.sessionId, lang);
      const s = view.session;
      page(
        res,
        lang,
        t("title"),
        `<h1>${html(t("title"))}</h1><p class="note">${html(t("testMode"))}</p>
<dl><dt>${html(t("order", { orderNo: s.orderNo }))}</dt><dd>${html(s.description)}</dd><dt>${html(t("amount"))}</dt><dd>${html(formatMinor(s.amountMinor, s.currency))}</dd></dl>
${s.renewEveryDays ? `<p>${html(t("renewsEvery", { count: s.renewEveryDays }))}</p>` : ""}
${button(`${self}/pay${lq}`, t("pay"), "pay")}${button(`${self}/3ds${lq}`, t("pay3ds"), "secure")}${button(`${self}/decline${lq}`, t("decline"), "decline")}`,
      );
    },
  );

  api.get(
    "/sandbox-pay/:sessionId/challenge",
    { summary: "Sandbox 3-D Secure challenge page", tags, auth: "public", params, query, response: pageAnswer },
    async ({ params: p, query: q, req, res }) => {
      const lang = languageOf(req, q.lang);
      const t = i18n.getFixedT(lang);
      const view = await gateway.view(p.sessionId);
      if (view.state !== "challenge") return closedPage(res, lang, t, view.state === "open" ? { state: "closed", session: view.session } : view);
      const { self, q: lq } = base(p.sessionId, lang);
      page(
        res,
        lang,
        t("challengeTitle"),
        `<h1>${html(t("challengeTitle"))}</h1><p class="note">${html(t("testMode"))}</p><p>${html(t("challengeText", { amount: formatMinor(view.session.amountMinor, view.session.currency) }))}</p>
${button(`${self}/challenge${lq}`, t("challengePass"), "secure", '<input type="hidden" name="result" value="pass">')}${button(`${self}/challenge${lq}`, t("challengeFail"), "decline", '<input type="hidden" name="result" value="fail">')}`,
      );
    },
  );

  /** Runs a button's action and sends the browser on; a second click or a lapsed checkout lands on the closed page. */
  async function act(id: string, lang: Language, res: Response, action: () => Promise<string>): Promise<void> {
    let next: string;
    try {
      next = await action();
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 409)) throw err;
      next = `${base(id, lang).self}${base(id, lang).q}`;
    }
    res.redirect(303, next);
  }

  api.post(
    "/sandbox-pay/:sessionId/pay",
    { summary: "Sandbox: pay", tags, auth: "public", params, query, response: onward },
    ({ params: p, query: q, req, res }) => act(p.sessionId, languageOf(req, q.lang), res, () => gateway.pay(p.sessionId)),
  );

  api.post(
    "/sandbox-pay/:sessionId/3ds",
    { summary: "Sandbox: pay with 3-D Secure (challenge first)", tags, auth: "public", params, query, response: onward },
    ({ params: p, query: q, req, res }) => {
      const lang = languageOf(req, q.lang);
      return act(p.sessionId, lang, res, async () => {
        await gateway.startChallenge(p.sessionId);
        return `${base(p.sessionId, lang).self}/challenge${base(p.sessionId, lang).q}`;
      });
    },
  );

  api.post(
    "/sandbox-pay/:sessionId/challenge",
    { summary: "Sandbox: finish the 3-D Secure challenge", tags, auth: "public", params, query, body: challengeBody, response: onward },
    ({ params: p, query: q, body, req, res }) =>
      act(p.sessionId, languageOf(req, q.lang), res, () => gateway.finishChallenge(p.sessionId, body.result === "pass")),
  );

  api.post(
    "/sandbox-pay/:sessionId/decline",
    { summary: "Sandbox: decline", tags, auth: "public", params, query, response: onward },
    ({ params: p, query: q, req, res }) => act(p.sessionId, languageOf(req, q.lang), res, () => gateway.decline(p.sessionId)),
  );

  subscriptionRoutes(api, subscriptions);
}

/**
 * The sandbox's page of a plan's subscription (docs/decisions/257): its state and periods, and a button that charges
 * the next period now, so a renewal can be tried without waiting for the period to end.
 */
function subscriptionRoutes(api: ApiRouter, subscriptions: SandboxSubscriptions) {
  const tags = ["sandbox checkout"];
  const self = (id: string, lang: Language) => `/sandbox-pay/subscriptions/${encodeURIComponent(id)}?lang=${lang}`;

  api.get(
    "/sandbox-pay/subscriptions/:subscriptionId",
    {
      summary: "Sandbox subscription page",
      tags,
      auth: "public",
      params: subParams,
      query,
      response: { kind: "file", contentType: "text/html", description: "The subscription's page" },
    },
    async ({ params: p, query: q, req, res }) => {
      const lang = languageOf(req, q.lang);
      const t = i18n.getFixedT(lang);
      const sub = await subscriptions.find(p.subscriptionId);
      const date = new Intl.DateTimeFormat(lang, { dateStyle: "medium" }).format(sub.currentPeriodEnd);
      page(
        res,
        lang,
        t("subscriptionTitle"),
        `<h1>${html(t("subscriptionTitle"))}</h1><p class="note">${html(t("testMode"))}</p>
<dl><dt>${html(t("order", { orderNo: sub.orderNo }))}</dt><dd>${html(sub.session.description)}</dd><dt>${html(t("amount"))}</dt><dd>${html(formatMinor(sub.amountMinor, sub.currency))}</dd>
<dt>${html(t("subscriptionState"))}</dt><dd data-status="${html(sub.status)}">${html(t(`subscriptionStatus.${sub.status}`))}</dd>
<dt>${html(t("periodsCharged"))}</dt><dd>${html(sub.period)}</dd><dt>${html(t("periodEnds"))}</dt><dd>${html(date)}</dd></dl>
${sub.status === "active" ? button(`/sandbox-pay/subscriptions/${encodeURIComponent(sub.id)}/renew?lang=${lang}`, t("renewNow"), "pay") : ""}
<p><a href="${html(sub.session.returnUrl)}">${html(t("back"))}</a></p>`,
      );
    },
  );

  api.post(
    "/sandbox-pay/subscriptions/:subscriptionId/renew",
    {
      summary: "Sandbox: charge the subscription's next period now",
      tags,
      auth: "public",
      params: subParams,
      query,
      response: { kind: "redirect", status: 303, description: "Back to the subscription's page" },
    },
    async ({ params: p, query: q, req, res }) => {
      try {
        await subscriptions.renewNow(p.subscriptionId);
      } catch (err) {
        // a second click, or a subscription that no longer renews: the page shows its state
        if (!(err instanceof HttpError && err.status === 409)) throw err;
      }
      res.redirect(303, self(p.subscriptionId, languageOf(req, q.lang)));
    },
  );
}
