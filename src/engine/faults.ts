import type { ErrorCode } from "../contract/errors.js";

// Faults injected through the control plane (interfaces.md, POST /_sim/faults): matching API
// requests are delayed and/or answered with a chosen status and code instead of being processed.

export interface FaultInput {
  readonly method?: string;
  /** Request path as sent, without the query; a trailing `*` matches every path with that prefix. */
  readonly path?: string;
  readonly status?: number;
  readonly code?: ErrorCode;
  /** How many matching requests it applies to; left out, until cleared. */
  readonly times?: number;
  readonly delay_ms?: number;
}

export interface Fault extends FaultInput {
  readonly id: number;
  remaining: number | null;
}

export class FaultList {
  private faults: Fault[] = [];
  private nextId = 1;

  add(input: FaultInput): Fault {
    const fault: Fault = { ...input, method: input.method?.toUpperCase(), id: this.nextId++, remaining: input.times ?? null };
    this.faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): void {
    this.faults = [];
  }

  /** The first fault matching the request, counted as used. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.faults.find((f) => matches(f, method, path));
    if (!fault) return undefined;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault;
  }
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method !== method) return false;
  if (fault.path === undefined) return true;
  return fault.path.endsWith("*") ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
}
