import { ensureViteBuild } from "./vite-build.ts";

/** Builds dist/console when any file it was built from changed (20-60 s). */
export function ensureConsoleBuilt(root = process.cwd()): Promise<void> {
  return ensureViteBuild("console", root);
}

/**
 * Signs a staff member into the built console (password, then a fresh one-time code) in a new page of `browser`, and
 * answers the page once the console has left its login screen (and, on a desktop, shows its menu).
 */
export async function signInToConsole(
  browser: import("playwright-core").Browser,
  url: string,
  s: import("../staff-utils.ts").StaffCredentials,
  width = 1400,
): Promise<import("playwright-core").Page> {
  const { freshTotpCode } = await import("../staff-utils.ts");
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${url}/console/login`);
  await page.fill('input[name="username"]', s.username);
  await page.fill('input[name="password"]', s.password);
  await page.fill('input[name="code"]', await freshTotpCode(s));
  await page.click('button[type="submit"]');
  await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 15_000 });
  // on a desktop the menu shows once the console has loaded; a phone keeps it folded away
  if (width >= 900) await page.waitForSelector(".RaSidebar-fixed a[href='/console']", { timeout: 15_000 });
  return page;
}
