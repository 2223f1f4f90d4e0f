// To-do lists, the shopping list included: read items with their status and due date (todo.get_items),
// add (todo.add_item), rename, complete and reopen (todo.update_item), move (the WebSocket API's
// todo/item/move) and remove (todo.remove_item), each only where the list's supported_features
// allow it. A list is named by entity id or by its name ("shopping list"); an item by its name or uid.
import { data, definePlugin, type Home, PluginError, text, tool, v } from 'home-mcp-bridge/plugin';

const CREATE = 1;
const DELETE = 2;
const UPDATE = 4;
const MOVE = 8;
const DUE_DATE = 16;
const DUE_DATETIME = 32;
const DESCRIPTION = 64;

const OPS = ['lists', 'items', 'add', 'rename', 'complete', 'reopen', 'move', 'remove'] as const;
type Op = (typeof OPS)[number];
/** What each change needs of the list. */
const NEEDS: Partial<Record<Op, { feature: number; can: string }>> = {
  add: { feature: CREATE, can: 'add items' },
  rename: { feature: UPDATE, can: 'change items' },
  complete: { feature: UPDATE, can: 'change items' },
  reopen: { feature: UPDATE, can: 'change items' },
  move: { feature: MOVE, can: 'reorder items' },
  remove: { feature: DELETE, can: 'remove items' },
};
const FEATURE_WORDS: [number, string][] = [
  [CREATE, 'add'],
  [UPDATE, 'rename, complete, reopen'],
  [MOVE, 'move'],
  [DELETE, 'remove'],
  [DUE_DATE, 'due dates'],
  [DUE_DATETIME, 'due times'],
  [DESCRIPTION, 'descriptions'],
];

const name = v.pipe(v.string(), v.nonEmpty(), v.maxLength(255));
const input = v.object({
  operation: v.picklist(OPS),
  /** todo.shopping_list, or the list's name. */
  list: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
  item: v.optional(name),
  new_name: v.optional(name),
  due: v.optional(
    v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?$/, 'must be a date (2026-12-24) or a local date and time (2026-12-24T18:00)')),
  ),
  description: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  after: v.optional(name),
  dry_run: v.optional(v.boolean()),
});
type Args = v.InferOutput<typeof input>;

const ONLY: Record<string, readonly Op[]> = {
  item: ['add', 'rename', 'complete', 'reopen', 'move', 'remove'],
  new_name: ['rename'],
  due: ['add', 'rename'],
  description: ['add', 'rename'],
  after: ['move'],
  dry_run: ['add', 'rename', 'complete', 'reopen', 'move', 'remove'],
};

interface Item {
  uid: string;
  summary: string;
  status: string;
  due?: string;
  description?: string;
}

const nameOf = (home: Home, id: string) => String(home.state(id)?.attributes.friendly_name ?? id);
const featuresOf = (home: Home, id: string) => Number(home.state(id)?.attributes.supported_features ?? 0);
const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

/** The list a person names: its entity id, or its name (case and spaces aside). */
function listOf(home: Home, given: string | undefined): string {
  const lists = home.states('todo');
  if (given === undefined) {
    if (lists.length === 1) return lists[0]!.entity_id;
    throw new PluginError(`list: say which list: ${lists.map((s) => `${s.entity_id} (${nameOf(home, s.entity_id)})`).join(', ') || 'there are none'}`, {
      field: 'list',
    });
  }
  if (/^todo\.[a-z0-9_]+$/.test(given)) {
    if (!home.has(given)) throw home.unknownEntity(given);
    return given;
  }
  const want = squash(given).replace(/^(the|my) /, '');
  const found = lists.filter((s) => squash(nameOf(home, s.entity_id)) === want || squash(s.entity_id.slice(5)) === want);
  if (found.length === 1) return found[0]!.entity_id;
  throw new PluginError(
    `list: there is no to-do list called ${JSON.stringify(given)}; lists: ${lists.map((s) => nameOf(home, s.entity_id)).join(', ') || 'none'}`,
    {
      field: 'list',
      lists: lists.map((s) => s.entity_id),
    },
  );
}

async function itemsOf(home: Home, id: string): Promise<Item[]> {
  const answer = await home.ask({ domain: 'todo', service: 'get_items', target: { entity_id: id } });
  return ((answer[id] as { items?: Item[] } | undefined)?.items ?? []).map((i) => ({
    uid: String(i.uid),
    summary: String(i.summary),
    status: String(i.status),
    ...(i.due ? { due: String(i.due) } : {}),
    ...(i.description ? { description: String(i.description) } : {}),
  }));
}

/** The one item a name or uid means (exact first, then without case). */
function itemIn(items: readonly Item[], given: string, field = 'item'): Item {
  const exact = items.filter((i) => i.uid === given || i.summary === given);
  const loose = exact.length ? exact : items.filter((i) => squash(i.summary) === squash(given));
  if (loose.length === 1) return loose[0]!;
  if (loose.length > 1)
    throw new PluginError(`${field}: several items are called ${JSON.stringify(given)}; give its uid`, { field, uids: loose.map((i) => i.uid) }, 'AMBIGUOUS');
  throw new PluginError(
    `${field}: there is no item ${JSON.stringify(given)}; items: ${items.map((i) => i.summary).join(', ') || 'none'}`,
    { field },
    'NOT_FOUND',
    404,
  );
}

/** The due date or time and description, where the list supports them. */
function extras(home: Home, id: string, args: Args): Record<string, unknown> {
  const f = featuresOf(home, id);
  const out: Record<string, unknown> = {};
  if (args.due !== undefined) {
    const timed = args.due.length > 10;
    if (!(f & (timed ? DUE_DATETIME : DUE_DATE)))
      throw new PluginError(`due: ${nameOf(home, id)} does not keep due ${timed ? 'times' : 'dates'}`, { field: 'due' });
    out[timed ? 'due_datetime' : 'due_date'] = args.due.replace('T', ' ');
  }
  if (args.description !== undefined) {
    if (!(f & DESCRIPTION)) throw new PluginError(`description: ${nameOf(home, id)} does not keep descriptions`, { field: 'description' });
    out.description = args.description;
  }
  return out;
}

const itemLine = (i: Item) =>
  `${i.status === 'completed' ? '[x]' : '[ ]'} ${i.summary}${i.due ? ` (due ${i.due})` : ''}${i.description ? ` — ${i.description}` : ''}`;

const todoTool = tool({
  name: 'todo',
  title: 'To-do lists',
  description:
    'To-do and shopping lists. operation: lists; items; add; rename (new_name); complete; reopen; move (after: item, none = top); remove. list: id or name; item: name or uid. due (date or local time), description: where the list keeps them.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  readOperations: ['lists', 'items'],
  run: async (args, { home }) => {
    const op = args.operation;
    for (const [field, ops] of Object.entries(ONLY)) {
      if (args[field as keyof Args] !== undefined && !ops.includes(op)) return text(`${field} goes with ${ops.join(', ')}, not with ${op}.`, true);
    }
    if (op === 'lists') {
      if (args.list !== undefined) return text('list goes with the other operations; lists shows them all.', true);
      const lists = home.states('todo').map((s) => {
        const f = featuresOf(home, s.entity_id);
        return {
          entity_id: s.entity_id,
          name: nameOf(home, s.entity_id),
          open_items: Number(s.state) || 0,
          supports: FEATURE_WORDS.filter(([b]) => f & b).map(([, w]) => w),
        };
      });
      return data(
        lists.length
          ? lists.map((l) => `${l.entity_id} (${l.name}): ${l.open_items} to do; supports ${l.supports.join(', ') || 'reading only'}`).join('\n')
          : 'There are no to-do lists.',
        { lists },
      );
    }
    const id = listOf(home, args.list);
    if (op === 'items') {
      const items = await itemsOf(home, id);
      const head = `${nameOf(home, id)} (${id}): ${items.length} item${items.length === 1 ? '' : 's'}, ${items.filter((i) => i.status !== 'completed').length} to do`;
      return data([head, ...items.map(itemLine)].join('\n'), { entity_id: id, items });
    }
    const need = NEEDS[op]!;
    if (!(featuresOf(home, id) & need.feature)) {
      const can = FEATURE_WORDS.filter(([b]) => featuresOf(home, id) & b).map(([, w]) => w);
      throw new PluginError(`${nameOf(home, id)} (${id}) does not let the bridge ${need.can}; it supports ${can.join(', ') || 'reading only'}`, {
        entity_id: id,
        supported: can,
      });
    }
    if (!args.item) throw new PluginError(`item: ${op} needs the item's name${op === 'add' ? '' : ' or uid'}`, { field: 'item' });
    const opts = { dry_run: args.dry_run };
    const done = (verb: string, wouldVerb: string, dry: boolean, extra: Record<string, unknown> = {}) =>
      data(`${dry ? wouldVerb : verb} on ${nameOf(home, id)}.`, { operation: op, entity_id: id, dry_run: dry, ...extra });
    if (op === 'add') {
      const r = await home.call({ domain: 'todo', service: 'add_item', target: { entity_id: id }, data: { item: args.item, ...extras(home, id, args) } }, opts);
      return done(`Added "${args.item}"`, `Would add "${args.item}"`, r.dry_run, { item: args.item });
    }
    const items = await itemsOf(home, id);
    const item = itemIn(items, args.item);
    if (op === 'move') {
      const after = args.after === undefined ? undefined : itemIn(items, args.after, 'after');
      if (after?.uid === item.uid) throw new PluginError('after: an item cannot go after itself', { field: 'after' });
      const r = await home.send({ type: 'todo/item/move', entity_id: id, uid: item.uid, ...(after ? { previous_uid: after.uid } : {}) }, opts);
      const where = after ? `after "${after.summary}"` : 'to the top';
      return done(`Moved "${item.summary}" ${where}`, `Would move "${item.summary}" ${where}`, r.dry_run, { uid: item.uid });
    }
    if (op === 'remove') {
      const r = await home.call({ domain: 'todo', service: 'remove_item', target: { entity_id: id }, data: { item: item.uid } }, opts);
      return done(`Removed "${item.summary}"`, `Would remove "${item.summary}"`, r.dry_run, { uid: item.uid });
    }
    const change: Record<string, unknown> =
      op === 'rename'
        ? { ...(args.new_name ? { rename: args.new_name } : {}), ...extras(home, id, args) }
        : { status: op === 'complete' ? 'completed' : 'needs_action' };
    if (!Object.keys(change).length) throw new PluginError('rename: give new_name, due or description', { field: 'new_name' });
    const r = await home.call({ domain: 'todo', service: 'update_item', target: { entity_id: id }, data: { item: item.uid, ...change } }, opts);
    const what =
      op === 'rename'
        ? args.new_name
          ? `Renamed "${item.summary}" to "${args.new_name}"`
          : `Changed "${item.summary}"`
        : `Marked "${item.summary}" ${op === 'complete' ? 'done' : 'to do again'}`;
    return done(what, `Would do: ${what}`, r.dry_run, { uid: item.uid });
  },
});

export default definePlugin({
  name: 'todo',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: 'Read and change to-do lists and the shopping list.',
  needs: ['home'],
  words: new URL('./words/', import.meta.url),
  domains: ['todo'],
  tools: [todoTool],
});
