/**
 * How vendor code reaches the browser (SPEC.md §9): a vendor script gets 10 s to load and is tried 3 more times,
 * 2 s apart; a click-tracking pixel (an image request) gets 5 s and 2 more tries with doubling back-off.
 * Neither ever throws into the page: the caller gets a rejected promise it records, nothing else.
 */
export const SCRIPT_TIMEOUT_MS = 10_000;
export const SCRIPT_RETRIES = 3;
export const SCRIPT_RETRY_DELAY_MS = 2_000;
export const PIXEL_TIMEOUT_MS = 5_000;
export const PIXEL_RETRIES = 2;
export const PIXEL_FIRST_BACKOFF_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A retry asks again with a marker, so the browser cannot hand back the first, still hanging, request. */
function attemptUrl(url: string, attempt: number): string {
  return attempt === 0 ? url : `${url}${url.includes("?") ? "&" : "?"}retry=${attempt}`;
}

function scriptOnce(src: string, attrs: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const el = document.createElement("script");
    el.async = true;
    el.src = src;
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      el.onload = el.onerror = null;
      if (!ok) el.remove();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), SCRIPT_TIMEOUT_MS);
    el.onload = () => done(true);
    el.onerror = () => done(false);
    document.head.appendChild(el);
  });
}

/** Loads a vendor script; `onAttempt` hears each try (1 = first), for the test pages. */
export async function loadScript(src: string, attrs: Record<string, string> = {}, onAttempt?: (attempt: number) => void): Promise<void> {
  for (let attempt = 0; attempt <= SCRIPT_RETRIES; attempt++) {
    if (attempt > 0) await sleep(SCRIPT_RETRY_DELAY_MS);
    onAttempt?.(attempt + 1);
    if (await scriptOnce(attemptUrl(src, attempt), attrs)) return;
  }
  throw new Error(`not loaded after ${SCRIPT_RETRIES + 1} tries: ${src}`);
}

function imageOnce(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    const done = (ok: boolean) => {
      clearTimeout(timer);
      img.onload = img.onerror = null;
      if (!ok) img.src = "";
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), PIXEL_TIMEOUT_MS);
    img.onload = () => done(true);
    img.onerror = () => done(false);
    img.referrerPolicy = "no-referrer-when-downgrade";
    img.src = url;
  });
}

/** Fires a click-tracking pixel: 1 s, then 2 s between tries. */
export async function firePixel(url: string): Promise<void> {
  for (let attempt = 0; attempt <= PIXEL_RETRIES; attempt++) {
    if (attempt > 0) await sleep(PIXEL_FIRST_BACKOFF_MS * 2 ** (attempt - 1));
    if (await imageOnce(attemptUrl(url, attempt))) return;
  }
  throw new Error(`pixel not answered after ${PIXEL_RETRIES + 1} tries`);
}
