// Confidential OAuth clients, made by a person for a program that keeps a secret: Home Assistant's
// own `mcp` integration (application credentials: client id and secret, no PKCE). Never made
// through /oauth/register. The secret is in the answer that makes the client, once.
import * as v from 'valibot';
import { notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';
import { person } from './tokens.js';

const people = { 403: { description: 'FORBIDDEN: clients are made by a signed-in person, not an assistant' } };

const clientRequest = v.strictObject({
  name: v.pipe(
    v.string('must be a string'),
    v.maxLength(100, 'must be at most 100 characters'),
    v.check((n) => n.trim() !== '', 'must not be empty'),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a name is refused for holding control characters, so the pattern names them
    v.check((n) => !/[\u0000-\u001f\u007f]/.test(n), 'must not hold control characters'),
  ),
  redirect_uris: v.pipe(
    v.array(v.pipe(v.string('each must be a URL'), v.minLength(1, 'each must be a URL'), v.maxLength(2000, 'each must be at most 2000 characters'))),
    v.minLength(1, 'must hold at least one redirect URI'),
    v.maxLength(10, 'holds at most 10 redirect URIs'),
  ),
});

export function registerOAuthClientRoutes(routes: RouteTable, { oauth }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/oauth/clients',
    summary: 'The confidential OAuth clients people made (Home Assistant’s mcp integration and the like), never their secrets',
    responses: { 200: { description: 'The clients', schema: shape.confidentialClientList }, ...people },
    handler: (req) => {
      person(req.principal);
      return { clients: oauth.confidentialClients() };
    },
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/oauth/clients',
      summary:
        'Make a confidential OAuth client {name, redirect_uris}: it signs in with client_secret_post and may skip PKCE; the secret is in this answer only',
      body: v.pipe(
        clientRequest,
        v.examples([
          { name: 'Home Assistant', redirect_uris: ['https://my.home-assistant.io/redirect/oauth'] },
          { name: 'Home Assistant (no My Home Assistant)', redirect_uris: ['http://homeassistant.local:8123/auth/external/callback'] },
        ]),
      ),
      responses: { 201: { description: 'Made; `client_secret` is shown this once', schema: shape.confidentialClientMade }, ...people },
      handler: (req) => {
        const made = oauth.createClient(req.body, person(req.principal));
        return reply(201, made, { Location: `/api/oauth/clients/${made.client_id}` });
      },
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/oauth/clients/:client_id',
    summary: 'Delete a confidential OAuth client: its grants end at once',
    responses: {
      200: { description: 'Deleted', schema: v.object({ success: v.literal(true), deleted: shape.confidentialClient }) },
      404: { description: 'NOT_FOUND: no such client' },
      ...people,
    },
    handler: (req) => {
      const deleted = oauth.deleteClient(req.params.client_id, person(req.principal));
      if (!deleted) throw notFound(`No confidential client ${JSON.stringify(req.params.client_id.slice(0, 64))}`);
      return { success: true, deleted };
    },
  });
}
