// Fuzzing support (issue "Robustness and security"): fast-check arbitraries for odd and malformed
// requests derived from the operations table, the spec's error envelope as a check, a digest of the
// world's state (for "a refused write changes nothing"), a scan for prototype pollution, and a raw
// socket client for byte-level cases over real HTTP.
//
// Spec references (retail-api-v1.md): Errors (the envelope and the code catalog), Endpoints (list
// parameters, bodies), Pagination and polling rules, Limits (Idempotency-Key, rate limits).
export * from "./fuzz/runs.js";
export * from "./fuzz/requests.js";
export * from "./fuzz/body-values.js";
export * from "./fuzz/bodies.js";
export * from "./fuzz/route-paths.js";
export * from "./fuzz/route-queries.js";
export * from "./fuzz/route-headers.js";
export * from "./fuzz/routes.js";
export * from "./fuzz/checks.js";
export * from "./fuzz/wire.js";
export * from "./fuzz/fields.js";
