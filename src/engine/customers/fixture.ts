import type { Rng } from "../../kernel/random.js";
import type { FixtureCustomer } from "../../contract/schemas/fixture.js";
import { newCustomerRecord } from "./operations.js";
import type { CustomerState } from "./state.js";

export const DEFAULT_GROUP = "All Customers";
export const WALK_IN_CODE = "WALKIN";

/** Every store has a default customer group and its single system walk-in customer (spec, Customer: is_walk_in). */
export function buildCustomers(
  state: CustomerState,
  groups: readonly string[],
  customers: readonly FixtureCustomer[],
  ids: Rng,
  now: number,
): void {
  const groupIds = new Map<string, string>();
  for (const name of [DEFAULT_GROUP, ...groups.filter((g) => g !== DEFAULT_GROUP)]) {
    const id = ids.uuid();
    state.groups.put(id, { id, name });
    groupIds.set(name, id);
  }
  state.defaultGroupId = groupIds.get(DEFAULT_GROUP) as string;
  const walkIn = {
    ...newCustomerRecord(ids.uuid(), WALK_IN_CODE, "Walk-in", state.defaultGroupId, now),
    is_walk_in: true,
  };
  state.save(walkIn);
  state.walkInId = walkIn.id;
  for (const c of customers) {
    const { group, ...fields } = c;
    const base = newCustomerRecord(
      ids.uuid(),
      c.customer_code,
      c.first_name,
      group === undefined ? state.defaultGroupId : (groupIds.get(group) as string),
      now,
    );
    state.save({ ...base, ...fields, customer_group_id: base.customer_group_id });
  }
}
