import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { BROWSER_SKIP, browserTitle, CHROMIUM, CHROMIUM_ARGS } from "../../test-support/browser.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { checkedSimulator } from "../../test-support/sim.js";

// Spec, Authentication 3: the merchant signs in, allows or cancels, and is redirected; non-admins see a
// refusal screen. Driven in headless Chromium (Debian's package; nothing downloads a browser).

let browser: Browser;
let sim: Simulator;
let url: string;

beforeAll(async () => {
  if (BROWSER_SKIP) return;
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH.`,
    );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  sim = checkedSimulator({ clock: "manual" });
  url = (await sim.listen(0)).url;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sim?.close();
});

function authorizeUrl(scope: string, state: string): { href: string; redirect: string } {
  const client = sim.credentials(url).oauth_clients[0]!;
  const redirect = client.redirect_uris[0]!;
  const q = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirect,
    scope,
    state,
  });
  return { href: `${url}/oauth/authorize?${q}`, redirect };
}

/** Opens the consent flow and signs in; resolves with the page. The app's redirect URI is not served, so requests to it are caught. */
async function signIn(email: string, scope = "catalog:read inventory:write", state = "s-123") {
  const page = await browser.newPage();
  const { href, redirect } = authorizeUrl(scope, state);
  const redirected = new Promise<string>((resolve) => {
    void page.route(`${redirect}**`, async (route) => {
      resolve(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/plain", body: "app callback" });
    });
  });
  await page.goto(href);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("retail-sim");
  await page.getByRole("button", { name: "Sign in" }).click();
  return { page, redirected };
}

describe.skipIf(BROWSER_SKIP !== undefined)(
  browserTitle("Spec, Authentication 3: the consent page in a browser"),
  () => {
    it("the admin signs in, sees the app and its scopes, clicks Allow and is redirected with a code and the state", async () => {
      const { page, redirected } = await signIn("admin@demo.example");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Connect Demo Integration to Demo Outfitters?");
      const items = await page.getByRole("listitem").allTextContents();
      expect(items).toEqual([
        "View products, prices, categories, brands, tags and suppliers (catalog:read)",
        "View stock levels (inventory:read)",
        "Adjust stock (inventory:write)",
      ]);
      await page.screenshot({ path: "reports/consent-page.png" });
      await page.getByRole("button", { name: "Allow" }).click();
      const callback = new URL(await redirected);
      expect(callback.searchParams.get("state")).toBe("s-123");
      expect(callback.searchParams.get("code")).toMatch(/^rsc_code_[0-9A-Za-z]{32}$/);
      await page.close();
    }, 30_000);

    it("Cancel redirects with error=access_denied and the state", async () => {
      const { page, redirected } = await signIn("admin@demo.example", "sales:read", "cancel-me");
      await page.getByRole("button", { name: "Cancel" }).click();
      const callback = new URL(await redirected);
      expect(Object.fromEntries(callback.searchParams)).toEqual({ error: "access_denied", state: "cancel-me" });
      await page.close();
    }, 30_000);

    it("a non-admin user sees a refusal screen and no Allow button", async () => {
      const { page } = await signIn("staff@demo.example");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("This app cannot be connected");
      expect(await page.getByRole("alert").textContent()).toBe(
        "Only a store admin can connect an app. Ask an admin of your store.",
      );
      expect(await page.getByRole("button", { name: "Allow" }).count()).toBe(0);
      await page.close();
    }, 30_000);
  },
);
