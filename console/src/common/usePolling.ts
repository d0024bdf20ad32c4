import { useEffect, useState } from "react";
import { httpClient } from "../http.ts";

/** Reads `url` now and every `ms` while the page is open: the newest answer, and the last read's error (null once one succeeds). */
export function usePolling<T>(url: string, ms: number): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    const load = () =>
      httpClient(url).then(
        ({ json }) => !stop && (setValue(json as T), setError(null)),
        (e: Error) => !stop && setError(e.message),
      );
    void load();
    const timer = setInterval(() => void load(), ms);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [url, ms]);
  return { value, error };
}
