// What the model remembers of the target's answers, to compare the next ones: the opaque values the
// target handed out (ids, tokens, cursors, generated SKUs), each paired with the model's; each row's
// version history; and the server's choices on each row (docs/spec-choices.md), held once seen.

/** A one-to-one pairing of the model's opaque values with the target's. */
export class Opaque {
  private readonly toTarget = new Map<string, string>();
  private readonly toModel = new Map<string, string>();

  /** The target's twin of a model value, if known. */
  target(model: string): string | undefined {
    return this.toTarget.get(model);
  }

  /** The model's twin of a target value, if known. */
  model(target: string): string | undefined {
    return this.toModel.get(target);
  }

  /** Pairs them; false when either is already paired with something else. */
  pair(model: string, target: string): boolean {
    const t = this.toTarget.get(model);
    const m = this.toModel.get(target);
    if (t !== undefined || m !== undefined) return t === target && m === model;
    this.toTarget.set(model, target);
    this.toModel.set(target, model);
    return true;
  }

  /** The model now holds these values under their target names (it restarted from the target's snapshot). */
  rebase(values: Iterable<string>): void {
    for (const v of values) {
      const t = this.toTarget.get(v);
      const m = this.toModel.get(v);
      if (t !== undefined) this.toModel.delete(t);
      if (m !== undefined) this.toTarget.delete(m);
      this.toTarget.set(v, v);
      this.toModel.set(v, v);
    }
  }
}

interface RowState {
  /** The version seen last, the model's and the target's, and every target version of the row so far. */
  version?: { model: string; target: string };
  readonly seen: Set<string>;
  /** Every version of the row seen, the model's to the target's and back. */
  readonly pairs: Map<string, string>;
  readonly back: Map<string, string>;
  /** Fields whose value is the server's choice on this row: model value (JSON) to target value (JSON). */
  readonly chosen: Map<string, Map<string, string>>;
}

/** Per row of the target (by its key: an id, or a product and outlet): versions and held choices. */
export class Rows {
  private readonly rows = new Map<string, RowState>();

  private of(key: string): RowState {
    let row = this.rows.get(key);
    if (!row) {
      row = { chosen: new Map(), pairs: new Map(), back: new Map(), seen: new Set() };
      this.rows.set(key, row);
    }
    return row;
  }

  /**
   * Spec, Resources: "version, an opaque string that increases with every change to that row": new
   * exactly when the model's is new. A write to the row may renew it without a change (docs/spec-choices.md:
   * "A write that changes nothing ... a new version too"). Null when it holds, else what is wrong.
   */
  version(key: string, model: string, target: string, written: boolean): string | null {
    const row = this.of(key);
    row.pairs.set(model, target);
    row.back.set(target, model);
    const last = row.version;
    if (!last) {
      row.version = { model, target };
      row.seen.add(target);
      return null;
    }
    let wrong: string | null = null;
    if (model === last.model) {
      if (target !== last.target && !written)
        wrong = `the same version as before (${last.target}): the row did not change`;
    } else if (target === last.target) wrong = `a new version (the row changed), not ${last.target} again`;
    else if (row.seen.has(target)) wrong = `a new version, not ${target}, which the row had before`;
    row.seen.add(target);
    row.version = { model, target };
    return wrong;
  }

  /**
   * A version shown in a replay (the answer stored when the key was first used): the one the row had
   * then, as the model's stored answer says. Null when it holds.
   */
  replayed(key: string, model: string, target: string): string | null {
    const then = this.rows.get(key)?.pairs.get(model);
    return then === undefined || then === target
      ? null
      : `the version the row had when the key was first used (${then})`;
  }

  /** The model's twin of a version the target gave this row, for a request that sends it back. */
  modelVersion(key: string, target: string): string | undefined {
    return this.rows.get(key)?.back.get(target);
  }

  /**
   * The model started again from the target's state: its versions are the target's own from here on,
   * so the last one seen of each row is forgotten (the pairs seen stay, for versions sent back).
   */
  restart(): void {
    for (const row of this.rows.values()) row.version = undefined;
  }

  isChosen(key: string, field: string): boolean {
    return this.rows.get(key)?.chosen.has(field) === true;
  }

  /** From now on the field is the server's choice on this row (learnt afresh). */
  choose(key: string, field: string): void {
    const chosen = this.of(key).chosen;
    if (!chosen.has(field)) chosen.set(field, new Map());
  }

  /** A client sent the field: from now on it is compared exactly. */
  fix(key: string, field: string): void {
    this.rows.get(key)?.chosen.delete(field);
  }

  /** A held choice: the target's value for this model value, learnt the first time. Null when it holds. */
  held(key: string, field: string, model: unknown, target: unknown): string | null {
    const chosen = this.of(key).chosen;
    let pairs = chosen.get(field);
    if (!pairs) {
      pairs = new Map();
      chosen.set(field, pairs);
    }
    const m = JSON.stringify(model) ?? "undefined";
    const t = JSON.stringify(target) ?? "undefined";
    const before = pairs.get(m);
    if (before === undefined) {
      pairs.set(m, t);
      return null;
    }
    return before === t ? null : `${before} as before (the server's choice holds until the row changes)`;
  }

  clear(): void {
    this.rows.clear();
  }
}
