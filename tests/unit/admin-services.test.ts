// Services that look after Home Assistant itself are judged as admin changes when reached as actions
// (src/policy/admin-services.ts, Policy.authorize); the Supervisor's are admin_system's alone.
import { describe, expect, test } from 'vitest';
import type { Principal } from '../../src/auth/tokens.js';
import { type GuardedAction, Policy } from '../../src/policy/policy.js';

const grant = (scope: string[]): Principal => ({ sub: 'client', iat: 0, via: 'oauth', scope });
const policy = (extra: Record<string, unknown> = {}) =>
  new Policy({ readOnly: false, allow: [], deny: [], requireConfirmation: false, adminTools: true, ...extra });
const call = (domain: string, service: string, data: Record<string, unknown> = {}): GuardedAction => ({
  entity_id: `${domain}.${service}`,
  service,
  data,
  targetless: true,
});

describe('admin services as actions', () => {
  test('need the admin scope, ADMIN_TOOLS and the person’s confirmation', () => {
    expect(() => policy().authorize({ principal: grant(['read', 'control']), confirm: true }, [call('homeassistant', 'restart')])).toThrow(/admin scope/);
    expect(() => policy({ adminTools: false }).authorize({ confirm: true }, [call('homeassistant', 'reload_all')])).toThrow(/ADMIN_TOOLS/);
    expect(() => policy().authorize({}, [call('homeassistant', 'stop')])).toThrow(/needs confirmation/);
    expect(() => policy({ deny: ['core.restart'] }).authorize({ confirm: true }, [call('homeassistant', 'restart')])).toThrow(/TOOLS_DENY/);
    expect(() => policy().authorize({ confirm: true }, [call('homeassistant', 'restart')])).not.toThrow();
    // A plain action in the home is not affected.
    expect(() => policy().authorize({ principal: grant(['read', 'control']) }, [call('homeassistant', 'update_entity')])).not.toThrow();
  });

  test("the Supervisor's apps, backups and host, an update's install and a backup are admin_system's alone", () => {
    for (const a of [
      call('hassio', 'addon_stop', { addon: 'home_mcp_bridge' }),
      call('hassio', 'ADDON_RESTART', { addon: 'Home_MCP_Bridge ' }),
      call('hassio', 'backup_full'),
      call('hassio', 'host_reboot'),
      call('backup', 'create'),
      { entity_id: 'update.bulb_firmware', service: 'install', data: {} },
    ])
      expect(() => policy().authorize({ confirm: true }, [a]), a.entity_id).toThrow(/admin_system|not run as an action/);
  });

  test('reloading an integration entry is admin_health’s alone, by entry id or on a target entity', () => {
    const onTarget: GuardedAction = { entity_id: 'lock.front_door', service: 'reload_config_entry', domain: 'homeassistant', data: {} };
    for (const a of [call('homeassistant', 'reload_config_entry', { entry_id: 'e1' }), onTarget])
      expect(() => policy().authorize({ confirm: true }, [a]), a.entity_id).toThrow(/admin_health operation reload/);
  });
});
