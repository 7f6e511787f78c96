#!/usr/bin/env node
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { openapiCommand } from "./openapi.js";
import { serveCommand } from "./serve.js";

// retail-sim [serve] | conformance | openapi (interfaces.md section 1).

await yargs(hideBin(process.argv))
  .scriptName("retail-sim")
  .command(serveCommand)
  .command(openapiCommand)
  .command({
    command: "conformance",
    describe: "Run the conformance suite (not built yet: it arrives with the conformance issue)",
    builder: (y) => y.strict(false),
    handler: () => {
      process.stderr.write("retail-sim conformance: the conformance suite is not implemented yet.\n");
      process.exitCode = 2;
    },
  })
  .strict()
  .help()
  .version()
  .fail((message, error) => {
    // Exit 2: the command could not be carried out (bad arguments, a start that failed).
    process.stderr.write(`retail-sim: ${message ?? error?.message}\nRun retail-sim --help for usage.\n`);
    process.exit(2);
  })
  .parseAsync();
