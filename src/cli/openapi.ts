import type { CommandModule } from "yargs";
import { buildOpenApi } from "../contract/openapi.js";

export const openapiCommand: CommandModule<object, { prefix: string; "api-root": string }> = {
  command: "openapi",
  describe: "Print the OpenAPI document",
  builder: (y) =>
    y
      .option("prefix", { type: "string", default: "demo", describe: "Store prefix in the server URL" })
      .option("api-root", { type: "string", default: "http://127.0.0.1:4747", describe: "API root in the server URL" }),
  handler: (args) => {
    process.stdout.write(
      `${JSON.stringify(buildOpenApi(`${args["api-root"].replace(/\/$/, "")}/${args.prefix}/v1`), null, 2)}\n`,
    );
  },
};
