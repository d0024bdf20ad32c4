import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { PROVIDERS, type ProviderName } from "../../contract/orders.ts";
import type { PaypalProvider } from "./providers/paypal.provider.ts";
import type { JpayProvider } from "./providers/jpay.provider.ts";
import type { PaymentProvider } from "./providers/provider.ts";

export type ProviderRegistry = { [K in ProviderName]: K extends "paypal" ? PaypalProvider : K extends "jpay" ? JpayProvider : PaymentProvider };

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/** The provider an order or a membership names, where it is one of ours. */
export function providerNamed(providers: ProviderRegistry, name: string): PaymentProvider | undefined {
  return isProviderName(name) ? providers[name] : undefined;
}

/** A provider configured here; any other answers 'Payment function temporarily unavailable'. */
export function usableProvider(providers: ProviderRegistry, name: string): PaymentProvider {
  const provider = providerNamed(providers, name);
  if (!provider?.available()) throw new HttpError(503, MSG.paymentUnavailable);
  return provider;
}
