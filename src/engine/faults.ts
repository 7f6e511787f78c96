import type { ErrorCode } from "../contract/errors.js";

// Faults injected through the control plane (docs/interfaces.md, Control plane: POST /_sim/faults). A fault matches API
// requests by method and path and applies to `times` of them (left out: until cleared). It can
// - answer a status and code instead of processing the request (optionally after a delay);
// - answer that status after processing it (`after_commit`): the write happened, the response is lost;
// - hold the request mid-processing (`hold`) until the control plane releases it, so concurrent
//   requests meet it in progress (IDEMPOTENCY_IN_PROGRESS, a busy image download).

/** Faults in place in one sandbox at most (docs/interfaces.md, Control plane): each API request looks through them. */
export const MAX_FAULTS = 1_000;

export interface FaultInput {
  readonly method?: string;
  /** Request path as sent, without the query; a trailing `*` matches every path with that prefix. */
  readonly path?: string;
  readonly status?: number;
  readonly code?: ErrorCode;
  /** How many matching requests it applies to; left out, until cleared. */
  readonly times?: number;
  readonly delay_ms?: number;
  /** Process the request in full, then answer `status` instead of its response. */
  readonly after_commit?: boolean;
  /** Hold matching requests mid-processing until released. */
  readonly hold?: boolean;
}

export interface Fault extends FaultInput {
  readonly id: number;
  remaining: number | null;
  /** Requests held by this fault, each waiting for its release. */
  readonly held: (() => void)[];
}

/** A fault as a snapshot keeps it. */
export type FaultRecord = Omit<Fault, "held">;

export class FaultList {
  private faults: Fault[] = [];
  private nextId = 1;
  private heldWaiters: (() => void)[] = [];

  add(input: FaultInput): Fault {
    const fault: Fault = {
      ...input,
      method: input.method?.toUpperCase(),
      id: this.nextId++,
      remaining: input.times ?? null,
      held: [],
    };
    this.faults.push(fault);
    return fault;
  }

  /** Faults that still match requests, and used-up hold faults that still hold some. */
  list(): readonly Fault[] {
    return this.faults;
  }

  /** Removes every fault and lets every held request go on. */
  clear(): void {
    const faults = this.faults;
    this.faults = [];
    for (const fault of faults) this.releaseAll(fault);
  }

  /** Lets every held request go on, in one pass over the faults; the faults stay (used-up hold faults go). */
  releaseHeld(): void {
    for (const fault of this.faults) this.releaseAll(fault);
    this.faults = this.faults.filter((f) => f.remaining === null || f.remaining > 0);
  }

  /** The first answering (not holding) fault matching the request, counted as used. */
  take(method: string, path: string): Fault | undefined {
    return this.use((f) => !f.hold && matches(f, method, path));
  }

  /** The first hold fault matching the request, counted as used. */
  takeHold(method: string, path: string): Fault | undefined {
    return this.use((f) => f.hold === true && matches(f, method, path));
  }

  /** Holds a request until the fault is released (or cleared). */
  hold(fault: Fault): Promise<void> {
    return new Promise<void>((resolve) => {
      fault.held.push(resolve);
      for (const wake of this.heldWaiters.splice(0)) wake();
    });
  }

  /** Lets the requests a fault holds go on; the number released, or undefined for an unknown fault. */
  release(id: number): number | undefined {
    const fault = this.faults.find((f) => f.id === id);
    if (!fault) return undefined;
    const released = this.releaseAll(fault);
    if (fault.remaining !== null && fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return released;
  }

  /** Resolves once the fault holds at least `count` requests (for in-process tests; no polling). */
  async whenHeld(id: number, count = 1): Promise<void> {
    for (;;) {
      const fault = this.faults.find((f) => f.id === id);
      if (!fault || fault.held.length >= count) return;
      await new Promise<void>((wake) => this.heldWaiters.push(wake));
    }
  }

  /**
   * Snapshot: the faults that still match requests, and the next id. Requests held now are not part of
   * it, so a used-up hold fault (kept only to release them) is left out.
   */
  records(): { nextId: number; faults: FaultRecord[] } {
    const live = this.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return { nextId: this.nextId, faults: live.map(({ held: _, ...fault }) => fault) };
  }

  /** Snapshot restore, into an empty list: what `records` gave. */
  restore(records: { nextId: number; faults: readonly FaultRecord[] }): void {
    this.nextId = records.nextId;
    this.faults = records.faults.map((fault) => ({ ...fault, held: [] }));
  }

  private use(pick: (fault: Fault) => boolean): Fault | undefined {
    const fault = this.faults.find((f) => (f.remaining === null || f.remaining > 0) && pick(f));
    if (!fault) return undefined;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      // A used-up hold fault stays listed while it holds requests, so it can still be released.
      if (fault.remaining <= 0 && !fault.hold) this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault;
  }

  private releaseAll(fault: Fault): number {
    const waiting = fault.held.splice(0);
    for (const go of waiting) go();
    return waiting.length;
  }
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method !== method) return false;
  if (fault.path === undefined) return true;
  return fault.path.endsWith("*") ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
}
