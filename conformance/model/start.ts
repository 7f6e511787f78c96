import type { Snapshot } from "../../src/contract/schemas/snapshot.js";
import { withTimeout } from "../context.js";
import type { RunState } from "../run-state.js";
import { Oracle } from "./oracle.js";
import { seedSnapshot, type Read } from "./seed.js";

// How the model starts. With a control plane: from the target's own snapshot, its clock and rate
// limits included, knowing every row. Without one (staging): from what the API shows of the store (its
// reference data and the run's credentials), knowing only the rows the run creates.

/** `read` GETs the target through the run's pacing (the seed without a control plane reads the store). */
export async function startOracle(run: RunState, read: Read): Promise<Oracle> {
  const target = run.target;
  const apiRoot = run.apiRoot;
  const control = target.controlUrl;
  if (control) {
    const snapshot = async (): Promise<Snapshot> => {
      const res = await withTimeout(
        target.send({
          method: "GET",
          url: `${control}/snapshot`,
          headers: target.controlToken ? { authorization: `Bearer ${target.controlToken}` } : {},
        }),
        run.timeoutMs,
      );
      if (res.status !== 200) throw new Error(`GET ${control}/snapshot answered ${res.status}`);
      return JSON.parse(res.body) as Snapshot;
    };
    return Oracle.start(await snapshot(), { apiRoot, wholeStore: true, toleranceMs: 2000, snapshot }, true);
  }
  return Oracle.start(
    await seedSnapshot(run, read),
    {
      apiRoot,
      wholeStore: false,
      toleranceMs: 5000,
      consents: run.credentials.oauthUser !== undefined,
    },
    false,
  );
}
