// orval's configuration for the two documents (downloaded beside this file as openapi.json and oauth-openapi.json):
// its fetch client, one file per document, each document's server as the base URL of its requests.
const project = (input, output) => ({
  input: { target: input },
  output: { target: output, client: "fetch", baseUrl: { getBaseUrlFromSpecification: true } },
});

export default {
  api: project("./openapi.json", "./orval/api.ts"),
  oauth: project("./oauth-openapi.json", "./orval/oauth.ts"),
};
