import { it } from "vitest";
import { makeSim } from "/work/main/src/test-support/sim.js";
it("x", async () => {
  const sim = makeSim();
  const j = async (p: string, init?: any) => { const r = await sim.fetch("http://sim.test" + p, init); console.log(p, r.status, [...r.headers].join(" | ")); const t = await r.text(); console.log(t.slice(0, 3000)); return t; };
  const c = JSON.parse(await j("/_sim/credentials"));
  console.log(JSON.stringify(c.users), JSON.stringify(c.oauth_clients));
  const cl = c.oauth_clients[0];
  const admin = c.users.find((u: any) => u.email === "admin@demo.example");
  const t = await j("/_sim/oauth/authorize", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user_id: admin.id, client_id: cl.client_id, redirect_uri: cl.redirect_uris[0], scope: "catalog:write sales:read", state: "s1", decision: "allow" }) });
  const code = new URL(JSON.parse(t).redirect_to).searchParams.get("code");
  const tok = await j("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: code!, redirect_uri: cl.redirect_uris[0], client_id: cl.client_id, client_secret: cl.client_secret }).toString() });
  const at = JSON.parse(tok).access_token;
  await j("/demo/v1/me", { headers: { authorization: "Bearer " + at } });
  await j("/_sim/connections");
  await j("/_sim/oauth/clients", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Mine", redirect_uris: ["https://x.example/cb"] }) });
  await j("/_sim/oauth/authorize", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user_id: "nope", client_id: cl.client_id, redirect_uri: cl.redirect_uris[0], scope: "catalog:write sales:read", state: "s1", decision: "allow" }) });
  await j("/oauth/authorize?" + new URLSearchParams({ response_type: "code", client_id: cl.client_id, redirect_uri: cl.redirect_uris[0], scope: "catalog:read", state: "<script>x</script>" }));
});
