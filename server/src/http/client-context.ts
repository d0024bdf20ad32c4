import type { Request } from "express";

/** Where a sign-in came from (SPEC.md §7 attribution headers); the auth domain stores it on the user. */
export interface Attribution {
  channelId?: string;
  utmCampaign?: string;
  utmAdset?: string;
  utmAd?: string;
  bemobClickId?: string;
}

/** Who is calling from where. */
export interface ClientContext {
  ip?: string;
  userAgent?: string;
  attribution: Attribution;
}

function header(req: Request, name: string): string | undefined {
  const v = req.get(name);
  return v && v.trim() ? v.trim().slice(0, 128) : undefined;
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
    },
  };
}
