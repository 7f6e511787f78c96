// One parallel test worker of src/sandboxes-parallel.test.ts (a node:worker_threads worker, plain JavaScript so
// no loader is needed). It talks to the simulator only over HTTP with plain `fetch`, as an SDK's test suite in
// any language would: it creates its own sandbox on a manual clock (POST /_sim/sandboxes) and repeats, in it,
// everything one worker's state used to leak into another's: a reset, clock moves that expire an OAuth access
// token and an idempotency record, a fault, a paused store, 121 requests to reach the general rate limit, and an
// OAuth code exchange. Every check is exact; a mismatch is recorded (tagged with the rule it checks) and the
// worker goes on, so the parent test sees every failure of every repetition.
import { parentPort, workerData } from "node:worker_threads";

/** @type {{ url: string, repetitions: number, worker: number, products: string[] }} */
const { url, repetitions, worker, products } = workerData;

/** Requests of the rate-limit step sent at once. */
const BATCH = Number(workerData.batch ?? 10);

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const at = (seconds) => new Date(T0 + seconds * 1000).toISOString();
const httpDate = (seconds) => new Date(T0 + seconds * 1000).toUTCString();

/** @type {{ rule: string, repetition: number, message: string }[]} */
const failures = [];
let requests = 0;
let repetition = 0;
let completed = 0;
let rule = "setup";

function check(what, actual, expected) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) failures.push({ rule, repetition, message: `${what}: expected ${e}, got ${a}` });
  return a === e;
}

/** A request; the answer's status, headers and parsed JSON body (null when empty). */
async function send(method, target, { body, form, token, headers = {} } = {}) {
  const all = { ...headers };
  if (token) all.authorization = `Bearer ${token}`;
  let payload;
  if (form) {
    all["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    all["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  requests += 1;
  const res = await fetch(target, { method, headers: all, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

const errorCode = (reply) => reply.json?.error?.code ?? reply.json?.error;

async function run() {
  rule = "setup";
  const made = await send("POST", `${url}/_sim/sandboxes`, { body: { clock: "manual" } });
  if (!check("POST /_sim/sandboxes status", made.status, 201)) return;
  const sandbox = made.json;
  const control = sandbox.control_url;
  check("the sandbox's control URL", control, `${url}/_sim/sandboxes/${sandbox.id}`);
  check("the sandbox's clock", sandbox.clock, { now: at(0), mode: "manual" });
  const store = sandbox.stores[0];
  const prefix = store.prefix;
  check(
    "the first store's prefix and base URL",
    [prefix, store.base_url],
    [`demo-${sandbox.id}`, `${url}/demo-${sandbox.id}/v1`],
  );
  const api = store.base_url;
  const keyOf = (name) => store.keys.find((k) => k.name === name).token;
  const [full, read] = [keyOf("full"), keyOf("read")];
  const client = sandbox.oauth_clients[0];
  const user = sandbox.users.find((u) => u.store_prefix === prefix);
  const redirect = client.redirect_uris[0];
  let kept;

  for (repetition = 1; repetition <= repetitions; repetition += 1) {
    rule = "reset";
    const reset = await send("POST", `${control}/reset`, { body: {} });
    check("POST reset status", reset.status, 200);
    check("the keys after a reset (they derive from the seed again)", reset.json?.stores?.[0]?.keys, store.keys);
    check("the clock after a reset", (await send("GET", `${control}/clock`)).json, { now: at(0) });
    const fresh = await send("GET", `${api}/me`, { token: read });
    check("GET /me after a reset (the store paused before is active)", fresh.status, 200);
    check("the rate-limit window after a reset", fresh.headers.get("ratelimit"), "limit=120, remaining=119, reset=60");
    check(
      "GET /tags after a reset (the standing fault is gone)",
      (await send("GET", `${api}/tags`, { token: full })).status,
      200,
    );
    if (kept) {
      const gone = await send("GET", `${api}/brands/${kept}`, { token: full });
      check("the brand written before the reset", [gone.status, errorCode(gone)], [404, "NOT_FOUND"]);
    }

    rule = "products";
    const listed = await send("GET", `${api}/products?limit=2`, { token: full });
    check("GET /products status", listed.status, 200);
    check(
      "the first products' ids (the same seed gives the same ids)",
      listed.json?.data?.map((p) => p.id),
      products,
    );
    check("the Date header on the sandbox's clock", listed.headers.get("date"), httpDate(0));

    rule = "oauth";
    const state = `w${worker}r${repetition}`;
    const consent = await send("POST", `${control}/oauth/authorize`, {
      body: {
        user_id: user.id,
        client_id: client.client_id,
        redirect_uri: redirect,
        scope: "catalog:read",
        state,
        decision: "allow",
      },
    });
    check("the headless consent status", consent.status, 200);
    const back = new URL(consent.json.redirect_to);
    check("the redirect's state", back.searchParams.get("state"), state);
    const code = back.searchParams.get("code");
    const exchange = {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      client_id: client.client_id,
      client_secret: client.client_secret,
    };
    const tokens = await send("POST", `${url}/oauth/token`, { form: exchange });
    check("the code exchange status", tokens.status, 200);
    const t = tokens.json ?? {};
    check(
      "the token response",
      [t.token_type, t.expires_in, t.scope, t.api_base_url],
      ["Bearer", 3600, "catalog:read", api],
    );
    const me = await send("GET", `${api}/me`, { token: t.access_token });
    check("GET /me with the access token", [me.status, me.json?.data?.domain_prefix], [200, prefix]);

    rule = "token-expiry";
    check(
      "moving the clock 3601 s",
      (await send("POST", `${control}/clock`, { body: { advance_seconds: 3601 } })).json,
      {
        now: at(3601),
      },
    );
    const expired = await send("GET", `${api}/me`, { token: t.access_token });
    check("the access token after 3601 s", [expired.status, errorCode(expired)], [401, "UNAUTHORIZED"]);
    const refreshed = await send("POST", `${url}/oauth/token`, {
      form: {
        grant_type: "refresh_token",
        refresh_token: t.refresh_token,
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
    });
    check("the refresh status", refreshed.status, 200);
    check("the refresh token does not rotate", refreshed.json?.refresh_token, t.refresh_token);
    const renewed = await send("GET", `${api}/me`, { token: refreshed.json?.access_token });
    check("GET /me with the refreshed access token", renewed.status, 200);
    check("the Date header after the move", renewed.headers.get("date"), httpDate(3601));
    const again = await send("POST", `${url}/oauth/token`, { form: exchange });
    check(
      "the code exchanged a second time (spec, Authentication 4: once)",
      [again.status, again.json?.error],
      [400, "invalid_grant"],
    );

    rule = "idempotency";
    const key = { "idempotency-key": `brand-${worker}-${repetition}` };
    const brand = { name: `Brand of worker ${worker}` };
    const first = await send("POST", `${api}/brands`, { token: full, body: brand, headers: key });
    check("the first POST /brands", [first.status, first.headers.get("idempotent-replayed")], [201, null]);
    const id = first.json?.data?.id;
    const replay = await send("POST", `${api}/brands`, { token: full, body: brand, headers: key });
    check(
      "the replay",
      [replay.status, replay.headers.get("idempotent-replayed"), replay.json?.data?.id],
      [201, "true", id],
    );
    check("DELETE the brand", (await send("DELETE", `${api}/brands/${id}`, { token: full })).status, 204);
    const remembered = await send("POST", `${api}/brands`, { token: full, body: brand, headers: key });
    check(
      "the replay after the delete (the record answers)",
      [remembered.status, remembered.json?.data?.id],
      [201, id],
    );
    check(
      "moving the clock 24 h + 1 s",
      (await send("POST", `${control}/clock`, { body: { advance_seconds: 86401 } })).json,
      {
        now: at(3601 + 86401),
      },
    );
    const rewritten = await send("POST", `${api}/brands`, { token: full, body: brand, headers: key });
    check(
      "the same request after 24 h is a new write",
      [rewritten.status, rewritten.headers.get("idempotent-replayed")],
      [201, null],
    );
    check("the new write's id differs", rewritten.json?.data?.id !== id, true);
    kept = rewritten.json?.data?.id;

    rule = "faults";
    const once = await send("POST", `${control}/faults`, {
      body: { path: `/${prefix}/v1/brands`, status: 500, times: 1 },
    });
    check("POST faults status", once.status, 201);
    const faulted = await send("GET", `${api}/brands`, { token: full });
    check("GET /brands under the fault", [faulted.status, errorCode(faulted)], [500, "INTERNAL"]);
    check("GET /brands after the fault's one time", (await send("GET", `${api}/brands`, { token: full })).status, 200);
    const standing = await send("POST", `${control}/faults`, { body: { path: `/${prefix}/v1/tags`, status: 503 } });
    check("POST a standing fault", standing.status, 201);
    check("GET /tags under the standing fault", (await send("GET", `${api}/tags`, { token: full })).status, 503);

    rule = "rate-limit";
    // 120 requests in batches sent at once (as a parallel SDK test would): each is counted once, whatever the order.
    const answers = [];
    for (let batch = 0; batch < 120 / BATCH; batch += 1) {
      const sent = Array.from({ length: BATCH }, () => send("GET", `${api}/outlets`, { token: read }));
      answers.push(...(await Promise.all(sent)));
    }
    check("the statuses of the first 120 requests in the window", answers.filter((a) => a.status === 200).length, 120);
    const remaining = answers.map((a) => Number(/remaining=(\d+)/.exec(a.headers.get("ratelimit") ?? "")?.[1]));
    check(
      "their RateLimit remaining values, sorted",
      remaining.sort((a, b) => a - b),
      [...Array(120).keys()],
    );
    const limited = await send("GET", `${api}/outlets`, { token: read });
    check(
      "the 121st request",
      [limited.status, errorCode(limited), limited.headers.get("retry-after")],
      [429, "RATE_LIMITED", "60"],
    );
    await send("POST", `${control}/clock`, { body: { advance_seconds: 30 } });
    const later = await send("GET", `${api}/outlets`, { token: read });
    check("30 s later", [later.status, later.headers.get("retry-after")], [429, "30"]);
    rule = "paused";
    const pause = await send("PATCH", `${control}/stores/${prefix}`, { body: { status: "paused" } });
    check("pausing the store", [pause.status, pause.json?.status], [200, "paused"]);
    const paused = await send("GET", `${api}/me`, { token: full });
    check("GET /me of the paused store", [paused.status, errorCode(paused)], [402, "RETAILER_PAUSED"]);
    const resume = await send("PATCH", `${control}/stores/${prefix}`, { body: { status: "active" } });
    check("making it active again", [resume.status, resume.json?.status], [200, "active"]);
    check("GET /me once active", (await send("GET", `${api}/me`, { token: full })).status, 200);
    check(
      "pausing it again (the reset undoes it)",
      (await send("PATCH", `${control}/stores/${prefix}`, { body: { status: "paused" } })).status,
      200,
    );

    completed += 1;
  }

  rule = "delete";
  repetition = 0;
  check("DELETE the sandbox", (await send("DELETE", control)).status, 204);
  const orphan = await send("GET", `${api}/me`, { token: full });
  check("its key once deleted", orphan.status, 401);
  check("its control URL once deleted", (await send("GET", `${control}/clock`)).status, 404);
}

try {
  await run();
} catch (error) {
  failures.push({ rule, repetition, message: `threw: ${error?.stack ?? error}` });
}
parentPort.postMessage({ worker, failures, requests, repetitions: completed });
