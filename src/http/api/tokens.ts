// Named bridge tokens for assistants: made, listed and revoked by a signed-in person (a bridge
// user, or a Home Assistant user through ingress). A bridge token cannot make more tokens.
import * as v from 'valibot';
import { tokenRequestSchema } from '../../auth/bridge-tokens.js';
import { actorName, isPerson, type Principal } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

const forbidden = { 403: { description: 'FORBIDDEN: an assistant token cannot manage tokens' } };

export function person(p: Principal | undefined): Principal {
  if (!isPerson(p))
    throw new AppError(
      'FORBIDDEN',
      403,
      'Tokens are managed by a signed-in person (a bridge user, or a Home Assistant user through the panel), not with an assistant token',
    );
  return p;
}

export function registerTokenRoutes(routes: RouteTable, { bridgeTokens, oauth, log }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/tokens',
    summary: 'The named bridge tokens made for assistants and the grants OAuth clients hold, with when each was last used (never the tokens themselves)',
    responses: { 200: { description: 'The tokens', schema: shape.bridgeTokenList }, ...forbidden },
    handler: (req) => {
      person(req.principal);
      return { tokens: [...bridgeTokens.list(), ...oauth.list()] };
    },
  });

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/tokens',
      summary: 'Make a named long-lived token for an assistant {name, expires_in_days?} (default and most: 3650 days); the token is in this answer only',
      body: v.pipe(tokenRequestSchema, v.examples([{ name: 'Claude Desktop' }, { name: 'Kitchen tablet', expires_in_days: 365 }])),
      responses: {
        201: { description: 'Made; `token` is shown this once', schema: shape.bridgeTokenCreated },
        409: { description: 'CONFLICT: a token has that name' },
        ...forbidden,
      },
      handler: async (req) => {
        const made = await bridgeTokens.create(req.body, person(req.principal));
        log.info(`bridge token ${made.id} (${JSON.stringify(made.name)}) made by ${made.created_by}, expires ${made.expires_at}`);
        return reply(201, made, { Location: `/api/tokens/${made.id}` });
      },
    }),
  );

  routes.add({
    method: 'DELETE',
    path: '/api/tokens/:id',
    summary: 'Revoke a bridge token or an OAuth grant: refused from the next request on, also after a restart',
    responses: { 200: { description: 'Revoked', schema: shape.bridgeTokenRevoked }, 404: { description: 'NOT_FOUND: no such token' }, ...forbidden },
    handler: (req) => {
      const by = person(req.principal);
      // An OAuth client's grant is revoked the same way as a bridge token.
      const grant = oauth.revokeGrant(req.params.id, by);
      if (grant) return { success: true, revoked: grant };
      const revoked = bridgeTokens.revoke(req.params.id);
      log.info(`bridge token ${revoked.id} (${JSON.stringify(revoked.name)}) revoked by ${actorName(by)}`);
      return { success: true, revoked };
    },
  });
}
