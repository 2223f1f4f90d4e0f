// The bridge as its own OAuth 2.1 authorization server, for hosted assistants reaching /mcp:
// authorization code with PKCE (S256 only), exact redirect URIs, the resource parameter bound into
// the token's audience, short-lived access tokens, rotating refresh tokens (a reused one ends the
// grant), revocation. Public clients identify by a client ID metadata document or, when allowed,
// by dynamic registration, and always use PKCE. Confidential clients are made by an admin (the
// panel, POST /api/oauth/clients), never by registration: they authenticate with their secret
// (client_secret_post) and may skip PKCE, which is how Home Assistant's own `mcp` integration signs
// in; a code issued without a challenge is redeemed only with that secret and never with a
// verifier. A person approves each grant on the consent page. Nothing here knows HTTP: the routes
// in src/http/api/oauth.ts adapt it.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../log.js';
import type { OAuthGrantRecord, OAuthStore } from '../store/oauth.js';
import { actorName, DEFAULT_SCOPES, SCOPES, type Principal, type Scope, type TokenService } from '../auth/tokens.js';
import type { CredentialEnd } from '../auth/credentials.js';
import type { UserStore } from '../auth/users.js';
import { AppError } from '../errors.js';
import { LastUse } from '../auth/last-use.js';
import { ClientMetadataFetcher, isMetadataUrl, MetadataError } from './client-metadata.js';

export { SCOPES, type Scope } from '../auth/tokens.js';
const CODE_TTL_MS = 60_000;
const PENDING_TTL_MS = 10 * 60_000;
// What unauthenticated authorization requests may leave waiting. Nothing is ever refused for room:
// the oldest of an address (then of a client, then of all) gives way, so a flood from one place
// cannot keep anyone else from the consent page.
const PENDING_PER_ADDRESS = 10;
const PENDING_PER_CLIENT = 100;
const PENDING_MAX = 1000;
const STATE_MAX = 500;
// Registration is open to anyone, so what it may store is bounded: small metadata, a few clients
// per address (its oldest unused one gives way), a cap in all, and a day to be granted something.
export const REGISTRATION_MAX_BYTES = 16 * 1024;
const REDIRECT_URIS_MAX = 10;
const REDIRECT_URI_MAX_CHARS = 500;
const REDIRECT_URIS_MAX_CHARS = 2000;
const UNUSED_PER_ADDRESS = 10;
const UNUSED_MAX = 1000;
const UNUSED_KEEP_MS = 86_400_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** An OAuth error as the protocol names it (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  /** Where the client's description came from; `confidential`: an admin made it, with a secret. */
  kind: 'registered' | 'metadata_document' | 'confidential';
  /** Who made a confidential client. */
  created_by?: string;
}

/** A confidential client as listed (never its secret). */
export interface ConfidentialClientView {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'client_secret_post';
  created_at: string;
  created_by: string;
}

/** An authorization request waiting for the person's decision. */
export interface PendingAuthorization {
  id: string;
  client: OAuthClient;
  redirectUri: string;
  state?: string;
  /** The PKCE S256 challenge; absent only for a confidential client that sent none. */
  challenge?: string;
  scope: Scope[];
  resource: string;
  issuer: string;
  expires: number;
  /** Who asked: the caller's address, or the Home Assistant user through ingress. */
  from: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  /** Absent: the code was issued without PKCE (to a confidential client) and only its secret redeems it. */
  challenge?: string;
  scope: Scope[];
  resource: string;
  approvedBy: string;
  clientName: string;
  expires: number;
  used: boolean;
  grantId?: string;
}

export interface OAuthSettings {
  publicUrl?: string;
  registration: boolean;
  allowPrivateMetadata: boolean;
  accessTtl: number;
  refreshDays: number;
}

export type GrantView = Omit<OAuthGrantRecord, 'scope' | 'approved_by'> & { kind: 'oauth_grant'; name: string; scope: string[]; created_by: string };

export type AuthorizeOutcome =
  /** Show the consent page. */
  | { kind: 'consent'; pending: PendingAuthorization }
  /** Send the browser back to the client with an error (the redirect URI is trusted). */
  | { kind: 'redirect'; location: string }
  /** Show an error page: the client or its redirect URI cannot be trusted, so nothing is sent there. */
  | { kind: 'error'; message: string };

/** What the consent form's answer leads to: back to the client, the form again (with why), or an error page. */
export type ConsentOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'consent'; pending: PendingAuthorization; status: number; error: string }
  | { kind: 'error'; message: string };

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** Where a client may send the browser back to: https, http on this machine (native apps), or an app's own scheme. */
function redirectUriProblem(uri: string): string | undefined {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not a URL';
  }
  if (u.hash) return 'must not have a fragment';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) ? undefined : 'must be https (plain http only on localhost)';
  if (['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:'].includes(u.protocol)) return `must not use ${u.protocol}`;
  return undefined;
}

/** A confidential client's redirect URI: http(s), no fragment; exact match is what protects it. */
function confidentialRedirectProblem(uri: string): string | undefined {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not a URL';
  }
  if (u.hash || uri.includes('#')) return 'must not have a fragment';
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http(s) URL';
  return undefined;
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.href;
}

export class OAuthService {
  private readonly pending = new Map<string, PendingAuthorization>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly grants = new Map<string, OAuthGrantRecord>();
  private readonly used: LastUse;
  private readonly metadata: ClientMetadataFetcher;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    private readonly store: OAuthStore,
    private readonly tokens: TokenService,
    private readonly users: Pick<UserStore, 'verify'>,
    private readonly settings: OAuthSettings,
    private readonly log: Logger,
    /** Told when a grant ends (credentials may have ended). */
    private readonly changed: () => void = () => undefined,
  ) {
    this.metadata = new ClientMetadataFetcher(settings.allowPrivateMetadata);
    for (const g of store.grants()) this.grants.set(g.id, g);
    this.used = new LastUse((batch) => store.touch(batch));
    this.pruneRegistrations();
    this.pruner = setInterval(() => this.pruneRegistrations(), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  // --- addresses and metadata -------------------------------------------------------------

  /** The bridge's public address: PUBLIC_URL, else what the request says it reached. */
  base(headers: Record<string, string>): string {
    if (this.settings.publicUrl) return this.settings.publicUrl.replace(/\/+$/, '');
    const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
    const host = (headers['x-forwarded-host']?.split(',')[0]?.trim() || headers.host || 'localhost').replace(/[^A-Za-z0-9.\-:[\]]/g, '');
    return `${proto}://${host}`;
  }

  /** The protected resource: the MCP endpoint. */
  resource(headers: Record<string, string>): string {
    return `${this.base(headers)}/mcp`;
  }

  resourceMetadataUrl(headers: Record<string, string>): string {
    return `${this.base(headers)}/.well-known/oauth-protected-resource/mcp`;
  }

  protectedResource(headers: Record<string, string>) {
    const base = this.base(headers);
    return {
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Home MCP Bridge',
    };
  }

  authorizationServer(headers: Record<string, string>) {
    const base = this.base(headers);
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      ...(this.settings.registration ? { registration_endpoint: `${base}/oauth/register` } : {}),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      scopes_supported: [...SCOPES],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
  }

  // --- clients --------------------------------------------------------------------------

  /** RFC 7591: public clients only (PKCE instead of a secret). */
  register(body: unknown, from = 'unknown'): Record<string, unknown> {
    if (!this.settings.registration)
      throw new OAuthError(
        'access_denied',
        'Dynamic client registration is turned off on this bridge (OAUTH_REGISTRATION); identify with a client ID metadata document',
        403,
      );
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata');
    const m = body as Record<string, unknown>;
    const uris = m.redirect_uris;
    if (
      !Array.isArray(uris) ||
      uris.length === 0 ||
      uris.length > REDIRECT_URIS_MAX ||
      !uris.every((u) => typeof u === 'string' && u.length <= REDIRECT_URI_MAX_CHARS) ||
      (uris as string[]).reduce((n, u) => n + u.length, 0) > REDIRECT_URIS_MAX_CHARS
    ) {
      throw new OAuthError(
        'invalid_redirect_uri',
        `redirect_uris must be a list of 1 to ${REDIRECT_URIS_MAX} URLs, each at most ${REDIRECT_URI_MAX_CHARS} characters and ${REDIRECT_URIS_MAX_CHARS} in all`,
      );
    }
    for (const u of uris as string[]) {
      const problem = redirectUriProblem(u);
      if (problem) throw new OAuthError('invalid_redirect_uri', `The redirect URI ${JSON.stringify(u.slice(0, 200))} ${problem}`);
    }
    const name = typeof m.client_name === 'string' && m.client_name.trim() ? m.client_name.trim().slice(0, 100) : 'Unnamed client';
    const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
    if (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
      throw new OAuthError('invalid_client_metadata', 'grant_types may hold authorization_code and refresh_token only');
    if (m.response_types !== undefined && !(Array.isArray(m.response_types) && m.response_types.every((r) => r === 'code')))
      throw new OAuthError('invalid_client_metadata', 'response_types may hold code only');
    // A client with a secret is made by an admin, who sees who it is; registration is open to anyone.
    if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== 'none') {
      throw new OAuthError(
        'invalid_client_metadata',
        'Registration makes public clients only (token_endpoint_auth_method "none", with PKCE); a client with a secret is made by an admin in the bridge\'s panel (or POST /api/oauth/clients)',
      );
    }
    const clientId = `hmb_${randomBytes(16).toString('base64url')}`;
    const issuedAt = Math.floor(Date.now() / 1000);
    const info = {
      client_id: clientId,
      client_id_issued_at: issuedAt,
      client_name: name,
      redirect_uris: uris as string[],
      grant_types: grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(typeof m.client_uri === 'string' ? { client_uri: m.client_uri.slice(0, 500) } : {}),
    };
    const now = Date.now();
    this.store.addRegisteredClient(clientId, info, new Date(now).toISOString(), from);
    const gone = this.store.pruneRegistrations(new Date(now - UNUSED_KEEP_MS).toISOString(), { address: from, perAddress: UNUSED_PER_ADDRESS }, UNUSED_MAX);
    this.log.info({ client: clientId, name, ...(gone ? { pruned: gone } : {}) }, 'OAuth client registered');
    return info;
  }

  private async client(clientId: string): Promise<OAuthClient> {
    if (isMetadataUrl(clientId, this.settings.allowPrivateMetadata)) {
      let doc: Record<string, unknown>;
      try {
        doc = await this.metadata.get(clientId);
      } catch (err) {
        throw new OAuthError(
          'invalid_client',
          `The client's metadata document ${clientId.slice(0, 200)} could not be used: ${err instanceof MetadataError ? err.message : 'fetching it failed'}`,
          401,
        );
      }
      const uris = (doc.redirect_uris as string[]).filter((u) => !redirectUriProblem(u));
      return {
        client_id: clientId,
        client_name: typeof doc.client_name === 'string' ? doc.client_name.slice(0, 100) : new URL(clientId).host,
        redirect_uris: uris,
        kind: 'metadata_document',
      };
    }
    const stored = this.store.client(clientId);
    if (!stored)
      throw new OAuthError(
        'invalid_client',
        `Unknown client ${JSON.stringify(clientId.slice(0, 100))}: register first, or use a client ID metadata document URL`,
        401,
      );
    const confidential = stored.token_endpoint_auth_method === 'client_secret_post';
    return {
      client_id: clientId,
      client_name: String(stored.client_name),
      redirect_uris: stored.redirect_uris as string[],
      kind: confidential ? 'confidential' : 'registered',
      ...(confidential ? { created_by: String(stored.created_by ?? '') } : {}),
    };
  }

  /**
   * A confidential client for a program that keeps a secret (Home Assistant's `mcp` integration
   * with application credentials): made by a person, its secret shown in this answer only and kept
   * as a hash. Its redirect URIs match exactly; plain http is allowed for any host, since its codes
   * are worth nothing without the secret.
   */
  createClient(input: { name: string; redirect_uris: string[] }, by: Principal): ConfidentialClientView & { client_secret: string } {
    const name = input.name.trim().slice(0, 100);
    for (const u of input.redirect_uris) {
      const problem = confidentialRedirectProblem(u);
      if (problem) throw new AppError('INVALID_PARAMETERS', 400, `The redirect URI ${JSON.stringify(u.slice(0, 200))} ${problem}`, { field: 'redirect_uris' });
    }
    const clientId = `hmbc_${randomBytes(16).toString('base64url')}`;
    const secret = `hmbs_${randomBytes(32).toString('base64url')}`;
    const createdAt = new Date().toISOString();
    const createdBy = actorName(by);
    const metadata = {
      client_id: clientId,
      client_name: name,
      redirect_uris: [...new Set(input.redirect_uris)],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      created_by: createdBy,
    };
    this.store.addClient(clientId, metadata, createdAt, { secretHash: sha256(secret), createdBy });
    this.log.info({ client: clientId, name, user: createdBy }, 'OAuth confidential client made');
    return {
      client_id: clientId,
      client_name: name,
      redirect_uris: metadata.redirect_uris,
      token_endpoint_auth_method: 'client_secret_post',
      created_at: createdAt,
      created_by: createdBy,
      client_secret: secret,
    };
  }

  confidentialClients(): ConfidentialClientView[] {
    return this.store.confidentialClients().map((c) => ({
      client_id: c.client_id,
      client_name: String(c.metadata.client_name),
      redirect_uris: c.metadata.redirect_uris as string[],
      token_endpoint_auth_method: 'client_secret_post',
      created_at: c.registered_at,
      created_by: c.created_by,
    }));
  }

  /** Deletes a confidential client and ends every grant it holds; undefined when there is none. */
  deleteClient(clientId: string, by: Principal): ConfidentialClientView | undefined {
    const view = this.confidentialClients().find((c) => c.client_id === clientId);
    if (!view) return undefined;
    for (const g of [...this.grants.values()]) if (g.client_id === clientId) this.endGrant(g.id, `its client was deleted by ${actorName(by)}`);
    this.store.deleteClient(clientId);
    for (const [code, c] of this.codes) if (c.clientId === clientId) this.codes.delete(code);
    this.log.info({ client: clientId, name: view.client_name, user: actorName(by) }, 'OAuth confidential client deleted');
    return view;
  }

  /**
   * Client authentication at the token and revocation endpoints: a confidential client proves
   * itself with its secret in the form (client_secret_post); a public client has none to send.
   */
  private authenticate(clientId: string, form: URLSearchParams): { confidential: boolean } {
    const hash = this.store.secretHash(clientId);
    const secret = form.get('client_secret');
    if (hash === undefined) {
      if (secret) {
        const known = this.store.client(clientId) !== undefined || isMetadataUrl(clientId, this.settings.allowPrivateMetadata);
        throw new OAuthError(
          'invalid_client',
          known
            ? 'This client is public: it has no secret (it proves itself with PKCE); send no client_secret'
            : `Unknown client ${JSON.stringify(clientId.slice(0, 100))}`,
          401,
        );
      }
      return { confidential: false };
    }
    if (!secret) throw new OAuthError('invalid_client', 'This client is confidential: send its client_secret in the form body (client_secret_post)', 401);
    if (!timingSafeEqual(Buffer.from(sha256(secret)), Buffer.from(hash))) throw new OAuthError('invalid_client', 'The client secret is wrong', 401);
    return { confidential: true };
  }

  // --- authorization ----------------------------------------------------------------------

  /** GET /oauth/authorize: checks the request; the consent page or an error comes back. */
  async authorize(q: Record<string, string | undefined>, headers: Record<string, string>, from = 'unknown'): Promise<AuthorizeOutcome> {
    if (!q.client_id) return { kind: 'error', message: 'The request names no client (client_id).' };
    let client: OAuthClient;
    try {
      client = await this.client(q.client_id);
    } catch (err) {
      return { kind: 'error', message: (err as Error).message };
    }
    // Only an exact match: nothing is ever sent to an address the client did not name beforehand.
    if (!q.redirect_uri || !client.redirect_uris.includes(q.redirect_uri)) {
      return {
        kind: 'error',
        message: `The redirect URI ${JSON.stringify((q.redirect_uri ?? '').slice(0, 200))} is not one ${client.client_name} registered.`,
      };
    }
    const issuer = this.base(headers);
    const state = q.state !== undefined && q.state.length <= STATE_MAX ? q.state : undefined;
    const back = (error: string, description: string): AuthorizeOutcome => ({
      kind: 'redirect',
      location: withParams(q.redirect_uri!, { error, error_description: description, state, iss: issuer }),
    });
    if (q.state !== undefined && state === undefined) return back('invalid_request', `state is longer than ${STATE_MAX} characters`);
    if (q.response_type !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported');
    // PKCE: always for public clients; a confidential client proves itself with its secret instead, and may add PKCE.
    const pkce = q.code_challenge !== undefined || q.code_challenge_method !== undefined;
    if (pkce || client.kind !== 'confidential') {
      if (q.code_challenge_method !== 'S256' || !q.code_challenge || !CHALLENGE.test(q.code_challenge)) {
        return back(
          'invalid_request',
          client.kind === 'confidential'
            ? 'PKCE, when used, is code_challenge (S256, 43 characters) with code_challenge_method=S256'
            : 'PKCE is required: code_challenge (S256, 43 characters) and code_challenge_method=S256',
        );
      }
    }
    const scope = this.parseScope(q.scope);
    if (!scope) return back('invalid_scope', `Scopes are ${SCOPES.join(', ')}`);
    const resource = this.resource(headers);
    if (q.resource !== undefined && q.resource.replace(/\/+$/, '') !== resource) return back('invalid_target', `This server's resource is ${resource}`);
    this.sweep();
    this.makeRoom(from, client.client_id);
    const pending: PendingAuthorization = {
      id: randomBytes(24).toString('base64url'),
      client,
      redirectUri: q.redirect_uri,
      state,
      ...(pkce ? { challenge: q.code_challenge } : {}),
      scope,
      resource,
      issuer,
      expires: Date.now() + PENDING_TTL_MS,
      from,
    };
    this.pending.set(pending.id, pending);
    return { kind: 'consent', pending };
  }

  /**
   * The consent form's answer (POST /oauth/authorize). A person who came through Home Assistant's
   * ingress has signed in already; anyone else allows only with a bridge user's password (denying
   * needs none: it grants nothing).
   */
  async answer(form: URLSearchParams, signedIn: Principal | undefined, ip: string): Promise<ConsentOutcome> {
    const id = form.get('request');
    const pending = id ? this.pending.get(id) : undefined;
    if (!pending || pending.expires < Date.now()) return { kind: 'error', message: 'This authorization request is unknown or has expired (after 10 minutes).' };
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'deny') return { kind: 'consent', pending, status: 400, error: 'Choose Allow or Deny.' };
    let who = signedIn;
    if (!who) {
      const username = form.get('username') ?? '';
      const password = form.get('password') ?? '';
      if (decision === 'approve' && !(username && password && (await this.users.verify(username, password)))) {
        this.log.warn({ client: pending.client.client_id, ip }, 'OAuth consent: wrong username or password');
        return { kind: 'consent', pending, status: 401, error: 'Wrong username or password.' };
      }
      who = { sub: username || 'anonymous', iat: Math.floor(Date.now() / 1000) };
    }
    const scope = form.getAll('scope').filter((x): x is Scope => (SCOPES as readonly string[]).includes(x));
    return { kind: 'redirect', location: this.decide(pending, decision === 'approve', who, scope) };
  }

  /** The person's decision; the redirect back to the client. Approval issues a one-time code. */
  private decide(pending: PendingAuthorization, approve: boolean, who: Principal, scope: Scope[]): string {
    this.pending.delete(pending.id);
    const base = { state: pending.state, iss: pending.issuer };
    if (!approve) {
      this.log.info({ client: pending.client.client_id, user: actorName(who) }, 'OAuth authorization denied');
      return withParams(pending.redirectUri, { error: 'access_denied', error_description: 'The request was denied', ...base });
    }
    const granted = scope.filter((s) => pending.scope.includes(s));
    if (!granted.includes('read')) granted.unshift('read');
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, {
      clientId: pending.client.client_id,
      clientName: pending.client.client_name,
      redirectUri: pending.redirectUri,
      ...(pending.challenge ? { challenge: pending.challenge } : {}),
      scope: granted,
      resource: pending.resource,
      approvedBy: actorName(who),
      expires: Date.now() + CODE_TTL_MS,
      used: false,
    });
    return withParams(pending.redirectUri, { code, ...base });
  }

  // --- tokens -----------------------------------------------------------------------------

  async token(form: URLSearchParams): Promise<Record<string, unknown>> {
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(form);
    if (grantType === 'refresh_token') return this.refresh(form);
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType.slice(0, 40)} is not supported (authorization_code, refresh_token)`);
  }

  private async exchangeCode(form: URLSearchParams): Promise<Record<string, unknown>> {
    const need = (k: string) => {
      const v = form.get(k);
      if (!v) throw new OAuthError('invalid_request', `${k} is required`);
      return v;
    };
    const code = need('code');
    const clientId = need('client_id');
    const redirectUri = need('redirect_uri');
    const verifier = form.get('code_verifier');
    const { confidential } = this.authenticate(clientId, form);
    const issued = this.codes.get(code);
    if (!issued || issued.clientId !== clientId) throw new OAuthError('invalid_grant', 'The authorization code is unknown or was issued to another client');
    if (issued.used) {
      // A code used twice may have been stolen: whatever it bought ends too.
      if (issued.grantId) this.endGrant(issued.grantId, 'its authorization code was used again');
      throw new OAuthError('invalid_grant', 'The authorization code was used already');
    }
    issued.used = true;
    if (issued.expires < Date.now()) throw new OAuthError('invalid_grant', 'The authorization code has expired');
    if (issued.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one in the authorization request');
    if (issued.challenge === undefined) {
      // Issued without PKCE: the client's secret (checked above) is what redeems it, nothing else.
      if (!confidential)
        throw new OAuthError(
          'invalid_grant',
          'The authorization code was issued without PKCE; only a confidential client redeems such a code, with its secret',
        );
      if (verifier !== null) throw new OAuthError('invalid_grant', 'A code_verifier was sent for a code issued without a code_challenge');
    } else {
      if (verifier === null) throw new OAuthError('invalid_request', 'code_verifier is required: the code was issued with a PKCE code_challenge');
      if (!VERIFIER.test(verifier) || sha256(verifier) !== issued.challenge)
        throw new OAuthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge');
    }
    const resource = form.get('resource');
    if (resource !== null && resource.replace(/\/+$/, '') !== issued.resource)
      throw new OAuthError('invalid_target', `The code was issued for ${issued.resource}`);
    const now = new Date();
    const refresh = `hmbr_${randomBytes(32).toString('base64url')}`;
    const grant: OAuthGrantRecord = {
      id: randomUUID(),
      client_id: issued.clientId,
      client_name: issued.clientName,
      scope: issued.scope.join(' '),
      resource: issued.resource,
      approved_by: issued.approvedBy,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.settings.refreshDays * DAY_MS).toISOString(),
      last_used_at: null,
    };
    this.store.addGrant(grant, sha256(refresh));
    this.store.markGranted(grant.client_id, grant.created_at);
    this.grants.set(grant.id, grant);
    issued.grantId = grant.id;
    this.log.info({ grant: grant.id, client: grant.client_id, name: grant.client_name, user: grant.approved_by, scope: grant.scope }, 'OAuth grant made');
    return this.tokenResponse(grant, refresh);
  }

  private async refresh(form: URLSearchParams): Promise<Record<string, unknown>> {
    const token = form.get('refresh_token');
    const clientId = form.get('client_id');
    if (!token || !clientId) throw new OAuthError('invalid_request', 'refresh_token and client_id are required');
    this.authenticate(clientId, form);
    const hash = sha256(token);
    const row = this.store.refreshToken(hash);
    const grant = row ? this.grants.get(row.grant_id) : undefined;
    if (!row || !grant) throw new OAuthError('invalid_grant', 'The refresh token is unknown or its grant was revoked');
    if (grant.client_id !== clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    if (row.used_at) {
      this.endGrant(grant.id, 'a refresh token was used a second time');
      throw new OAuthError('invalid_grant', 'The refresh token was used already; the grant has ended, authorize again');
    }
    if (Date.parse(grant.expires_at) < Date.now()) {
      this.endGrant(grant.id, 'it expired');
      throw new OAuthError('invalid_grant', 'The grant has expired; authorize again');
    }
    let scope = grant.scope.split(' ') as Scope[];
    const asked = form.get('scope');
    if (asked !== null) {
      const narrower = this.parseScope(asked);
      if (!narrower || narrower.some((s) => !scope.includes(s))) throw new OAuthError('invalid_scope', `The grant covers ${grant.scope}`);
      scope = narrower;
    }
    const next = `hmbr_${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    const expires = new Date(now.getTime() + this.settings.refreshDays * DAY_MS).toISOString();
    if (!this.store.rotate(hash, sha256(next), grant.id, now.toISOString(), expires)) {
      this.endGrant(grant.id, 'a refresh token was used twice at once');
      throw new OAuthError('invalid_grant', 'The refresh token was used already; the grant has ended, authorize again');
    }
    grant.expires_at = expires;
    grant.last_used_at = now.toISOString();
    this.log.info({ grant: grant.id, client: grant.client_id }, 'OAuth grant refreshed');
    return this.tokenResponse({ ...grant, scope: scope.join(' ') }, next);
  }

  private async tokenResponse(grant: OAuthGrantRecord, refresh: string) {
    const scope = grant.scope.split(' ');
    const access = await this.tokens.issueOAuth(grant.id, scope, grant.resource, this.settings.accessTtl);
    return { access_token: access, token_type: 'Bearer', expires_in: this.settings.accessTtl, refresh_token: refresh, scope: grant.scope };
  }

  /** RFC 7009: a refresh token or an access token ends its grant; unknown tokens are fine (200 all the same). */
  async revoke(form: URLSearchParams): Promise<void> {
    const token = form.get('token');
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    const clientId = form.get('client_id');
    const row = this.store.refreshToken(sha256(token));
    let grantId = row?.grant_id;
    if (!grantId) {
      const p = await this.tokens.verify(token).catch(() => undefined);
      grantId = p?.via === 'oauth' ? p.grantId : undefined;
    }
    const grant = grantId ? this.grants.get(grantId) : undefined;
    if (!grant) return;
    if (clientId !== null && clientId !== grant.client_id) throw new OAuthError('invalid_client', 'The token was issued to another client', 401);
    // A confidential client's tokens are revoked by that client, with its secret.
    if (this.store.secretHash(grant.client_id) !== undefined) this.authenticate(grant.client_id, form);
    this.endGrant(grant.id, 'the client revoked it');
  }

  // --- grants as the person sees them ---------------------------------------------------------

  list(): GrantView[] {
    return [...this.grants.values()].map(({ scope, approved_by, ...g }) => ({
      kind: 'oauth_grant',
      ...g,
      name: g.client_name,
      scope: scope.split(' '),
      created_by: approved_by,
    }));
  }

  /** Revokes a grant by id (the panel, DELETE /api/tokens/{id}); undefined when there is none. */
  revokeGrant(id: string, by: Principal): GrantView | undefined {
    const view = this.list().find((g) => g.id === id);
    if (view) this.endGrant(id, `revoked by ${actorName(by)}`);
    return view;
  }

  private endGrant(id: string, why: string): void {
    const grant = this.grants.get(id);
    this.grants.delete(id);
    this.used.forget(id);
    this.store.deleteGrant(id);
    if (grant) this.log.info({ grant: id, client: grant.client_id, name: grant.client_name }, `OAuth grant ended: ${why}`);
    this.changed();
  }

  /** Whether an OAuth access token has ended: its grant was revoked or ended. */
  ended(p: Principal): CredentialEnd | undefined {
    return p.grantId && this.grants.has(p.grantId) ? undefined : { reason: 'token_revoked', message: 'The access token has been revoked' };
  }

  /** Why an OAuth access token is refused for this request, or undefined; notes the grant's use. */
  refusal(p: Principal, headers: Record<string, string>): AppError | undefined {
    const invalid = (message: string) =>
      new AppError(
        'AUTHENTICATION_ERROR',
        401,
        message,
        {},
        { 'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${this.resourceMetadataUrl(headers)}"` },
      );
    const end = this.ended(p);
    if (end) return invalid(end.message);
    const grant = this.grants.get(p.grantId!)!;
    if (p.audience?.replace(/\/+$/, '') !== this.resource(headers))
      return invalid(`The access token is for another resource (${String(p.audience).slice(0, 200)})`);
    grant.last_used_at = this.used.note(grant.id);
    return undefined;
  }

  private parseScope(text: string | null | undefined): Scope[] | undefined {
    if (text === undefined || text === null || text.trim() === '') return [...DEFAULT_SCOPES];
    const asked = text.trim().split(/\s+/);
    if (asked.some((s) => !(SCOPES as readonly string[]).includes(s))) return undefined;
    return SCOPES.filter((s) => asked.includes(s));
  }

  /** Before a new waiting authorization: the oldest of its address, of its client, of all give way. */
  private makeRoom(from: string, clientId: string): void {
    const oldestOf = (keep: (p: PendingAuthorization) => boolean, max: number) => {
      // The map keeps insertion order: the first ones found are the oldest.
      const mine = [...this.pending.values()].filter(keep);
      for (const p of mine.slice(0, Math.max(0, mine.length - max + 1))) this.pending.delete(p.id);
    };
    oldestOf((p) => p.from === from, PENDING_PER_ADDRESS);
    oldestOf((p) => p.client.client_id === clientId, PENDING_PER_CLIENT);
    oldestOf(() => true, PENDING_MAX);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) if (p.expires < now) this.pending.delete(id);
    for (const [code, c] of this.codes) if (c.expires < now - CODE_TTL_MS * 10) this.codes.delete(code);
  }

  /** Self-registered clients never granted anything go after a day (admin-made ones never). */
  private pruneRegistrations(): void {
    const gone = this.store.pruneRegistrations(new Date(Date.now() - UNUSED_KEEP_MS).toISOString());
    if (gone) this.log.info({ pruned: gone }, 'OAuth: removed self-registered clients that were never granted anything within a day');
  }

  close(): void {
    clearInterval(this.pruner);
    this.used.close();
  }
}
