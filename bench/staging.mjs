// npm run bench:staging: the conformance suite the way a QA team runs it against staging, with one
// full key and then with four, each against a fresh `retail-sim serve` with its rate limits on, the
// suite given no control plane (the server's /_sim is used beforehand only to play the back office:
// make the extra keys and revoke one). Writes reports/bench/staging.json and staging.md.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "dist/bin/retail-sim.js");
const KEYS = (process.env.STAGING_KEYS ?? "1,4").split(",").map(Number);
const RUNS = process.env.STAGING_RUNS ?? "20";

/** `retail-sim serve --port 0 --json`: resolves with the process and its ready line. */
function serve() {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--json"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, ready: JSON.parse(out.slice(0, nl)) });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
}

async function control(apiRoot, method, path, body) {
  const res = await fetch(`${apiRoot}/_sim${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /_sim${path} answered ${res.status}`);
  return res.json();
}

/** What a QA team makes in the back office: keys by scope, more full keys, a revoked key; and what it is given. */
async function credentials(apiRoot, fullKeys) {
  const creds = await control(apiRoot, "GET", "/credentials");
  const store = (prefix) => creds.stores.find((s) => s.prefix === prefix);
  const demo = store("demo");
  const key = (s, name) => s.keys.find((k) => k.name === name);
  const scopes = [
    "catalog:read",
    "catalog:write",
    "inventory:read",
    "inventory:write",
    "customers:read",
    "customers:write",
    "sales:read",
  ];
  const args = ["--token", key(demo, "full").token];
  for (const scope of scopes) args.push("--key", `${scope}=${key(demo, scope).token}`);
  args.push("--key", `none=${key(demo, "none").token}`);
  for (let i = 1; i < fullKeys; i++) {
    const made = await control(apiRoot, "POST", "/stores/demo/keys", {
      name: `qa-full-${i}`,
      scopes: ["catalog:write", "inventory:write", "customers:write", "sales:read"],
    });
    args.push("--extra-token", made.token);
  }
  const revoked = await control(apiRoot, "POST", "/stores/demo/keys", { name: "qa-revoked", scopes: ["catalog:read"] });
  await control(apiRoot, "POST", `/keys/${revoked.id}/revoke`);
  args.push("--revoked-token", revoked.token);
  args.push("--other-store-token", `other=${key(store("other"), "full").token}`);
  args.push("--lite-token", `lite=${key(store("lite"), "full").token}`);
  const client = creds.oauth_clients[0];
  args.push(
    "--oauth-client",
    `${client.client_id}:${client.client_secret}`,
    "--oauth-redirect-uri",
    client.redirect_uris[0],
  );
  return { base: demo.base_url, args };
}

function run(args) {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, "conformance", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c) => {
    stderr += c;
    process.stderr.write(c);
  });
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, seconds: (Date.now() - started) / 1000, stderr })),
  );
}

const results = [];
for (const keys of KEYS) {
  const { child, ready } = await serve();
  try {
    const { base, args } = await credentials(ready.api_root, keys);
    const out = mkdtempSync(join(tmpdir(), "retail-sim-staging-"));
    console.error(
      `\n== ${keys} full key${keys === 1 ? "" : "s"}: retail-sim conformance --target ${base} (no --control), --runs ${RUNS}`,
    );
    const r = await run(["--target", base, ...args, "--runs", RUNS, "--out", out, "--format", "json"]);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const requests = report.rules.reduce((n, x) => n + x.requests, 0);
    results.push({
      keys,
      exit: r.code,
      seconds: r.seconds,
      waited_seconds: report.pacing.waited_ms / 1000,
      unrequested_429: report.pacing.unrequested_429,
      requests,
      summary: report.summary,
      not_checked: report.not_checked,
    });
  } finally {
    child.kill("SIGTERM");
  }
}

const one = results.find((r) => r.keys === 1);
const lines = [
  "# Conformance against a staging-like target",
  "",
  `\`retail-sim serve\` with rate limits on, the suite without \`--control\`, \`--runs ${RUNS}\`, every credential option given.`,
  "",
  "| full keys | exit | time (s) | waiting (s) | requests | unrequested 429 | verdict | vs one key |",
  "|---|---|---|---|---|---|---|---|",
  ...results.map(
    (r) =>
      `| ${r.keys} | ${r.exit} | ${r.seconds.toFixed(0)} | ${r.waited_seconds.toFixed(0)} | ${r.requests} | ${r.unrequested_429} | ${r.summary.verdict} | ${one ? (r.seconds / one.seconds).toFixed(2) : "-"} |`,
  ),
  "",
];
mkdirSync(join(ROOT, "reports/bench"), { recursive: true });
writeFileSync(join(ROOT, "reports/bench/staging.json"), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(ROOT, "reports/bench/staging.md"), lines.join("\n"));
console.log(lines.join("\n"));
