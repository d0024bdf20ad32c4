/** Tips from fans to creators (issue 32 item 5, docs/decisions/304). Import-free (docs/decisions/050). */

/** The consumer app and the console translate by these exact strings. */
export const TIP_MESSAGES = {
  ownPage: "You cannot tip your own page",
  amountRange: "A tip must be between {{min}} and {{max}} credits",
  messageTooLong: "A tip message can be at most {{max}} characters",
  itemNotOnPage: "This item is not on this creator's page",
  fanBanned: "This account is banned and cannot send tips",
  alreadyReversed: "This tip was already reversed",
  settingsInvalid: "Tip settings need 1 to 6 presets between a minimum and a maximum of whole credits",
} as const;

/** The keyed site setting staff edit (console › site settings) for tips; TIP_DEFAULTS until they first save it. */
export const TIP_SETTING = "tips";
export interface TipSettings {
  /** the amounts offered as one tap, in credits */
  presets: number[];
  /** the smallest and largest tip, custom amounts included */
  min: number;
  max: number;
}
export const TIP_DEFAULTS: TipSettings = { presets: [10, 50, 100, 500], min: 5, max: 10_000 };
/** No setting can allow a tip above this: one credit movement stays within the ledger's staff adjustment limit. */
export const TIP_MAX_LIMIT = 1_000_000;
export const TIP_MESSAGE_MAX = 300;

/** A tip's life: completed when sent; reversed by staff as fraudulent (the fan refunded, the creator's earning taken back). */
export const TIP_STATUSES = ["completed", "reversed"] as const;
export type TipStatus = (typeof TIP_STATUSES)[number];

/** The fan's side of a tip in the ledger (the creator's side is EARNING_REASON.tip and .tipClawback). */
export const TIP_LEDGER_REASON = {
  /** the tip leaving the fan's balance */
  sent: "creator_tip",
  /** the tip returned to the fan when staff reversed it */
  reversed: "creator_tip_reversal",
} as const;
