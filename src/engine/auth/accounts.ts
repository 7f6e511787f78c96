// The simulator's own accounts: the merchants who sign in on the consent screen and the apps
// registered for OAuth (spec, Authentication 3 and 8). The fixture and the control plane add them.

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly storePrefix: string;
  readonly role: "admin" | "user";
  /** For the consent page's sign-in form; not a secret in a simulator (listed by /_sim/credentials). */
  readonly password: string;
}

export interface OAuthClientRecord {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
}
