/** Daily and referral gifts' words, shared by the server, the console and the consumer (docs/decisions/302). Import-free. */

/** The site setting staff set the gifts in (console: site settings). */
export const REWARDS_SETTING = "rewards";

/** What staff set; 0 turns a gift off, a cap of 0 means no cap. */
export interface RewardSettings {
  /** credits of one daily check-in */
  checkInCredits: number;
  /** at most this many check-in gifts per account per calendar month of its time zone */
  checkInMonthlyCap: number;
  /** an account this many hours old or younger is not given the daily gift yet (docs/decisions/345) */
  checkInMinAccountHours: number;
  /** at most this many daily gifts in 24 hours per network (IPv4 /24, IPv6 /64); 0: no cap */
  checkInNetworkDailyCap: number;
  /** credits the inviting account gets when the invited one first pays */
  referralInviterCredits: number;
  /** credits the invited account gets on its first payment */
  referralInviteeCredits: number;
  /** at most this many referral gifts per inviting account per calendar month (UTC) */
  referralMonthlyCap: number;
}

/** Until staff set them, no gift is given; once given, the daily gift waits a day for a new account and is capped per network. */
export const REWARD_DEFAULTS: RewardSettings = {
  checkInCredits: 0,
  checkInMonthlyCap: 0,
  checkInMinAccountHours: 24,
  checkInNetworkDailyCap: 3,
  referralInviterCredits: 0,
  referralInviteeCredits: 0,
  referralMonthlyCap: 0,
};

export const REWARD_MAX_CREDITS = 100_000;

/** The ledger reasons of the gifts. */
export const REWARD_REASONS = {
  checkIn: "daily_check_in",
  referralInviter: "referral_inviter",
  referralInvitee: "referral_invitee",
  referralReversed: "referral_reversed",
} as const;

export const REFERRAL_STATUSES = ["pending", "paid", "refused", "reversed"] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

/**
 * Why a referral gave nothing; recorded for staff, never told to the invited person. `self`: the inviter's own
 * account again (merged into it); `same_*`: shares a device cookie, a browser fingerprint, an address a sign-in came from
 * (issue 47: a fresh browser profile with the inviter's fingerprint), a normalised email or a payer with the inviter;
 * `banned_*`: with an account under a ban; `inviter_banned`; `paid_before`: the invited account had paid before it
 * was invited (a guest who paid, then signed up through a link); `off`: gifts were off at the first payment; `cap`: the
 * inviter had this month's gifts.
 */
export const REFERRAL_REFUSALS = [
  "self",
  "same_device",
  "same_fingerprint",
  "same_address",
  "same_email",
  "same_payment",
  "banned_device",
  "banned_email",
  "banned_payment",
  "inviter_banned",
  "paid_before",
  "off",
  "cap",
] as const;
export type ReferralRefusal = (typeof REFERRAL_REFUSALS)[number];

/** The landing-URL parameter and the request header that carry an invitation code, as `channel` is carried. */
export const REFERRAL_PARAM = "ref";
export const REFERRAL_HEADER = "referral-code";
export const REFERRAL_CODE = /^[A-Za-z0-9]{6,16}$/;

/** What a person is told (the consumer translates these exact strings). */
export const REWARD_MESSAGES = {
  checkedIn: "You have already checked in today",
  checkInOff: "The daily gift is not available right now",
  monthlyCap: "You have had all of this month's daily gifts",
  /** the account is younger than staff's minimum age (docs/decisions/345) */
  accountTooNew: "This account is too new for the daily gift. Please come back later",
  /** another account took today's gift on this device or from this address, or the network's gifts are all taken */
  deviceTaken: "Today's daily gift was already taken on this device or network",
  timeZone: "Please choose a valid time zone",
} as const;
