import type { Rule } from "../../rule.js";
import { addressLimitRules } from "./addresses.js";
import { customerLimitRules } from "./customers.js";
import { imageLimitRules } from "./images.js";
import { rateRules } from "./rate.js";

// The Limits area: rate-limit headers and the general limit (rate.ts), the customer routes' limit
// (customers.ts), image writes and downloads (images.ts), and failures per network address
// (addresses.ts). The probes need the control plane and most move its clock.

export const limitRules: readonly Rule[] = [
  ...rateRules,
  ...customerLimitRules,
  ...imageLimitRules,
  ...addressLimitRules,
];
