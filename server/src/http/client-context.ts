import crypto from "node:crypto";
import type { Request, Response } from "express";
import { REFERRAL_CODE, REFERRAL_HEADER } from "../contract/rewards.ts";

/** Where a sign-in came from (SPEC.md §7 attribution headers); the auth domain stores it on the user. */
export interface Attribution {
  channelId?: string;
  utmCampaign?: string;
  utmAdset?: string;
  utmAd?: string;
  bemobClickId?: string;
  /** the invitation code of the link the visitor came by (`?ref=`), kept like the channel (docs/decisions/302) */
  referralCode?: string;
}

/** This browser: the first-party device cookie and the fingerprint the app computes (a ban covers both, docs/decisions/154). */
export interface Device {
  id?: string;
  fingerprint?: string;
}

/** Who is calling from where. */
export interface ClientContext {
  ip?: string;
  userAgent?: string;
  attribution: Attribution;
  device: Device;
}

/** The first-party cookie naming this browser; set at guest sign-in, kept two years. */
export const DEVICE_COOKIE = "reverie_device";
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const FINGERPRINT = /^[0-9a-f]{16,64}$/;

/** One cookie of the request, as sent. */
export function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

function device(req: Request): Device {
  const id = cookie(req, DEVICE_COOKIE);
  const fingerprint = req.get("device-fingerprint")?.trim().toLowerCase();
  return { id: id && DEVICE_ID.test(id) ? id : undefined, fingerprint: fingerprint && FINGERPRINT.test(fingerprint) ? fingerprint : undefined };
}

/** The device cookie of this request, set first when the browser has none. */
export function withDeviceCookie(req: Request, res: Response, ctx: ClientContext): ClientContext {
  if (ctx.device.id) return ctx;
  const id = crypto.randomBytes(18).toString("base64url");
  res.cookie(DEVICE_COOKIE, id, { httpOnly: true, sameSite: "lax", secure: req.secure, maxAge: 2 * 365 * 86_400_000, path: "/" });
  return { ...ctx, device: { ...ctx.device, id } };
}

function header(req: Request, name: string): string | undefined {
  const v = req.get(name);
  return v?.trim() ? v.trim().slice(0, 128) : undefined;
}

function referralCode(req: Request): string | undefined {
  const code = header(req, REFERRAL_HEADER);
  return code && REFERRAL_CODE.test(code) ? code : undefined;
}

/** Who is calling from where: IP, user agent and the SPEC.md §7 attribution headers. */
export function clientContext(req: Request): ClientContext {
  return {
    ip: req.ip,
    userAgent: req.get("user-agent"),
    attribution: {
      channelId: header(req, "channel-id"),
      utmCampaign: header(req, "utm-campaign"),
      utmAdset: header(req, "utm-adset"),
      utmAd: header(req, "utm-ad"),
      bemobClickId: header(req, "bemob-click-id"),
      referralCode: referralCode(req),
    },
    device: device(req),
  };
}
