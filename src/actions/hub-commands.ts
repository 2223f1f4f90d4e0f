// Two lists the executor keeps in one place. Services that only answer: asking them changes
// nothing, so read-only mode allows them and only visibility applies. WebSocket commands that
// change something where Home Assistant offers no service: each is judged by the checkpoint as an
// action on its entity (named like a service of that domain, so deny rules and exposure apply as
// for any call), then sent.

/** `domain.service` of services that only read and answer (return_response). */
export const READ_SERVICES: ReadonlySet<string> = new Set(['calendar.get_events', 'todo.get_items', 'weather.get_forecasts']);

/** Acting WebSocket commands: the domain of the entity they name in `entity_id`, and the action's name for the checkpoint. */
export const ACTING_COMMANDS: Readonly<Record<string, { domain: string; service: string }>> = {
  'calendar/event/create': { domain: 'calendar', service: 'create_event' },
  'calendar/event/update': { domain: 'calendar', service: 'update_event' },
  'calendar/event/delete': { domain: 'calendar', service: 'delete_event' },
  'todo/item/move': { domain: 'todo', service: 'move_item' },
};
