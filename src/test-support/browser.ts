import { existsSync } from "node:fs";

// Browser tests use Debian's Chromium (never a downloaded browser). CI installs it and requires the
// tests (with `CI` or `REQUIRE_BROWSER` set, a missing browser fails them); elsewhere, on a machine
// without it, they are skipped and the suite's name says why, so `npm test` passes on a fresh machine
// as the README promises.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why browser tests skip here, or undefined when they run (Chromium present, or CI / REQUIRE_BROWSER, where they must). */
export const BROWSER_SKIP: string | undefined =
  existsSync(CHROMIUM) || process.env.CI || process.env.REQUIRE_BROWSER
    ? undefined
    : `skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH; CI and REQUIRE_BROWSER=1 require these tests)`;

/** A describe title with the skip reason when there is one. */
export const browserTitle = (title: string): string => (BROWSER_SKIP ? `${title} (${BROWSER_SKIP})` : title);

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
