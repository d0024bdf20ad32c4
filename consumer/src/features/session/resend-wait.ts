import { useEffect, useState } from "react";
import type { ApiError } from "../../lib/api-client.ts";

/**
 * The seconds until an emailed code may be asked for again, counted down on screen: started from a sent code's
 * `resend_in`, or from the one a refusal within the window carries (a 429's data), so the person sees the wait instead
 * of a bare "Too many requests". Used by the sign-in code and the account deletion code (each has its own window).
 */
export function useResendWait() {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  /** True when the refusal was the resend window: the countdown now shows the wait. */
  const waitFrom = (e: unknown): boolean => {
    const wait = (e as ApiError).data as { resend_in?: number } | null;
    if (wait?.resend_in) setLeft(wait.resend_in);
    return Boolean(wait?.resend_in);
  };
  return { left, start: setLeft, waitFrom };
}
