// The one way a tool acts: a service call on entities (by id) or an area (by name or id), checked
// by the executor, held to the guard, run or only planned (dry run), and answered with each
// entity's new state and whether it shows what was asked. Category plugins describe their verbs
// and call this; none repeats these rules.
import * as v from 'valibot';
import { AppError } from '../errors.js';
import type { Services } from '../services.js';
import type { ToolResult } from './api.js';

export interface ActRequest {
  /** The hub domain acted on (only its entities are answered). */
  domain: string;
  service: string;
  data?: Record<string, unknown>;
  entity_id?: string | string[];
  /** An area by id or by name, as a person says it. */
  area?: string;
  dry_run?: boolean;
  /** The person confirmed an action that needs it (unlock, disarm, open a garage door). */
  confirm?: boolean;
}

/** The input fields every acting tool shares: which entities (by id or area), dry run, confirm. */
export function targetFields(domain: string) {
  const id = v.pipe(v.string(), v.regex(new RegExp(`^${domain}\\.[a-z0-9_]+$`), `must be a ${domain} entity id such as ${domain}.kitchen`));
  return {
    entity_id: v.optional(v.union([id, v.pipe(v.array(id), v.minLength(1), v.maxLength(100))])),
    area: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    dry_run: v.optional(v.boolean()),
  };
}

/** `confirm`, for tools whose actions may open the home. */
export const confirmField = { confirm: v.optional(v.boolean()) };

/** What an acting tool answers in structuredContent. */
export const actOutput = v.object({
  service: v.string(),
  dry_run: v.boolean(),
  entities: v.array(
    v.object({
      entity_id: v.string(),
      state: v.nullable(v.string()),
      verified: v.optional(v.boolean()),
      pending: v.optional(v.boolean()),
      expected: v.optional(v.record(v.string(), v.unknown())),
      actual: v.optional(v.record(v.string(), v.unknown())),
    }),
  ),
});

export interface ActedEntity {
  entity_id: string;
  state: string | null;
  verified?: boolean;
  pending?: boolean;
  expected?: Record<string, unknown>;
  actual?: Record<string, unknown>;
}

/** The area id a person's word names (an id or a name, any case); the word itself when none does. */
export function areaIdOf(hub: Services['hub'], area: string): string {
  const word = area.trim().toLowerCase();
  return [...hub.registries.areas.values()].find((a) => a.area_id === word || a.name.toLowerCase() === word || a.aliases?.some((x) => x.toLowerCase() === word))?.area_id ?? area;
}

export async function act(services: Pick<Services, 'hub' | 'actions' | 'guard'>, req: ActRequest): Promise<ToolResult> {
  const { hub, actions, guard } = services;
  if (!req.entity_id && !req.area) throw new AppError('INVALID_PARAMETERS', 400, `Say which ${req.domain} entities: give entity_id (one or a list) or area; search_entities finds them`, { field: 'entity_id' });
  const target = { ...(req.entity_id ? { entity_id: req.entity_id } : {}), ...(req.area ? { area_id: areaIdOf(hub, req.area) } : {}) };
  const plan = actions.planCall({ domain: req.domain, service: req.service, data: req.data ?? {}, target });
  const ids = plan.entity_ids.filter((id) => id.startsWith(`${req.domain}.`));
  if (!ids.length) throw new AppError('INVALID_ENTITY', 404, `No ${req.domain} entities in ${req.area ?? 'that target'}`, { area: req.area ?? null, domain: req.domain });
  guard.check(
    ids.map((entity_id) => ({ entity_id, service: req.service, data: plan.data, state: hub.cache.get(entity_id) })),
    { confirm: req.confirm },
  );
  const what = `${req.domain}.${req.service}`;
  if (req.dry_run) {
    const entities: ActedEntity[] = ids.map((entity_id) => ({ entity_id, state: hub.cache.get(entity_id)?.state ?? null }));
    const data = Object.keys(plan.data).length ? ` with ${JSON.stringify(plan.data)}` : '';
    return { content: [{ type: 'text', text: `Would call ${what} on ${ids.join(', ')}${data}.` }], structuredContent: { service: what, dry_run: true, entities } };
  }
  const outcome = await actions.runCall(plan);
  const entities: ActedEntity[] = outcome.entities
    .filter((e) => e.entity_id.startsWith(`${req.domain}.`))
    .map((e) => ({
      entity_id: e.entity_id,
      state: e.state?.state ?? null,
      ...(e.verified !== undefined ? { verified: e.verified, expected: e.expected, actual: e.actual } : {}),
      ...(e.pending ? { pending: true } : {}),
    }));
  const missed = entities.filter((e) => e.verified === false && !e.pending);
  const lines = entities.map((e) => `${e.entity_id}: ${e.state}${e.verified === false ? (e.pending ? ' (still changing)' : ` (NOT as asked: wanted ${JSON.stringify(e.expected)}, got ${JSON.stringify(e.actual)})`) : ''}`);
  return {
    content: [{ type: 'text', text: `${what} done.\n${lines.join('\n')}${missed.length ? `\n${missed.length} did not end as asked.` : ''}` }],
    structuredContent: { service: what, dry_run: false, entities },
  };
}
