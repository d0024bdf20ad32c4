import { exponent } from "../../contract/currencies.ts";

/** "1.99" for 199 USD: the decimal string PayPal and receipts use. */
export function minorToDecimal(minor: number, currency: string): string {
  const e = exponent(currency);
  return e === 0 ? String(minor) : (minor / 10 ** e).toFixed(e);
}

/** "$1.99": the price as people read it (English formatting; the client formats per language). */
export function formatMinor(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: exponent(currency) }).format(minor / 10 ** exponent(currency));
}

/** 199 for "1.99" USD; NaN when the string is not an amount in that currency's precision. */
export function decimalToMinor(value: string, currency: string): number {
  const e = exponent(currency);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m || (m[2]?.length ?? 0) > e) return Number.NaN;
  return Number(m[1]) * 10 ** e + Number((m[2] ?? "").padEnd(e, "0") || 0);
}
