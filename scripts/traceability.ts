import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PAGE, ROOT, renderTraceability } from "../conformance/traceability.js";

// Writes docs/traceability.md: `npm run gen:traceability`. conformance/traceability.test.ts fails when
// the page differs from what this writes.

writeFileSync(join(ROOT, PAGE), renderTraceability());
console.log(`wrote ${PAGE}`);
