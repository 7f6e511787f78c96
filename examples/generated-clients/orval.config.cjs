// orval's configuration for the two documents (downloaded beside this file as openapi.json and oauth-openapi.json):
// its fetch client, one file per document, each document's server as the base URL of its requests. CommonJS: orval
// 7 loads an ES module config as `{ default }` on Node 20.19+ and 22.12+, where require() loads ES modules.
const project = (input, output) => ({
  input: { target: input },
  output: { target: output, client: "fetch", baseUrl: { getBaseUrlFromSpecification: true } },
});

module.exports = {
  api: project("./openapi.json", "./orval/api.ts"),
  oauth: project("./oauth-openapi.json", "./orval/oauth.ts"),
};
