// The credential options of a replay command, each reading the environment variable the
// reproduction script uses for it (conformance/counterexample.ts, reproEnv).

export function reproEnvName(options: readonly string[], used?: readonly string[]): string[] {
  const out: string[] = [];
  let extra = 1;
  let key = 0;
  // Numbered as in the run (RETAIL_KEY_3 is the run's third --key), whichever of them a replay needs.
  const keep = (o: string) => used === undefined || used.includes(o);
  for (const o of options) {
    if (!keep(o)) {
      if (o.startsWith("--key ")) key++;
      else if (o === "--extra-token") extra++;
      continue;
    }
    if (o.startsWith("--key ")) out.push("--key", `"${o.slice(6)}=$RETAIL_KEY_${++key}"`);
    else if (o === "--extra-token") out.push("--extra-token", `"$RETAIL_TOKEN_${++extra}"`);
    else if (o.startsWith("--other-store-token "))
      out.push("--other-store-token", `"${o.slice(20)}=$RETAIL_OTHER_STORE_TOKEN"`);
    else if (o === "--revoked-token") out.push(o, '"$RETAIL_REVOKED_TOKEN"');
    else if (o.startsWith("--lite-token ")) out.push("--lite-token", `"${o.slice(13)}=$RETAIL_LITE_TOKEN"`);
    else if (o === "--oauth-client") out.push(o, '"$RETAIL_OAUTH_CLIENT_ID:$RETAIL_OAUTH_CLIENT_SECRET"');
    else if (o === "--oauth-user") out.push(o, '"$RETAIL_OAUTH_USER_EMAIL:$RETAIL_OAUTH_USER_PASSWORD"');
  }
  return out;
}
