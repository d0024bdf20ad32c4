import { useEffect, useState } from "react";
import { durationPoints, type PriceRequest } from "./generation.api.ts";

/** The credit price of the request as the server computes it (getDurationPoints), refreshed as the choices change. */
export function usePrice(input: PriceRequest | null): number | null {
  const [price, setPrice] = useState<number | null>(null);
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
