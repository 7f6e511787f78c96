import { apiError, invalid } from "../contract/errors.js";
import type { Operation } from "../contract/operation.js";
import { principalOf, type Credential } from "../engine/auth/credentials.js";
import { IDEMPOTENCY_KEY_PATTERN, personalSubject } from "../engine/idempotency.js";
import type { World } from "../engine/world.js";
import { sha256 } from "../kernel/digest.js";
import { emptyResponse, errorResponse } from "./respond.js";
import type { SimRequest, SimResponse } from "./types.js";

// The pipeline's idempotency step (spec, Limits: Idempotency-Key): a keyed write runs once, and the
// same key with the same request replays its answer, marked `Idempotent-Replayed: true`.

/** Runs `run` under the request's Idempotency-Key, as the operation declares: once, or replayed. */
export async function idempotent(
  world: World,
  req: SimRequest,
  op: Operation,
  credential: Credential,
  now: number,
  run: () => Promise<SimResponse>,
): Promise<SimResponse> {
  const key = req.headers["idempotency-key"];
  // rule idempotency.optional-routes: where the key is optional (the operation declares it) a keyed request is run once and replayed like any
  if (op.idempotency === "none" || (key === undefined && op.idempotency === "optional")) {
    return run();
  }
  // rule inventory.idempotency-key-required: a missing key on a route that requires one is 400 naming the header.
  if (key === undefined) return errorResponse(invalid("Idempotency-Key", "is required on this route"));
  // rule idempotency.key-format: a key over 255 characters or with a space is 400 naming Idempotency-Key.
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    return errorResponse(invalid("Idempotency-Key", "must be 1 to 255 printable characters without spaces"));
  }
  // Same key and same body: method, path, query and the body bytes (docs/spec-choices.md).
  const fingerprint = sha256(
    `${req.method} ${req.path}?${req.query}\n${req.body ? Buffer.from(req.body).toString("latin1") : ""}`,
  );
  // rule idempotency.per-credential: keys are remembered per credential: the record is the principal's.
  const principal = principalOf(credential).id;
  const begun = world.idempotency.begin(principal, key, fingerprint, now);
  // rule idempotency.concurrent-same-key: a second request while the first runs answers 409 IDEMPOTENCY_IN_PROGRESS, after it replays.
  if (begun.kind === "in_progress")
    return errorResponse(
      apiError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still processing."),
    );
  // rule idempotency.key-reused: the same key with another request is 422 IDEMPOTENCY_KEY_REUSED.
  if (begun.kind === "reused")
    return errorResponse(apiError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request."));
  // rule idempotency.replay: the same key and request replay the stored status and data, marked Idempotent-Replayed: true.
  if (begun.kind === "replay") {
    const { status, body } = begun.response;
    const headers: Record<string, string> = { "idempotent-replayed": "true" };
    if (body === null) return emptyResponse(status, headers);
    return {
      status,
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
      body: op.replayMarksItems ? markReplayed(body) : body,
    };
  }
  const response = await run();
  // API answers are JSON text (only the image route, outside the pipeline, answers bytes).
  const body = response.body as string | null;
  world.idempotency.finish(
    principal,
    key,
    { status: response.status, body },
    world.env.clock.now(),
    subjectOf(op, response),
  );
  return response;
}

/** Whose personal details a success answer shows (`customer:<id>`), for erasure to reach its replays. */
function subjectOf(op: Operation, response: SimResponse): string | undefined {
  if (op.answerShows === undefined || response.status >= 300 || typeof response.body !== "string") return undefined;
  const id = (JSON.parse(response.body) as { data?: { id?: unknown } }).data?.id;
  return typeof id === "string" ? personalSubject(op.answerShows, id) : undefined;
}

/** rule inventory.batch-replay: a replayed batch marks every line `replayed: true`. */
function markReplayed(body: string): string {
  const parsed = JSON.parse(body) as { data?: unknown };
  if (!Array.isArray(parsed.data)) return body;
  return JSON.stringify({
    ...parsed,
    data: parsed.data.map((item: Record<string, unknown>) => ({ ...item, replayed: true })),
  });
}
