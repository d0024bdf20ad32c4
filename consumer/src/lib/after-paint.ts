/**
 * Runs `run` once the page has loaded and the browser is idle: what is not needed for the first screen (the ad
 * pixels, the consent banner's code) never competes with it (first-load budget, docs/decisions/044 and 120).
 */
export function afterFirstPaint(run: () => void): void {
  const idle = () => ("requestIdleCallback" in window ? window.requestIdleCallback(() => run(), { timeout: 3_000 }) : setTimeout(run, 200));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
