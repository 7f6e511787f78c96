import { SCOPE_TEXT, type Scope } from "../contract/scopes.js";
import { escapeHtml } from "../kernel/html.js";

// The consent screen of {auth_url}/oauth/authorize: plain, accessible HTML that works without
// JavaScript. Every value from a request is escaped.

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Retail Back-Office</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{font-size:1rem;padding:.5rem 1.25rem;margin:1rem .5rem 0 0;cursor:pointer}
.primary{background:#0b5cad;color:#fff;border:1px solid #0b5cad}.secondary{background:#fff;border:1px solid #555}
.error{color:#a00000;border-left:4px solid #a00000;padding-left:.75rem}ul{padding-left:1.25rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v as string)}">`)
    .join("\n");

export function signInPage(app: string, params: Record<string, string | undefined>, error?: string): string {
  return page(
    "Sign in",
    `<h1>Sign in to connect ${escapeHtml(app)}</h1>
<p>Sign in with your store account to review what ${escapeHtml(app)} asks for.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/oauth/authorize">
${hidden({ ...params, step: "sign_in" })}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="primary">Sign in</button>
</form>`,
  );
}

export function consentPage(
  app: string,
  store: string,
  scopes: readonly Scope[],
  params: Record<string, string | undefined>,
  ticket: string,
): string {
  return page(
    "Connect an app",
    `<h1>Connect ${escapeHtml(app)} to ${escapeHtml(store)}?</h1>
<p>${escapeHtml(app)} asks to:</p>
<ul>
${scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s])} <small>(${escapeHtml(s)})</small></li>`).join("\n")}
</ul>
<form method="post" action="/oauth/authorize">
${hidden({ ...params, step: "decide", ticket })}
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
</form>`,
  );
}

export function refusalPage(message: string): string {
  return page(
    "Cannot connect",
    `<h1>This app cannot be connected</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}

export function errorPage(message: string): string {
  return page(
    "Authorization error",
    `<h1>Authorization error</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>\n<p>The app sent an invalid request. Nothing was shared.</p>`,
  );
}
