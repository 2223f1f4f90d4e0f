// OAuth for hosted assistants (thin adapters over src/oauth/service.ts): the metadata documents
// (RFC 9728, RFC 8414), registration (RFC 7591), the authorization endpoint with its consent page,
// the token endpoint and revocation (RFC 7009). The token and revocation endpoints speak form
// bodies and OAuth's own error shape, so they are `fetch` routes.
import * as v from 'valibot';
import { addressGroup } from '../../ip-address.js';
import { consentHeaders, consentPage, errorPage } from '../../oauth/consent-page.js';
import { OAuthError, REGISTRATION_MAX_BYTES } from '../../oauth/service.js';
import type { Principal } from '../../auth/tokens.js';
import type { Services } from '../../services.js';
import type { ApiRequest, RouteTable } from '../routes.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers } });
const oauthError = (e: OAuthError) =>
  json(e.status, { error: e.error, error_description: e.description }, e.status === 401 ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {});
const html = (status: number, body: string, redirectUri?: string) => new Response(body, { status, headers: consentHeaders(redirectUri) });

async function formOf(request: Request): Promise<URLSearchParams> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(await request.text());
  // A parameter given twice is ambiguous (RFC 6749 §3.1).
  for (const k of new Set(form.keys())) if (k !== 'scope' && form.getAll(k).length > 1) throw new OAuthError('invalid_request', `${k} is given more than once`);
  return form;
}

const caught = (run: () => Promise<Response>) =>
  run().catch((err: unknown) => {
    if (err instanceof OAuthError) return oauthError(err);
    throw err;
  });

export function registerOAuthRoutes(routes: RouteTable, { oauth, ingress }: Services): void {
  const meta = { 200: { description: 'The metadata', schema: v.record(v.string(), v.unknown()) } };

  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    routes.add({
      method: 'GET',
      path,
      summary: 'OAuth protected resource metadata of /mcp (RFC 9728)',
      public: true,
      responses: meta,
      handler: (req) => oauth.protectedResource(req.headers),
    });
  }
  routes.add({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary: 'OAuth authorization server metadata (RFC 8414)',
    public: true,
    responses: meta,
    handler: (req) => oauth.authorizationServer(req.headers),
  });

  routes.add({
    kind: 'fetch',
    method: 'POST',
    path: '/oauth/register',
    summary: 'OAuth dynamic client registration (RFC 7591): public clients with PKCE; 403 when OAUTH_REGISTRATION is off',
    public: true,
    handle: (request, req) =>
      caught(async () => {
        const text = await request.text();
        if (Buffer.byteLength(text) > REGISTRATION_MAX_BYTES)
          throw new OAuthError('invalid_client_metadata', `The registration is larger than ${REGISTRATION_MAX_BYTES / 1024} KiB`);
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new OAuthError('invalid_client_metadata', 'The body must be JSON client metadata');
        }
        return json(201, oauth.register(body, addressGroup(req.ip)));
      }),
  });

  routes.add({
    kind: 'fetch',
    method: 'GET',
    path: '/oauth/authorize',
    summary: 'OAuth authorization endpoint: checks the request and shows the consent page (HTML)',
    public: true,
    handle: async (request, req) => {
      const q = Object.fromEntries(new URL(request.url).searchParams);
      const by = viaIngress(req);
      const outcome = await oauth.authorize(q, req.headers, by ? `user:${by.sub}` : addressGroup(req.ip));
      if (outcome.kind === 'error') return html(400, errorPage(outcome.message));
      if (outcome.kind === 'redirect') return new Response(null, { status: 302, headers: { Location: outcome.location, ...NO_STORE } });
      return html(200, consentPage(outcome.pending, viaIngress(req)), outcome.pending.redirectUri);
    },
  });

  routes.add({
    kind: 'fetch',
    method: 'POST',
    path: '/oauth/authorize',
    summary: 'The consent form: the person signs in (or came through Home Assistant) and allows or denies',
    public: true,
    handle: async (request, req) => {
      let form: URLSearchParams;
      try {
        form = await formOf(request);
      } catch (err) {
        return html(400, errorPage((err as Error).message));
      }
      // Through ingress the person is signed in and no password is asked, so the answer must come
      // from the consent page itself: a page elsewhere cannot make the browser approve for them.
      if (viaIngress(req) && !fromConsentPage(req, ingress)) {
        return html(
          403,
          errorPage(
            `This answer did not come from the consent page itself (Origin ${JSON.stringify((req.headers.origin ?? 'none').slice(0, 100))}), so nothing was granted. Start again from the assistant.`,
          ),
        );
      }
      const outcome = await oauth.answer(form, viaIngress(req), req.ip);
      if (outcome.kind === 'error') return html(400, errorPage(outcome.message));
      if (outcome.kind === 'consent') return html(outcome.status, consentPage(outcome.pending, viaIngress(req), outcome.error), outcome.pending.redirectUri);
      return new Response(null, { status: 302, headers: { Location: outcome.location, ...NO_STORE } });
    },
  });

  routes.add({
    kind: 'fetch',
    method: 'POST',
    path: '/oauth/token',
    summary: 'OAuth token endpoint: authorization_code (with the PKCE verifier) and refresh_token (rotating) grants',
    public: true,
    handle: (request) => caught(async () => json(200, await oauth.token(await formOf(request)))),
  });

  routes.add({
    kind: 'fetch',
    method: 'POST',
    path: '/oauth/revoke',
    summary: 'OAuth token revocation (RFC 7009): a refresh or access token ends its grant',
    public: true,
    handle: (request) =>
      caught(async () => {
        await oauth.revoke(await formOf(request));
        return json(200, {});
      }),
  });
}

/** A Home Assistant user who came through ingress has signed in already. */
// biome-ignore lint/suspicious/noExplicitAny: reads only headers and the principal, from routes of any params/query type
function viaIngress(req: ApiRequest<undefined, any, any>): Principal | undefined {
  return req.principal?.via === 'ingress' ? req.principal : undefined;
}

/** The Origin of a form sent through ingress is the address the browser shows: Home Assistant's, as its proxy forwards it. */
// biome-ignore lint/suspicious/noExplicitAny: reads only headers and the principal, from routes of any params/query type
function fromConsentPage(req: ApiRequest<undefined, any, any>, ingress: Services['ingress']): boolean {
  const origin = req.headers.origin;
  if (!origin || !ingress.fromProxy(req.ip)) return false;
  const host = req.headers['x-forwarded-host']?.split(',')[0]?.trim();
  const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim() || 'http';
  return host !== undefined && origin.toLowerCase() === `${proto}://${host}`.toLowerCase();
}
