import crypto from "node:crypto";
import net from "node:net";
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

/** An IPv6 address's eight groups, `::` expanded (an embedded IPv4 tail as two groups). */
function ipv6Groups(ip: string): string[] {
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  let text = ip;
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${ip.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...zeros, ...t].map((g) => Number.parseInt(g, 16).toString(16));
}

/**
 * The network an address belongs to, as one household, office or carrier hands addresses out: an IPv4 address's /24,
 * an IPv6 address's /64 (one subscriber's usual prefix). A gift capped per network is not multiplied by asking from
 * neighbouring addresses (docs/decisions/345). Null for anything that is not an address.
 */
export function networkOf(ip: string | undefined): string | null {
  if (!ip) return null;
  const plain = ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (net.isIPv4(plain)) return `${plain.split(".").slice(0, 3).join(".")}.0/24`;
  if (net.isIPv6(plain)) return `${ipv6Groups(plain.toLowerCase()).slice(0, 4).join(":")}::/64`;
  return null;
}
