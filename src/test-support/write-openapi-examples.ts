// `npm run openapi:examples`: writes src/contract/openapi-examples.json afresh (docs/sdk-authors.md, Examples).
import { writeFileSync } from "node:fs";
import { EXAMPLES_FILE, generateExamples, serializeExamples } from "./openapi-examples.js";

const text = serializeExamples(await generateExamples());
writeFileSync(EXAMPLES_FILE, text);
process.stdout.write(`${EXAMPLES_FILE}: ${Buffer.byteLength(text)} bytes\n`);
