// Notifications: the legacy notify services (notify.notify, notify.<target>) record what was
// sent; notify entities (2024.5) take notify.send_message, record it too, fire the demo's `notify`
// event and show the time of their last message as their state; persistent notifications are
// kept as a list (the hub stopped making them entities in 2023.6) and reach clients through
// persistent_notification/subscribe. 2026.11's demo has a notify entity and no notify.notify:
// there, legacy services exist only for the targets a home declares (`notify:`).
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';
import { isType, listOf, string } from '../schema.js';
import type { FieldDef, ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { SINCE } from '../version.js';
import { num, sel } from './common.js';

/** NotifyEntityFeature.TITLE */
export const NOTIFY_TITLE = 1;

const message: FieldDef = {
  v: string,
  required: true,
  name: 'Message',
  description: 'Message body of the notification.',
  example: 'The garage door has been open for 10 minutes.',
  selector: sel.text(),
};
const title: FieldDef = { v: string, name: 'Title', description: 'Title for your notification.', example: 'Your Garage Door Friend', selector: sel.text() };

function legacyNotify(target: string): ServiceDef {
  return {
    kind: 'plain',
    name: target === 'notify' ? 'Send a notification' : `Send a notification via ${target}`,
    description: 'Sends a notification message using the notify service.',
    fields: {
      message,
      title,
      target: {
        v: listOf(string),
        name: 'Targets',
        description: 'Some integrations allow you to specify the targets that receive the notification.',
        example: 'platform specific',
        advanced: true,
        selector: sel.object(),
      },
      data: {
        v: isType('dict'),
        name: 'Data',
        description: 'Some integrations provide extended functionality.',
        example: 'platform specific',
        advanced: true,
        selector: sel.object(),
      },
    },
    run: (call, hub) => {
      hub.notifyLog.push({
        service: target,
        message: String(call.data.message),
        title: typeof call.data.title === 'string' ? call.data.title : null,
        target: call.data.target ?? null,
        data: call.data.data ?? null,
        time: isoFromMicros(nowMicros()),
      });
    },
  };
}

export const notify: DomainModule = {
  domain: 'notify',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish(seed.attributes, seed.name, num(seed.attributes.supported_features, 0)) };
  },
  setup(hub: Hub) {
    if (!hub.since(SINCE.current)) hub.services.register('notify', 'notify', legacyNotify('notify'));
    for (const target of hub.home.notify ?? []) hub.services.register('notify', target, legacyNotify(target));
    if (!hub.legacy) {
      hub.services.register('notify', 'send_message', {
        name: 'Send a notification message',
        description: 'Sends a notification message.',
        fields: {
          message,
          title: { ...title, example: undefined, filter: { supported_features: [NOTIFY_TITLE] } },
        },
        handle: (e) => {
          const t = typeof e.params.title === 'string' && e.features & NOTIFY_TITLE ? e.params.title : null;
          const time = isoFromMicros(nowMicros());
          hub.notifyLog.push({ service: 'send_message', message: String(e.params.message), title: t, target: e.id, data: null, time });
          hub.bus.fire('notify', { message: String(e.params.message), ...(t !== null ? { title: t } : {}) }, { context: e.call.context });
          e.write(time);
        },
      });
    }
    hub.services.register('notify', 'persistent_notification', {
      kind: 'plain',
      name: 'Send a persistent notification',
      description: 'Sends a notification that is visible in the notifications panel.',
      fields: { message, title, data: { v: isType('dict'), name: 'Data', description: 'Extended information.', advanced: true, selector: sel.object() } },
      run: (call, h) => {
        h.createNotification(String(call.data.message), typeof call.data.title === 'string' ? call.data.title : null);
      },
    });
  },
};

export const persistentNotification: DomainModule = {
  domain: 'persistent_notification',
  setup(hub: Hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('persistent_notification', service, def);
    const notificationId: FieldDef = {
      v: string,
      name: 'Notification ID',
      description: 'ID of the notification.',
      example: 1234,
      selector: sel.text(),
    };
    r('create', {
      kind: 'plain',
      name: 'Create',
      description: 'Shows a notification on the notifications panel.',
      fields: {
        message,
        title,
        notification_id: {
          ...notificationId,
          description: 'ID of the notification. This new notification will overwrite an existing notification with the same ID.',
        },
      },
      run: (call, h) => {
        const id = typeof call.data.notification_id === 'string' ? call.data.notification_id : undefined;
        h.createNotification(String(call.data.message), typeof call.data.title === 'string' ? call.data.title : null, id);
      },
    });
    r('dismiss', {
      kind: 'plain',
      name: 'Dismiss',
      description: 'Deletes a notification from the notifications panel.',
      fields: { notification_id: { ...notificationId, required: true } },
      run: (call, h) => void h.dismissNotification(String(call.data.notification_id)),
    });
    r('dismiss_all', {
      kind: 'plain',
      name: 'Dismiss all',
      description: 'Deletes all notifications from the notifications panel.',
      run: (_call, h) => {
        for (const n of h.listNotifications()) h.dismissNotification(n.notification_id);
      },
    });
  },
};
