import type { TSchema } from "@sinclair/typebox";
import type { Result } from "../kernel/result.js";
import { apiError, type ApiError } from "../contract/errors.js";
import {
  AuthorizeBody,
  ClientBody,
  ClockBody,
  FaultBody,
  ImageBody,
  KeyBody,
  ReasonPatchBody,
  RefundBody,
  ResetBody,
  SaleBody,
  StorePatchBody,
} from "../contract/schemas/control.js";
import { validatorFor } from "../contract/validate.js";
import * as control from "../engine/control.js";
import type { Simulator } from "../simulator.js";
import { emptyResponse, errorResponse, jsonResponse } from "./respond.js";
import { Router } from "../contract/router.js";
import type { SimRequest, SimResponse } from "./types.js";

// The /_sim control plane (interfaces.md section 3): JSON in and out, the spec's envelope on bad input.

interface ControlRoute {
  readonly body?: TSchema;
  /** Success status: 200 unless given; 204 answers with no body. */
  readonly status?: number;
  run(sim: Simulator, params: Record<string, string>, body: never, req: SimRequest): Result<unknown, ApiError>;
}

const ok = <T>(value: T) => ({ ok: true as const, value });
const fail = (error: ApiError) => ({ ok: false as const, error });

const routes = new Router<ControlRoute>()
  .add("GET", "/health", { run: () => ok({ status: "ok" }) })
  .add("GET", "/credentials", { run: (sim, _p, _b, req) => ok(sim.credentials(req.origin)) })
  .add("POST", "/reset", {
    body: ResetBody,
    run: (sim, _p, body: ResetBody, req) => {
      sim.reset(body);
      return ok(sim.credentials(req.origin));
    },
  })
  .add("GET", "/clock", { run: (sim) => ok(control.clockView(sim.world)) })
  .add("POST", "/clock", { body: ClockBody, run: (sim, _p, body: ClockBody) => control.moveClock(sim.world, body) })
  .add("POST", "/stores/{prefix}/keys", {
    body: KeyBody,
    status: 201,
    run: (sim, p, body: KeyBody) => control.createKey(sim.world, p.prefix as string, body),
  })
  .add("POST", "/keys/{id}/revoke", { run: (sim, p) => control.revokeKey(sim.world, p.id as string) })
  .add("PATCH", "/stores/{prefix}", {
    body: StorePatchBody,
    run: (sim, p, body: StorePatchBody) => control.patchStore(sim.world, p.prefix as string, body),
  })
  .add("DELETE", "/stores/{prefix}/outlets/{id}", {
    status: 204,
    run: (sim, p) => control.deleteOutlet(sim.world, p.prefix as string, p.id as string),
  })
  .add("PATCH", "/stores/{prefix}/adjustment-reasons/{id}", {
    body: ReasonPatchBody,
    run: (sim, p, body: ReasonPatchBody) =>
      control.setReasonEnabled(sim.world, p.prefix as string, p.id as string, body.enabled),
  })
  .add("GET", "/stores/{prefix}/stock/{product_id}/{outlet_id}", {
    run: (sim, p) => control.stockView(sim.world, p.prefix as string, p.product_id as string, p.outlet_id as string),
  })
  .add("POST", "/stores/{prefix}/sales", {
    body: SaleBody,
    status: 201,
    run: (sim, p, body: SaleBody) => control.makeSale(sim.world, p.prefix as string, body),
  })
  .add("POST", "/stores/{prefix}/sales/{id}/refunds", {
    body: RefundBody,
    status: 201,
    run: (sim, p, body: RefundBody) => control.makeRefund(sim.world, p.prefix as string, p.id as string, body),
  })
  .add("POST", "/stores/{prefix}/sales/{id}/void", {
    run: (sim, p) => control.makeVoid(sim.world, p.prefix as string, p.id as string),
  })
  .add("GET", "/stores/{prefix}/customers/{id}", {
    run: (sim, p) => control.storedCustomer(sim.world, p.prefix as string, p.id as string),
  })
  .add("POST", "/oauth/authorize", {
    body: AuthorizeBody,
    run: (sim, _p, body: AuthorizeBody) => control.authorizeHeadless(sim.world, body),
  })
  .add("GET", "/oauth/clients", { run: (sim) => ok(sim.world.oauthClients.map(control.clientView)) })
  .add("POST", "/oauth/clients", {
    body: ClientBody,
    status: 201,
    run: (sim, _p, body: ClientBody) => ok(control.registerClient(sim.world, body)),
  })
  .add("GET", "/connections", {
    run: (sim) =>
      ok([...sim.world.oauth.connections.values()].map((c) => control.connectionView(c, sim.world.env.clock.now()))),
  })
  .add("POST", "/connections/{id}/disconnect", { run: (sim, p) => control.disconnect(sim.world, p.id as string) })
  .add("POST", "/images", {
    body: ImageBody,
    run: (sim, _p, body: ImageBody) => {
      sim.world.images.setOutcome(body.url, body.outcome);
      return ok({ url: body.url, outcome: body.outcome });
    },
  })
  .add("GET", "/faults", { run: (sim) => ok(sim.world.faults.list().map(control.faultView)) })
  .add("POST", "/faults", {
    body: FaultBody,
    status: 201,
    run: (sim, _p, body: FaultBody) => control.addFault(sim.world, body),
  })
  .add("POST", "/faults/{id}/release", {
    run: (sim, p) => {
      const id = /^\d{1,9}$/.test(p.id as string) ? Number(p.id) : undefined;
      const released = id === undefined ? undefined : sim.world.faults.release(id);
      return released === undefined ? fail(apiError("NOT_FOUND", "No such fault.")) : ok({ id, released });
    },
  })
  .add("DELETE", "/faults", {
    status: 204,
    run: (sim) => ok(sim.world.faults.clear()),
  });

export function handleControl(sim: Simulator, req: SimRequest, rest: string): SimResponse {
  const match = routes.match(req.method, rest);
  if (!match) return errorResponse(apiError("NOT_FOUND", `No control route ${req.method} /_sim${rest}.`));
  const route = match.route;
  let body: unknown;
  if (route.body) {
    const text = req.body && req.body.length > 0 ? Buffer.from(req.body).toString("utf8") : "{}";
    try {
      body = JSON.parse(text);
    } catch {
      return errorResponse(
        apiError("VALIDATION_FAILED", "The body is not valid JSON.", [{ field: "body", message: "is not valid JSON" }]),
      );
    }
    const fields = validatorFor(route.body)(body);
    if (fields.length > 0) return errorResponse(apiError("VALIDATION_FAILED", "Invalid control request.", fields));
  }
  const result = route.run(sim, match.params, body as never, req);
  if (!result.ok) return errorResponse(result.error);
  return route.status === 204 ? emptyResponse(204) : jsonResponse(route.status ?? 200, result.value);
}
