import type { Feed } from "../feed.js";

export interface CustomerRecord {
  readonly id: string;
  readonly customer_group_id: string;
  readonly customer_code: string;
  readonly first_name: string;
  readonly last_name: string | null;
  readonly company_name: string | null;
  readonly email: string | null;
  readonly phone: string | null;
  readonly mobile: string | null;
  readonly website: string | null;
  readonly gender: string | null;
  readonly tax_id: string | null;
  readonly note: string | null;
  readonly date_of_birth: string | null;
  readonly address_1: string | null;
  readonly address_2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zipcode: string | null;
  readonly country: string | null;
  readonly custom_field_1: string | null;
  readonly custom_field_2: string | null;
  readonly custom_field_3: string | null;
  readonly custom_field_4: string | null;
  readonly on_account_limit: number;
  readonly enable_loyalty: boolean;
  readonly dont_email: boolean;
  readonly dont_sms: boolean;
  readonly do_not_sell_share: boolean;
  readonly is_walk_in: boolean;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface CustomerGroupRecord {
  readonly id: string;
  readonly name: string;
}

/** Customers of one store, with the live customer codes (unique without regard to case). */
export class CustomerState {
  readonly customers: Feed<CustomerRecord>;
  readonly groups: Feed<CustomerGroupRecord>;
  readonly codes = new Map<string, string>();
  walkInId = "";
  defaultGroupId = "";

  constructor(feed: <T>(list: string) => Feed<T>) {
    this.customers = feed("customers");
    this.groups = feed("customer-groups");
  }

  /** Commits a customer and keeps the code index in step. */
  save(record: CustomerRecord): void {
    const old = this.customers.live(record.id);
    if (old && this.codes.get(old.customer_code.toLowerCase()) === old.id)
      this.codes.delete(old.customer_code.toLowerCase());
    this.codes.set(record.customer_code.toLowerCase(), record.id);
    this.customers.put(record.id, record);
  }
}
