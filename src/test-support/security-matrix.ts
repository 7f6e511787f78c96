// Shared set-up of the security matrix (src/http/security-*.test.ts): the operations table's cases, an
// address per matrix block and operation (failed authentications count per address), requests and keys.
import { expect } from "vitest";
import type { Operation } from "../contract/operation.js";
import { SCOPES } from "../contract/scopes.js";
import { createHash } from "node:crypto";
import type { Simulator } from "../simulator.js";
import { call, type CallOptions, type Reply } from "./sim.js";
import { ALL_OPERATIONS, control, label, type BuiltRequest, type Ids } from "./security.js";

export const OPS: readonly Operation[] = ALL_OPERATIONS;
/** SHA-256 in hex, computed here independently of kernel/digest.ts. */
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
export const DAY = 24 * 60 * 60;
export const ALL_SCOPES = "catalog:write inventory:write customers:write sales:read";

/** The operation of the table that serves `method path` (path under `/{prefix}/v1`). */
export function operationAt(method: string, path: string): Operation {
  const rest = path.replace(/^\/[^/]+\/v1/, "");
  const found = OPS.find(
    (op) => op.method === method && new RegExp(`^${op.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`).test(rest),
  );
  if (!found) throw new Error(`no operation serves ${method} ${path}`);
  return found;
}

/** Each operation once, with its index (for its own network address). */
export const opCases = (ops: readonly Operation[]) => ops.map((op, i) => [label(op), { op, i }] as const);

/** A network address per matrix block and operation, so that failure counts never mix. */
export const addr = (block: number, i: number) => `10.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`;

export const outcome = (reply: Reply) => ({ status: reply.status, code: reply.json?.error?.code ?? null });

export function send(sim: Simulator, req: BuiltRequest, options: CallOptions): Promise<Reply> {
  return call(sim, req.method, req.path, {
    body: req.body,
    ...options,
    headers: { ...req.headers, ...options.headers },
  });
}

/** Ids that exist nowhere (a v4 UUID for every kind): for requests whose refusal comes before any lookup. */
export const NOWHERE: Ids = new Proxy(
  {},
  { get: (_t, key) => (typeof key === "string" ? "0b9d3a4e-5c1f-4e7a-9b2d-7f3e1a2c4d5e" : undefined) },
);

export async function createKey(
  sim: Simulator,
  name: string,
  scopes: readonly string[] = SCOPES,
): Promise<{ id: string; token: string }> {
  const created = await control(sim, "POST", "/stores/demo/keys", { name, scopes });
  expect(created.status).toBe(201);
  return created.json;
}

export async function advance(sim: Simulator, seconds: number): Promise<void> {
  const moved = await control(sim, "POST", "/clock", { advance_seconds: seconds });
  expect(moved.status).toBe(200);
}

// ------------------------------------------------------------------------------------------------
