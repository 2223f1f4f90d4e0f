// To-do lists as Home Assistant's local_todo and shopping_list keep them: items with a uid,
// summary, status and (where the list supports it) due date or time and description, declared in
// the home file (config.items). The state is the number of items still to do. Items are found
// by uid or by summary, as the hub's services do; todo/item/list and todo/item/move are in
// calendar-commands.ts.
import { type DomainModule, finish } from '../domain.js';
import type { EntityCtx } from '../services.js';
import { ServiceValidationError } from '../errors.js';
import type { Hub } from '../hub.js';
import { Invalid, type Validator, hasAtLeastOneKey, listOf, oneOf, string } from '../schema.js';
import { hexId } from '../time.js';
import { parseHubDatetime } from '../zone.js';
import { isDate, localIso } from './calendar-events.js';
import { num, sel } from './common.js';
import { zoneOf } from './calendar.js';

export const TODO_CREATE = 1;
export const TODO_DELETE = 2;
export const TODO_UPDATE = 4;
export const TODO_MOVE = 8;
export const TODO_DUE_DATE = 16;
export const TODO_DUE_DATETIME = 32;
export const TODO_DESCRIPTION = 64;

export interface TodoItem {
  uid: string;
  summary: string;
  status: 'needs_action' | 'completed';
  due?: string;
  description?: string;
}

export function todoItems(hub: Hub, entityId: string): TodoItem[] {
  const memory = hub.memory(entityId);
  if (!memory.items) {
    const declared = hub.entityConfig(entityId).items;
    memory.items = (Array.isArray(declared) ? declared : []).map((x: Record<string, unknown> | string) =>
      typeof x === 'string'
        ? { uid: hexId(), summary: x, status: 'needs_action' }
        : {
            uid: String(x.uid ?? hexId()),
            summary: String(x.summary ?? ''),
            status: x.status === 'completed' ? 'completed' : 'needs_action',
            ...(typeof x.due === 'string' ? { due: x.due } : {}),
            ...(typeof x.description === 'string' ? { description: x.description } : {}),
          },
    );
  }
  return memory.items as TodoItem[];
}

const open = (items: readonly TodoItem[]) => String(items.filter((i) => i.status === 'needs_action').length);

/** Writes the count of open items after a change. */
export function refreshTodo(e: { hub: Hub; id: string; attrs: Record<string, unknown>; write(state: string, attrs?: Record<string, unknown>): unknown }): void {
  e.write(open(todoItems(e.hub, e.id)), e.attrs);
}

/** The item a service names, by uid or summary; the hub's error when there is none. */
function find(items: readonly TodoItem[], item: string): TodoItem {
  const found = items.find((i) => i.uid === item) ?? items.find((i) => i.summary === item);
  if (!found) throw new ServiceValidationError(`Unable to find To-do item: ${item}`, { domain: 'todo', key: 'item_not_found', placeholders: { item } });
  return found;
}

const date: Validator = (v, path) => {
  if (typeof v === 'string' && isDate(v)) return v;
  throw new Invalid('Invalid date specified', path);
};
const datetime =
  (hub: Hub): Validator =>
  (v, path) => {
    const us = typeof v === 'string' ? parseHubDatetime(v, zoneOf(hub)) : undefined;
    if (us === undefined) throw new Invalid('Invalid datetime specified', path);
    return localIso(zoneOf(hub), us);
  };

const FIELD_FEATURE: Record<string, number> = { due_date: TODO_DUE_DATE, due_datetime: TODO_DUE_DATETIME, description: TODO_DESCRIPTION };

/** The item fields a list must support before they are set. */
function checkFields(e: EntityCtx): void {
  for (const [field, feature] of Object.entries(FIELD_FEATURE)) {
    if (e.params[field] !== undefined && !(e.features & feature))
      throw new ServiceValidationError(`Entity does not support setting field '${field}'`, {
        domain: 'todo',
        key: 'update_field_not_supported',
        placeholders: { service_field: field },
      });
  }
}

function itemFields(hub: Hub) {
  return {
    due_date: {
      v: date,
      exclusive: 'due',
      name: 'Due date',
      description: 'The date the to-do item is expected to be completed.',
      example: '2023-11-17',
      selector: { date: null },
      filter: { supported_features: [TODO_DUE_DATE] },
    },
    due_datetime: {
      v: datetime(hub),
      exclusive: 'due',
      name: 'Due date and time',
      description: 'The date and time the to-do item is expected to be completed.',
      example: '2023-11-17 13:30:00',
      selector: { datetime: null },
      filter: { supported_features: [TODO_DUE_DATETIME] },
    },
    description: {
      v: string,
      name: 'Description',
      description: 'A more complete description of the to-do item.',
      selector: sel.text(),
      filter: { supported_features: [TODO_DESCRIPTION] },
    },
  };
}

const STATUS = ['needs_action', 'completed'];
const ensureList =
  (item: Validator): Validator =>
  (v, path) =>
    listOf(item)(Array.isArray(v) ? v : [v], path);

export const todo: DomainModule = {
  domain: 'todo',
  init(seed, hub) {
    const features = num(seed.attributes.supported_features, TODO_CREATE | TODO_DELETE | TODO_UPDATE | TODO_MOVE);
    return { state: open(todoItems(hub, seed.entityId)), attributes: finish(seed.attributes, seed.name, features) };
  },
  setup(hub) {
    const r = hub.services.register.bind(hub.services, 'todo');
    r('get_items', {
      name: 'Get to-do list items',
      description: 'Gets items on a to-do list.',
      response: 'only',
      fields: {
        status: {
          v: ensureList(oneOf(STATUS)),
          name: 'Status',
          description: 'Only return to-do items with the specified statuses.',
          example: 'needs_action',
          selector: sel.select(STATUS, { multiple: true }),
        },
      },
      handle: (e) => {
        const statuses = e.params.status as string[] | undefined;
        return {
          items: todoItems(e.hub, e.id)
            .filter((i) => !statuses || statuses.includes(i.status))
            .map((i) => ({ ...i })),
        };
      },
    });
    r('add_item', {
      name: 'Add to-do list item',
      description: 'Adds a new to-do list item.',
      requiredFeatures: [TODO_CREATE],
      fields: {
        item: {
          v: string,
          required: true,
          name: 'Item name',
          description: 'The name that represents the to-do item.',
          example: 'Submit income tax return',
          selector: sel.text(),
        },
        ...itemFields(hub),
      },
      handle: (e) => {
        checkFields(e);
        const p = e.params;
        const due = (p.due_date ?? p.due_datetime) as string | undefined;
        todoItems(e.hub, e.id).push({
          uid: hexId(),
          summary: p.item as string,
          status: 'needs_action',
          ...(due ? { due } : {}),
          ...(p.description !== undefined ? { description: p.description as string } : {}),
        });
        refreshTodo(e);
      },
    });
    r('update_item', {
      name: 'Update to-do list item',
      description: 'Updates an existing to-do list item based on its name or UID.',
      requiredFeatures: [TODO_UPDATE],
      before: hasAtLeastOneKey('rename', 'status', 'due_date', 'due_datetime', 'description'),
      fields: {
        item: {
          v: string,
          required: true,
          name: 'Item name or UID',
          description: 'The name/summary or UID of the to-do item.',
          example: 'Submit income tax return',
          selector: sel.text(),
        },
        rename: { v: string, name: 'Rename item', description: 'The new name for the to-do item.', example: 'Something else', selector: sel.text() },
        status: {
          v: oneOf(STATUS),
          name: 'Set status',
          description: 'A status or confirmation of the to-do item.',
          example: 'needs_action',
          selector: sel.select(STATUS),
        },
        ...itemFields(hub),
      },
      handle: (e) => {
        checkFields(e);
        const p = e.params;
        const found = find(todoItems(e.hub, e.id), p.item as string);
        if (p.rename !== undefined) found.summary = p.rename as string;
        if (p.status !== undefined) found.status = p.status as TodoItem['status'];
        const due = (p.due_date ?? p.due_datetime) as string | undefined;
        if (due !== undefined) found.due = due;
        if (p.description !== undefined) found.description = p.description as string;
        refreshTodo(e);
      },
    });
    r('remove_item', {
      name: 'Remove to-do list items',
      description: 'Removes existing to-do list items by name or UID.',
      requiredFeatures: [TODO_DELETE],
      fields: {
        item: {
          v: ensureList(string),
          required: true,
          name: 'Item name or UID',
          description: 'The name/summary or UID of the to-do items to remove.',
          example: 'Submit income tax return',
          selector: sel.text(),
        },
      },
      handle: (e) => {
        const items = todoItems(e.hub, e.id);
        const gone = (e.params.item as string[]).map((name) => find(items, name));
        e.hub.memory(e.id).items = items.filter((i) => !gone.includes(i));
        refreshTodo(e);
      },
    });
    r('remove_completed_items', {
      name: 'Remove all completed to-do list items',
      description: 'Removes all to-do list items that have been completed.',
      requiredFeatures: [TODO_DELETE],
      handle: (e) => {
        e.hub.memory(e.id).items = todoItems(e.hub, e.id).filter((i) => i.status !== 'completed');
        refreshTodo(e);
      },
    });
  },
};
