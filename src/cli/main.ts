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

/**
 * An option given more than once that takes one value is refused (exit 2) rather than read as a list that the
 * command cannot use; an option declared as a list (`--from`, `--rules`, `--cap`) collects every value.
 */
function givenOnce(argv: Readonly<Record<string, unknown>>, options: Readonly<Record<string, unknown>>): true {
  // yargs passes its parsed options (typed there as the aliases): `key` the declared names, `array` the lists.
  const lists: unknown[] = Array.isArray(options.array) ? options.array : [];
  const declared = typeof options.key === "object" && options.key !== null ? Object.keys(options.key) : [];
  for (const name of declared) {
    const value = argv[name];
    if (Array.isArray(value) && !lists.includes(name))
      throw new Error(`--${name} was given ${value.length} times (${value.join(", ")}); give it once`);
  }
  return true;
}

await yargs(hideBin(process.argv))
  .scriptName("retail-sim")
  .command(serveCommand)
  .command(openapiCommand)
  .command(conformanceCommand)
  .command(coverageCommand)
  .check(givenOnce, true)
  .strict()
  .help()
  .version()
  .fail((message, error) => {
    // Exit 2: the command could not be carried out (bad arguments, a start that failed).
    process.stderr.write(`retail-sim: ${message ?? error?.message}\nRun retail-sim --help for usage.\n`);
    process.exit(2);
  })
  .parseAsync();
