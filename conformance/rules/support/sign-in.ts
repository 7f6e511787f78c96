import { Parser } from "htmlparser2";
import type { Reply, RuleContext } from "../../context.js";
import type { OAuthUser } from "../../credentials.js";
import { Skip } from "../../outcomes.js";
import { secret } from "./access.js";

// The consent screen, headless, for a run without a control plane (--oauth-user EMAIL:PASSWORD): what a
// merchant's browser does at {auth_url}/oauth/authorize (spec, Authentication 3 and 4). GET the page,
// fill the sign-in form (its hidden inputs, the email and the password inputs found by their type), post
// it as a form, then post the consent form with the button `decision` (allow or cancel) and read the
// redirect's Location. Cookies the screen sets are sent back. The password never reaches a report (it is
// among the run's secrets, as typed and as a form carries it).

export interface FormField {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}

export interface Form {
  readonly action: string;
  readonly method: string;
  readonly fields: readonly FormField[];
  /** Submit buttons (`<button>` without a type or of type submit, `<input type=submit>`). */
  readonly buttons: readonly { readonly name: string; readonly value: string }[];
}

/** The forms of an HTML page, with their inputs and submit buttons (htmlparser2, entities decoded). */
export function readForms(html: string): Form[] {
  const forms: { action: string; method: string; fields: FormField[]; buttons: { name: string; value: string }[] }[] =
    [];
  let open: (typeof forms)[number] | undefined;
  const parser = new Parser(
    {
      onopentag(tag, a) {
        if (tag === "form") {
          open = { action: a.action ?? "", method: (a.method ?? "get").toLowerCase(), fields: [], buttons: [] };
          forms.push(open);
          return;
        }
        if (!open) return;
        const type = (a.type ?? (tag === "button" ? "submit" : "text")).toLowerCase();
        if (tag === "button" && type === "submit") open.buttons.push({ name: a.name ?? "", value: a.value ?? "" });
        else if (tag === "input" && (type === "submit" || type === "image"))
          open.buttons.push({ name: a.name ?? "", value: a.value ?? "" });
        else if (tag === "input" && a.name !== undefined && !["button", "reset", "file"].includes(type)) {
          if ((type === "checkbox" || type === "radio") && a.checked === undefined) return;
          open.fields.push({ name: a.name, type, value: a.value ?? (type === "checkbox" ? "on" : "") });
        }
      },
      onclosetag(tag) {
        if (tag === "form") open = undefined;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return forms;
}

/** The text of the page's alert, for a refusal's message. */
const alertOf = (html: string): string =>
  /role="alert"[^>]*>([^<]*)</.exec(html)?.[1]?.trim() ??
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .slice(0, 160);

export interface ConsentRequest {
  readonly apiRoot: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  readonly state: string;
  readonly challenge?: string;
  readonly decision: "allow" | "cancel";
}

/**
 * The merchant signs in at the consent screen and decides: the redirect's URL (its Location). A refusal
 * of the sign-in skips the rule, naming --oauth-user; a page without the forms fails it.
 */
export async function consentByPage(ctx: RuleContext, user: OAuthUser, r: ConsentRequest): Promise<string> {
  const start = new URL(`${r.apiRoot}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: r.clientId,
    redirect_uri: r.redirectUri,
    scope: r.scope,
    state: r.state,
    ...(r.challenge ? { code_challenge: r.challenge, code_challenge_method: "S256" } : {}),
  }))
    start.searchParams.set(k, v);
  const cookies = new Map<string, string>();
  const send = async (method: string, url: string, form?: URLSearchParams): Promise<Reply> => {
    const headers: Record<string, string> = { accept: "text/html" };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const reply = await ctx.send(method, url, {
      token: null,
      headers,
      ...(form ? { raw: form.toString(), contentType: "application/x-www-form-urlencoded" } : {}),
    });
    for (const c of (reply.headers["set-cookie"] ?? "").split(/,(?=\s*[^;,=\s]+=)/)) {
      const m = /^\s*([^=;\s]+)=([^;]*)/.exec(c);
      if (m) cookies.set(m[1] as string, m[2] as string);
    }
    return reply;
  };
  const location = (reply: Reply, at: string): string | undefined => {
    const to = reply.headers.location;
    return reply.status >= 300 && reply.status < 400 && to ? new URL(to, at).href : undefined;
  };
  // Sign-in, then the decision; a screen may skip either (a redirect at once).
  let at = start.href;
  let page = await send("GET", at);
  for (let step = 0; step < 3; step++) {
    const done = location(page, at);
    if (done) return done;
    ctx.check(
      page.status === 200 && /<form/i.test(page.text),
      `the consent screen ${start.origin}${start.pathname} answering a page with a form`,
      `status ${page.status} ${page.text.slice(0, 160)}`,
    );
    const forms = readForms(page.text);
    const signIn = forms.find((f) => f.fields.some((x) => x.type === "password"));
    const decide = forms.find((f) => f.buttons.some((b) => b.name === "decision"));
    const form = signIn ?? decide;
    if (!form) {
      if (page.status === 200 && step > 0)
        throw new Skip(`the consent screen refused the sign-in of --oauth-user: ${alertOf(page.text)}`, "--oauth-user");
      ctx.check(
        false,
        "a sign-in form (a password input) or a consent form (a button named decision)",
        page.text.slice(0, 200),
      );
    }
    const body = new URLSearchParams();
    for (const f of (form as Form).fields) {
      if (f.type === "password") body.append(f.name, user.password);
      else if (f.type === "email" || (signIn && /^(email|username|login)$/i.test(f.name) && f.type === "text"))
        body.append(f.name, user.email);
      else body.append(f.name, f.value);
      if (f.name === "ticket") secret(ctx, f.value);
    }
    if (!signIn) {
      const button = (form as Form).buttons.find((b) => b.name === "decision" && b.value === r.decision);
      ctx.check(
        button !== undefined,
        `a consent button decision=${r.decision}`,
        JSON.stringify((form as Form).buttons),
      );
      body.append("decision", r.decision);
    } else {
      const named = signIn.buttons.find((b) => b.name !== "");
      if (named) body.append(named.name, named.value);
    }
    const action = new URL((form as Form).action || at, at).href;
    // A sign-in refused is the credential's problem, not the target's: it skips the rule, unjudged.
    const judged = ctx.ambientChecks;
    if (signIn) ctx.ambientChecks = false;
    const sent = await send("POST", action, body).finally(() => {
      ctx.ambientChecks = judged;
    });
    if (signIn && sent.status !== 200 && !location(sent, action))
      throw new Skip(
        `the consent screen refused the sign-in of --oauth-user: status ${sent.status} ${alertOf(sent.text)}`,
        "--oauth-user",
      );
    if (signIn && sent.status === 200 && readForms(sent.text).some((f) => f.fields.some((x) => x.type === "password")))
      throw new Skip(`the consent screen refused the sign-in of --oauth-user: ${alertOf(sent.text)}`, "--oauth-user");
    at = action;
    page = sent;
  }
  return ctx.check(false, "a redirect from the consent screen within three pages", `status ${page.status}`) as never;
}
