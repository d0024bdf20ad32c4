import { useEffect, useState } from "react";
import { durationPoints, type PriceRequest, type Quote } from "./generation.api.ts";

/** The credit price of the request as the server computes it (getDurationPoints), refreshed as the choices change. */
export function usePrice(input: PriceRequest | null): Quote | null {
  const [price, setPrice] = useState<Quote | null>(null);
  const key = JSON.stringify(input);
  useEffect(() => {
    if (!input) return setPrice(null);
    let live = true;
    const timer = setTimeout(() => {
      durationPoints(input)
        .then((p) => live && setPrice(p))
        .catch(() => live && setPrice(null));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]); // the request is identified by its JSON, so a new object with the same choices does not refetch
  return price;
}
