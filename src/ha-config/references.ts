// What a piece of Home Assistant config touches: the entities it names (triggers, conditions,
// targets, cards, templates) and the actions it would take (service calls with their targets,
// device actions, scene activations, a card's perform-action). The bridge judges these by the same
// rules as a direct action before anything is written. Names and ids are read as Home Assistant
// reads them (lower case, comma lists). What cannot be judged before it runs (a template in an
// action's name, its target, or data that decides what it touches) is listed apart, so it can be
// refused. Pure.
export interface ActionRef {
  domain: string;
  service: string;
  /** Target lists as written (entity ids, devices, areas, floors, labels), data's own ones included. */
  target: { entity_id: string[]; device_id: string[]; area_id: string[]; floor_id: string[]; label_id: string[] };
  data: Record<string, unknown>;
  /** A device action ({device_id, domain, type}): `service` is its type. */
  device_action?: boolean;
  /** Where in the config, e.g. actions[0] or views[0].cards[2].tap_action. */
  path: string;
}

export interface References {
  /** Every entity id named anywhere, sorted. */
  entities: string[];
  actions: ActionRef[];
  /** Paths of actions whose name or target is a template. */
  templated: string[];
}

const ENTITY = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const SERVICE = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'] as const;
/** Keys whose string values are entity ids (as in triggers, conditions, cards). */
const ENTITY_KEYS = new Set(['entity_id', 'entity', 'entities', 'camera_image', 'zone', 'weather_entity']);
/** Keys whose values name a service, not an entity. */
const SERVICE_KEYS = new Set(['action', 'service', 'perform_action']);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isTemplate = (x: unknown) => typeof x === 'string' && (x.includes('{{') || x.includes('{%'));
/** An id as Home Assistant's validators read it: lower case when that makes an entity id (or all/none); a registry id stays as it is. */
const canonical = (x: string): string => {
  const lower = x.trim().toLowerCase();
  return ENTITY.test(lower) || lower === 'all' || lower === 'none' ? lower : x.trim();
};
const idList = (x: unknown): string[] =>
  x === undefined || x === null
    ? []
    : typeof x === 'string'
      ? x.split(',').map(canonical).filter(Boolean)
      : Array.isArray(x)
        ? x.filter((i): i is string => typeof i === 'string').map(canonical)
        : [];
/** Other target ids (devices, areas, floors, labels) are taken as written. */
const otherList = (x: unknown): string[] =>
  x === undefined || x === null ? [] : typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((i): i is string => typeof i === 'string') : [];
/** Data whose value decides what an action touches or how far (a templated position could open a garage). */
const decides = (key: string) => /(^|_)(entity|entities|entity_id|entity_ids)$/.test(key) || key === 'position' || key === 'tilt_position';
/** Domains whose services run other things (scripts, scenes, automations, groups, generic calls): any template in their data is refused. */
const RUNNING_DOMAINS = new Set(['script', 'scene', 'automation', 'homeassistant', 'group']);
const anyTemplate = (x: unknown): boolean => (Array.isArray(x) ? x.some(anyTemplate) : isObject(x) ? Object.values(x).some(anyTemplate) : isTemplate(x));

/**
 * `known(id)` says whether a string found in free text (a template) is an entity of the home;
 * strings under entity keys count whether the home has them or not.
 */
export function referencesOf(config: unknown, known: (entityId: string) => boolean): References {
  const entities = new Set<string>();
  const actions: ActionRef[] = [];
  const templated: string[] = [];

  const addEntity = (raw: string) => {
    const id = raw.trim().toLowerCase();
    if (id !== 'all' && id !== 'none' && ENTITY.test(id)) entities.add(id);
  };

  const action = (node: Record<string, unknown>, path: string, given: unknown, dataKey: 'data' | 'service_data') => {
    if (typeof given !== 'string') return;
    if (isTemplate(given)) {
      templated.push(path);
      return;
    }
    const name = given.trim().toLowerCase();
    if (!SERVICE.test(name)) return;
    const [domain, service] = name.split('.') as [string, string];
    // The target or the data given whole as one template string, or data_template (the old name for templated data).
    for (const key of ['target', 'data', 'service_data', 'data_template']) {
      if (node[key] !== undefined && !isObject(node[key])) templated.push(`${path}.${key}`);
    }
    const data: Record<string, unknown> = {
      ...(isObject(node.data_template) ? node.data_template : {}),
      ...(isObject(node.data) ? node.data : {}),
      ...(isObject(node[dataKey]) ? (node[dataKey] as Record<string, unknown>) : {}),
    };
    const target = isObject(node.target) ? node.target : {};
    const lists = { entity_id: [] as string[], device_id: [] as string[], area_id: [] as string[], floor_id: [] as string[], label_id: [] as string[] };
    // Home Assistant takes the target in `target`, in the data, or (old style) beside the action.
    for (const key of TARGET_KEYS) {
      for (const source of [target[key], data[key], node[key]]) {
        if (source === undefined) continue;
        if (anyTemplate(source)) templated.push(`${path}.${key}`);
        else lists[key].push(...(key === 'entity_id' ? idList(source) : otherList(source)));
      }
    }
    const rest = Object.fromEntries(Object.entries(data).filter(([k]) => !(TARGET_KEYS as readonly string[]).includes(k)));
    for (const [k, value] of Object.entries(rest)) {
      if ((RUNNING_DOMAINS.has(domain) || decides(k)) && anyTemplate(value)) templated.push(`${path}.data.${k}`);
    }
    actions.push({ domain, service, target: lists, data: rest, path });
  };

  const walk = (node: unknown, path: string, key: string | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => {
        walk(x, `${path}[${i}]`, key);
      });
      return;
    }
    if (isObject(node)) {
      const named = (x: unknown) => typeof x === 'string' && SERVICE.test(x.trim().toLowerCase());
      if ('action' in node && named(node.action)) action(node, path, node.action, 'data');
      else if ('action' in node && isTemplate(node.action)) templated.push(path);
      else if ('service_template' in node) templated.push(path);
      else if ('service' in node && typeof node.service === 'string') action(node, path, node.service, 'service_data');
      else if ('perform_action' in node) action(node, path, node.perform_action, 'data');
      else if (
        typeof node.device_id === 'string' &&
        typeof node.domain === 'string' &&
        typeof node.type === 'string' &&
        !('condition' in node) &&
        !('trigger' in node) &&
        !('platform' in node)
      ) {
        // A device action: the device's entity (or the device) in its domain, the type as what it does.
        if ([node.device_id, node.domain, node.type, node.entity_id].some(anyTemplate)) templated.push(path);
        actions.push({
          domain: node.domain.toLowerCase(),
          service: node.type.toLowerCase(),
          device_action: true,
          target: { entity_id: idList(node.entity_id), device_id: node.entity_id ? [] : [node.device_id], area_id: [], floor_id: [], label_id: [] },
          data: {},
          path,
        });
      } else if (typeof node.scene === 'string' && !('condition' in node)) {
        if (isTemplate(node.scene)) templated.push(`${path}.scene`);
        actions.push({
          domain: 'scene',
          service: 'turn_on',
          target: { entity_id: idList(node.scene), device_id: [], area_id: [], floor_id: [], label_id: [] },
          data: {},
          path,
        });
      }
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k, k);
      return;
    }
    if (typeof node !== 'string' || (key !== undefined && SERVICE_KEYS.has(key))) return;
    if (key !== undefined && ENTITY_KEYS.has(key)) {
      for (const id of idList(node)) addEntity(id);
      return;
    }
    if (ENTITY.test(node.trim().toLowerCase()) && !/\s/.test(node.trim())) {
      if (known(node.trim().toLowerCase())) entities.add(node.trim().toLowerCase());
      return;
    }
    if (isTemplate(node)) {
      for (const m of node.toLowerCase().matchAll(/\b([a-z0-9_]+\.[a-z0-9_]+)\b/g)) if (known(m[1]!)) entities.add(m[1]!);
    }
  };
  walk(config, '', undefined);
  for (const a of actions) for (const id of a.target.entity_id) addEntity(id);
  return { entities: [...entities].sort(), actions, templated: [...new Set(templated)] };
}
