// A bare World and an API handler over test-only operations, for pipeline rules that no
// operation of the contract exercises yet (request bodies, Idempotency-Key).
import { Type } from "@sinclair/typebox";
import { manualClock } from "../kernel/clock.js";
import { fail, ok } from "../kernel/result.js";
import { apiError } from "../contract/errors.js";
import { op } from "../contract/operation.js";
import { buildWorld } from "../engine/build-world.js";
import type { World } from "../engine/world.js";
import { createApiHandler } from "../http/pipeline.js";
import type { Handler } from "../http/handlers/types.js";
import type { SimRequest, SimResponse } from "../http/types.js";
import { demoFixture } from "../../scenarios/fixtures/demo.js";

export function makeWorld(seed = 1): World {
  return buildWorld(demoFixture(), seed, { clock: manualClock(), sleep: () => Promise.resolve() });
}

const EchoBody = Type.Object(
  {
    n: Type.Integer(),
    nested: Type.Optional(Type.Object({ x: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const TEST_OPERATIONS = [
  op({
    id: "echo",
    method: "POST",
    path: "/echo",
    summary: "",
    description: "",
    tag: "Test",
    scope: "catalog:write",
    idempotency: "optional",
    body: EchoBody,
    kind: "single",
    successStatus: 201,
  }),
  op({
    id: "required",
    method: "POST",
    path: "/required",
    summary: "",
    description: "",
    tag: "Test",
    scope: "inventory:write",
    idempotency: "required",
    body: EchoBody,
    kind: "single",
  }),
  op({
    id: "slow",
    method: "POST",
    path: "/slow",
    summary: "",
    description: "",
    tag: "Test",
    scope: null,
    idempotency: "optional",
    body: EchoBody,
    kind: "single",
  }),
  op({
    id: "people",
    method: "GET",
    path: "/people",
    summary: "",
    description: "",
    tag: "Test",
    scope: null,
    rateClasses: ["customers"],
    kind: "items",
  }),
  op({
    id: "remove",
    method: "DELETE",
    path: "/things/{id}",
    summary: "",
    description: "",
    tag: "Test",
    scope: null,
    kind: "empty",
  }),
];

/** A test API whose handlers count their runs; `n: -1` is a client error, `n: 500` throws. */
export function testApi(world: World) {
  const runs: number[] = [];
  let release: (() => void) | undefined;
  const echo: Handler = ({ body }) => {
    const n = (body as { n: number }).n;
    runs.push(n);
    if (n === 500) throw new Error("boom");
    if (n < 0) return fail(apiError("UNPROCESSABLE", "negative"));
    return ok({ n, run: runs.length });
  };
  const handlers: Record<string, Handler> = {
    echo,
    required: echo,
    slow: async (ctx) => {
      await new Promise<void>((resolve) => (release = resolve));
      return echo(ctx);
    },
    remove: () => ok(undefined),
    people: () => ok([]),
  };
  const handle = createApiHandler(TEST_OPERATIONS, handlers);
  const send = async (
    method: string,
    path: string,
    options: {
      key?: string;
      body?: unknown;
      raw?: Uint8Array | string;
      headers?: Record<string, string>;
      tooLarge?: boolean;
    } = {},
  ): Promise<SimResponse & { json: any }> => {
    const token = world.issuedKeys.get(
      world.credentials.forStore("demo").find((c) => c.name === (options.key ?? "full"))!.id,
    )!;
    const raw = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const req: SimRequest = {
      method,
      path: `/demo/v1${path}`,
      query: "",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...options.headers },
      body: raw === undefined ? null : typeof raw === "string" ? new TextEncoder().encode(raw) : raw,
      bodyTooLarge: options.tooLarge,
      remoteAddress: "127.0.0.1",
      origin: "http://sim.test",
    };
    const res = await handle(world, req);
    return { ...res, json: res.body ? JSON.parse(String(res.body)) : null };
  };
  return { send, runs, release: () => release?.() };
}
