import type { CommandModule } from "yargs";

export const openapiCommand: CommandModule<object, { prefix: string; "api-root": string; oauth: boolean }> = {
  command: "openapi",
  describe: "Print the OpenAPI document",
  builder: (y) =>
    y
      .option("prefix", { type: "string", default: "demo", describe: "Store prefix in the server URL" })
      .option("api-root", { type: "string", default: "http://127.0.0.1:4747", describe: "API root in the server URL" })
      .option("oauth", {
        type: "boolean",
        default: false,
        describe: "Print the OAuth token endpoint's document (server: the API root) instead",
      }),
  // The builders and their examples load only when this command runs, so `serve` starts without them.
  handler: async (args) => {
    const [{ buildOpenApi }, { buildOAuthOpenApi }] = await Promise.all([
      import("../contract/openapi.js"),
      import("../contract/openapi-oauth.js"),
    ]);
    const apiRoot = args["api-root"].replace(/\/$/, "");
    const doc = args.oauth ? buildOAuthOpenApi(apiRoot) : buildOpenApi(`${apiRoot}/${args.prefix}/v1`);
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  },
};
