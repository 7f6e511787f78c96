#!/usr/bin/env node
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { conformanceCommand } from "./conformance.js";
import { coverageCommand } from "./coverage.js";
import { openapiCommand } from "./openapi.js";
import { serveCommand } from "./serve.js";

// retail-sim [serve] | conformance | openapi | coverage (docs/interfaces.md, Command line).

// `retail-sim openapi | head`: a reader that stops early is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await yargs(hideBin(process.argv))
  .scriptName("retail-sim")
  .command(serveCommand)
  .command(openapiCommand)
  .command(conformanceCommand)
  .command(coverageCommand)
  .strict()
  .help()
  .version()
  .fail((message, error) => {
    // Exit 2: the command could not be carried out (bad arguments, a start that failed).
    process.stderr.write(`retail-sim: ${message ?? error?.message}\nRun retail-sim --help for usage.\n`);
    process.exit(2);
  })
  .parseAsync();
