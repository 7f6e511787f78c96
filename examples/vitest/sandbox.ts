// A sandbox of the shared simulator for one test file, made and removed over HTTP through the control plane
// (POST /_sim/sandboxes, DELETE its control_url), as any language can.

export interface Sandbox {
  /** The sandbox's control plane: every /_sim route, scoped to it. */
  controlUrl: string;
  /** `{api_root}/{store_prefix}/v1` of its demo store: what the SDK under test is given. */
  baseUrl: string;
  /** The demo store's key with every scope. */
  apiKey: string;
  /** A control call (JSON in and out) under the sandbox's control URL: `control("POST", "/clock", {...})`. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Deletes the sandbox. */
  remove(): Promise<void>;
}

interface Created {
  control_url: string;
  stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
}

/** A new sandbox of the demo fixture on a manual clock (it moves only when the test moves it). */
export async function createSandbox(simUrl: string): Promise<Sandbox> {
  const res = await fetch(`${simUrl}/_sim/sandboxes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clock: "manual" }),
  });
  if (res.status !== 201) throw new Error(`POST /_sim/sandboxes answered ${res.status}: ${await res.text()}`);
  const made = (await res.json()) as Created;
  const demo = made.stores[0];
  const key = demo?.keys.find((k) => k.name === "full");
  if (!demo || !key) throw new Error("the demo fixture has a demo store with a full key");
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${made.control_url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (answer.status === 204 ? null : await answer.json()) as T;
  };
  return {
    controlUrl: made.control_url,
    baseUrl: demo.base_url,
    apiKey: key.token,
    control,
    remove: async () => {
      await control("DELETE", "");
    },
  };
}
