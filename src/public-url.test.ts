import { afterEach, describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "./simulator.js";
import { checkedSimulator } from "./test-support/sim.js";

// README (byte-identical runs) and docs/interfaces.md, Library (`publicUrl`): with a public URL every URL the
// simulator writes starts with it, so two servers on different ports answer the same bytes for the same requests.

const PUBLIC = "http://sim.test:4747";
const sims: Simulator[] = [];

afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

/** Credentials, a product with an image, the OpenAPI document and an OAuth code exchange, over a real socket. */
async function transcript(publicUrl: string | undefined): Promise<{ port: number; lines: string[] }> {
  const sim = checkedSimulator({ clock: "manual", seed: 4, publicUrl });
  sims.push(sim);
  const { url, port } = await sim.listen(0);
  const lines: string[] = [];
  const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await fetch(`${url}${path}`, { method, ...init });
    const text = await res.text();
    const head = [...res.headers].filter(([k]) => k !== "connection" && k !== "keep-alive");
    lines.push(`${method} ${path}\n${res.status}\n${head.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${text}`);
    return JSON.parse(text);
  };
  const json = { "content-type": "application/json" };
  const creds = await send("GET", "/_sim/credentials");
  const demo = creds.stores.find((s: { prefix: string }) => s.prefix === "demo");
  const auth = { authorization: `Bearer ${demo.keys[0].token}` };
  await send("GET", "/demo/v1/products?sku=TOTE-CANVAS", { headers: auth });
  await send("GET", "/demo/v1/openapi.json", { headers: auth });
  await send("GET", "/oauth/openapi.json");
  const client = creds.oauth_clients[0];
  const admin = creds.users.find((u: { email: string }) => u.email === "admin@demo.example");
  const consent = await send("POST", "/_sim/oauth/authorize", {
    headers: json,
    body: JSON.stringify({
      user_id: admin.id,
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      scope: "catalog:read",
      state: "s",
      decision: "allow",
    }),
  });
  await send("POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: new URL(consent.redirect_to).searchParams.get("code") as string,
      redirect_uri: client.redirect_uris[0],
      client_id: client.client_id,
      client_secret: client.client_secret,
    }).toString(),
  });
  await send("POST", "/_sim/reset", { headers: json, body: "{}" });
  return { port, lines };
}

describe("docs/interfaces.md, Library: publicUrl fixes the origin of every URL the simulator writes", () => {
  it("two servers on different ports with the same publicUrl and seed answer byte-identical bytes", async () => {
    const a = await transcript(PUBLIC);
    const b = await transcript(PUBLIC);
    expect(a.port).not.toBe(b.port);
    expect(b.lines).toEqual(a.lines);
    const all = a.lines.join("\n");
    // Credentials' api_root and base URLs, the image URLs, the OpenAPI servers and the token's api_base_url.
    expect(all).toContain(`"api_root":"${PUBLIC}"`);
    expect(all).toContain(`"base_url":"${PUBLIC}/demo/v1"`);
    expect(all).toMatch(new RegExp(`"image_url":"${PUBLIC}/images/[0-9a-f-]{36}/original\\.png"`));
    expect(all).toContain(`"servers":[{"url":"${PUBLIC}/demo/v1","description":"This store's base URL."}]`);
    expect(all).toContain(
      `"servers":[{"url":"${PUBLIC}","description":"The API root: the token endpoint has no store prefix."}]`,
    );
    expect(all).toContain(`"api_base_url":"${PUBLIC}/demo/v1"`);
    expect(all).not.toContain("127.0.0.1");
  });

  it("without it, the port shows in those URLs and the two servers differ", async () => {
    const a = await transcript(undefined);
    const b = await transcript(undefined);
    expect(a.lines[0]).toContain(`"api_root":"http://127.0.0.1:${a.port}"`);
    expect(b.lines).not.toEqual(a.lines);
  });

  it("applies to sim.fetch whatever origin its URL names, and to the library's own calls", async () => {
    const sim = createSimulator({ clock: "manual", publicUrl: "https://Retail.Example:8443/" });
    const res = await sim.fetch("http://elsewhere.test/_sim/credentials");
    expect(((await res.json()) as { api_root: string }).api_root).toBe("https://retail.example:8443");
    expect(sim.credentials().stores[0]?.base_url).toBe("https://retail.example:8443/demo/v1");
    sims.push(sim);
    await sim.listen(0);
    expect(sim.credentials().api_root).toBe("https://retail.example:8443");
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("docs/interfaces.md, --public-url: every URL a sandbox hands out starts with api_root; with that replaced by the listen URL it answers as the public URL does", async () => {
    const sim = checkedSimulator({ clock: "manual", seed: 4, publicUrl: PUBLIC });
    sims.push(sim);
    const { url: listen } = await sim.listen(0);
    const json = { "content-type": "application/json" };
    const made = await fetch(`${listen}/_sim/sandboxes`, { method: "POST", headers: json, body: "{}" });
    expect(made.status).toBe(201);
    const sb = (await made.json()) as {
      api_root: string;
      control_url: string;
      stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
      oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
      users: { id: string; email: string }[];
    };
    expect(sb.api_root).toBe(PUBLIC);
    // The one rewrite rule: the leading api_root of a URL the simulator wrote, replaced by where it listens.
    const connect = (url: string) => `${listen}${url.slice(sb.api_root.length)}`;
    // Each URL with the credential that reads it, or null for a documents' example (a URL of the demo fixture the
    // example was drawn from, not of this sandbox: checked for its origin, not fetched).
    const handedOut = new Map<string, Record<string, string> | null>();
    const collect = (value: unknown, auth: Record<string, string> | null = {}): void => {
      if (typeof value === "string" && /^https?:\/\//.test(value)) {
        if (!handedOut.has(value) || auth !== null) handedOut.set(value, auth);
      } else if (Array.isArray(value)) for (const item of value) collect(item, auth);
      else if (value && typeof value === "object")
        for (const [k, v] of Object.entries(value)) {
          // An OAuth client's redirect URIs (and the documents' examples of one) are the client's, not the simulator's.
          if (k !== "redirect_uris" && k !== "redirect_uri")
            collect(v, k === "example" || k === "examples" ? null : auth);
        }
    };
    const demo = sb.stores.find((s) => s.prefix === "demo-sb1");
    const key = { authorization: `Bearer ${demo?.keys.find((k) => k.name === "full")?.token}` };
    collect(sb);
    const base = connect(demo?.base_url ?? "");
    collect(await (await fetch(`${base}/products?sku=TOTE-CANVAS`, { headers: key })).json(), key);
    collect(await (await fetch(`${base}/openapi.json`, { headers: key })).json(), key);
    collect(await (await fetch(connect(`${sb.api_root}/oauth/openapi.json`))).json());
    const client = sb.oauth_clients[0];
    const admin = sb.users.find((u) => u.email === "admin@demo.example");
    const consent = await fetch(`${connect(sb.control_url)}/oauth/authorize`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        user_id: admin?.id,
        client_id: client?.client_id,
        redirect_uri: client?.redirect_uris[0],
        scope: "catalog:read",
        state: "s",
        decision: "allow",
      }),
    });
    const code = new URL(((await consent.json()) as { redirect_to: string }).redirect_to).searchParams.get("code");
    const token = await fetch(connect(`${sb.api_root}/oauth/token`), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: code ?? "",
        redirect_uri: client?.redirect_uris[0] ?? "",
        client_id: client?.client_id ?? "",
        client_secret: client?.client_secret ?? "",
      }).toString(),
    });
    expect(token.status).toBe(200);
    const granted = (await token.json()) as { access_token: string };
    collect(granted, { authorization: `Bearer ${granted.access_token}` });

    const urls = [...handedOut.keys()];
    expect(urls.filter((url) => url !== sb.api_root && !url.startsWith(`${sb.api_root}/`))).toEqual([]);
    // The sandbox's control URL, api_root and auth_url, the stores' base URLs, image URLs, both documents' servers
    // and OAuth URLs, and the token's api_base_url.
    expect(urls.length).toBeGreaterThanOrEqual(10);
    expect(urls).toContain(`${PUBLIC}/_sim/sandboxes/sb1`);
    expect(urls).toContain(`${PUBLIC}/demo-sb1/v1`);
    expect(urls.some((url) => /\/images\/[0-9a-f-]{36}\/thumb\.png$/.test(url))).toBe(true);
    for (const [url, headers] of handedOut) {
      if (headers === null) continue;
      // A store's base URL is probed at /me, an origin at the token endpoint's document, anything else as it is.
      const probe = /\/v1$/.test(url) ? "/me" : url === sb.api_root ? "/oauth/openapi.json" : "";
      const rewritten = await fetch(`${connect(url)}${probe}`, { headers });
      const inProcess = await sim.fetch(`${url}${probe}`, { headers });
      expect([rewritten.status, url]).toEqual([inProcess.status, url]);
      expect(rewritten.status, url).not.toBe(404);
      expect(Buffer.from(await rewritten.arrayBuffer())).toEqual(Buffer.from(await inProcess.arrayBuffer()));
    }
  });

  it.each([
    ["sim.test", "is not a URL"],
    ["ftp://sim.test", "is not an http or https URL"],
    ["http://user:pw@sim.test", "carries credentials"],
    ["http://sim.test/api", "has a path, query or fragment"],
    ["http://sim.test/?a=1", "has a path, query or fragment"],
    ["http://sim.test?", "has a path, query or fragment"],
    ["http://sim.test/#top", "has a path, query or fragment"],
  ])("a publicUrl of %j throws: %s", (publicUrl, message) => {
    expect(() => createSimulator({ publicUrl })).toThrow(`publicUrl: "${publicUrl}" ${message}`);
  });
});
