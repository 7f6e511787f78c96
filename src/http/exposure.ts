import { BlockList, isIP } from "node:net";
import { fail, ok, type Result } from "../kernel/result.js";

// Whether a server is reachable from other machines: it is unless it binds a loopback address
// (127.0.0.0/8 or ::1, IPv4-mapped forms included). The /_sim control plane hands out every credential and
// can reset the simulator, so serving it open beyond loopback takes an explicit choice (docs/interfaces.md,
// Command line).

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** True for an address of the loopback interface; false for any other, the unspecified `0.0.0.0` and `::` included. */
export function isLoopback(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * A `Host` header as the URL `http://HOST/`, its name spelled as the URL standard spells it (`Sim.Test:80` is
 * `sim.test`, `[::1]:4747` is `[::1]`); undefined when it is anything but a host and an optional port.
 */
export function hostUrl(host: string): URL | undefined {
  if (!/^[^/?#@\\%\s]+$/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`);
  } catch {
    return undefined;
  }
}

/** A host name only this machine answers to: a loopback address, `localhost` or a name under it. */
export function isLocalName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || isLoopback(name.replace(/^\[(.*)\]$/, "$1"));
}

/** A name `allowHosts` (`--allow-host`) adds: a host name without a port, answered as the URL standard spells it. */
export function allowedHost(name: string): Result<string, string> {
  const spelled = hostUrl(name)?.hostname;
  return spelled === name.toLowerCase()
    ? ok(spelled)
    : fail(`"${name}" is not a host name without a port, such as sim.test`);
}

/**
 * The address a server given `host` binds: an IP address as given, a name as the system resolves it (its first
 * address, as `node:net` would take it: `localhost` is usually 127.0.0.1 or ::1). An empty host is every address.
 */
export async function bindAddress(host: string): Promise<string> {
  if (host === "" || isIP(host) !== 0) return host;
  // The resolver loads only for a name (a start on an address, the usual one, does without it).
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host)).address;
}

/**
 * `listen` on an address other machines can reach, with the control plane on and no control token: anyone who
 * reached it could read every API key, client secret and password and reset the simulator.
 */
export class ExposedControlError extends Error {
  constructor(
    /** The host given to `listen`. */
    readonly host: string,
    /** The address it binds, not a loopback one. */
    readonly address: string,
  ) {
    super(
      `Refusing to listen on ${exposure(host, address)} Set the controlToken option, control: false, or insecureControl: true to serve it open anyway.`,
    );
    this.name = "ExposedControlError";
  }

  /** Where it would listen and why that is refused, as a message says it. */
  get why(): string {
    return exposure(this.host, this.address);
  }
}

function exposure(host: string, address: string): string {
  const place = host === address ? address || "every address" : `${host} (${address})`;
  return `${place}: it is not a loopback address, and the /_sim control plane, which hands out every API key, client secret and password and can reset the simulator, has no token.`;
}
