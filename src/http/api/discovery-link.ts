// Home Assistant's link to the bridge (the MCP address announced through the Supervisor): what it
// is, a new key (the old link stops at once), and whether Home Assistant may control or only read.
// People only; the key itself is never shown.
import * as v from 'valibot';
import { LinkOffError } from '../../auth/discovery-link.js';
import { LINK_SCOPES } from '../../auth/discovery-link.js';
import { conflict } from '../../errors.js';
import type { Services } from '../../services.js';
import { jsonRoute, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';
import { person } from './tokens.js';

const people = { 403: { description: 'FORBIDDEN: assistants cannot change how Home Assistant reaches the bridge' } };
const off = { 409: { description: 'CONFLICT: not running as an add-on, so there is no link (nothing to announce to)' } };

async function unlessOff<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof LinkOffError) throw conflict(`Home Assistant's link is off: ${err.message}`);
    throw err;
  }
}

export function registerDiscoveryLinkRoutes(routes: RouteTable, { discoveryLink }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/discovery',
    summary:
      "Home Assistant's link to the bridge (announced through the Supervisor's discovery): its scope, when it was last used, the announcement; never the key",
    responses: { 200: { description: 'The link', schema: shape.discoveryLink }, ...people },
    handler: (req) => {
      person(req.principal);
      return discoveryLink.view();
    },
  });

  routes.add({
    method: 'POST',
    path: '/api/discovery/rotate',
    summary: "A new key for Home Assistant's link: the old link stops at once and the new one is announced (Home Assistant updates its entry)",
    responses: { 200: { description: 'The link with its new key in place (the key is not shown)', schema: shape.discoveryLink }, ...people, ...off },
    handler: async (req) => {
      const by = person(req.principal);
      return unlessOff(() => discoveryLink.rotate(by));
    },
  });

  routes.add(
    jsonRoute({
      method: 'PATCH',
      path: '/api/discovery',
      summary: 'What Home Assistant may do through its link: scope ["read"] (tools that read) or ["read", "control"] (the default)',
      body: v.pipe(
        v.strictObject({
          scope: v.pipe(
            v.array(v.picklist(LINK_SCOPES, 'each must be read or control')),
            v.minLength(1, 'must name at least read'),
            v.maxLength(2, 'holds read and control at most'),
          ),
        }),
        v.examples([{ scope: ['read'] }, { scope: ['read', 'control'] }]),
      ),
      responses: { 200: { description: 'The link with its new scope', schema: shape.discoveryLink }, ...people, ...off },
      handler: async (req) => {
        const by = person(req.principal);
        return unlessOff(() => discoveryLink.setScope(req.body.scope, by));
      },
    }),
  );
}
