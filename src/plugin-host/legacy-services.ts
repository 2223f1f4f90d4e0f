// What a plugin written before the SDK sees as `services`: safe stand-ins for the parts it may
// still name (hub, actions, guard, scenes, groups, commands), each reading through the HomeView and
// acting through the executor with the caller, so the policy checkpoint holds for it too. The parts
// that hold secrets or the store (config, tokens, users, oauth, store, ...) are never lent: a
// plugin that asks for one is skipped, saying why.
import type { Principal } from '../auth/tokens.js';
import type { DeviceCommand, PlannedCall, ServiceCallRequest } from '../actions/executor.js';
import type { GuardedAction } from '../policy/policy.js';
import { LEGACY_ACT } from '../plugin-sdk/deprecated.js';
import type { ActRequest, Home } from '../plugin-sdk/types.js';
import type { PluginParts } from './build-context.js';

export const LEGACY_NEEDS = ['hub', 'actions', 'guard', 'scenes', 'groups', 'commands'] as const;
export type LegacyNeed = (typeof LEGACY_NEEDS)[number];

export function legacyServices(parts: PluginParts, needs: readonly LegacyNeed[], principal: Principal | undefined, home: Home): Record<string, unknown> {
  const { hub, actions, policy, scenes, groups, commands } = parts;
  const view = parts.home;
  const visible = <T extends { entity_id: string }>(xs: Iterable<T>) => [...xs].filter((x) => policy.maySee(x.entity_id));
  const all: Record<LegacyNeed, () => unknown> = {
    hub: () => ({
      get isConnected() {
        return hub.isConnected;
      },
      get config() {
        return hub.config;
      },
      get services() {
        return hub.services;
      },
      status: () => hub.status(),
      cache: {
        get: (id: string) => view.state(id),
        has: (id: string) => view.has(id),
        all: () => view.states().values(),
        ids: () => view.ids().values(),
        get size() {
          return view.ids().length;
        },
      },
      registries: {
        areas: hub.registries.areas,
        floors: hub.registries.floors,
        devices: hub.registries.devices,
        labels: hub.registries.labels,
        entities: new Map(visible(hub.registries.entities.values()).map((e) => [e.entity_id, e])),
        areaOf: (id: string) => view.areaOf(id),
        areaIdOf: (id: string) => view.areaOf(id)?.area_id ?? null,
        floorOf: (id: string) => {
          const f = view.areaOf(id)?.floor_id;
          return f ? view.floor(f) : undefined;
        },
      },
      command: (q: { type: string; [k: string]: unknown }) => home.read(q),
    }),
    actions: () => ({
      plan: (cmd: DeviceCommand) => actions.plan(cmd),
      planCall: (req: ServiceCallRequest) => actions.planCall(req),
      execute: (cmd: DeviceCommand & { confirm?: boolean }) => actions.execute(cmd, { principal, confirm: cmd.confirm }),
      runCall: (plan: PlannedCall, opts?: { settle?: boolean }) => actions.runCall(plan, { principal }, opts),
      callService: (req: ServiceCallRequest, opts?: { settle?: boolean }) => actions.callService(req, { principal }, opts),
      unknownEntity: (id: string) => actions.unknownEntity(id),
      supportedActions: (id: string) => actions.supportedActions(id),
    }),
    guard: () => ({
      maySee: (id: string) => policy.maySee(id),
      mayTouch: (id: string) => policy.mayTouch(id),
      check: (list: readonly GuardedAction[], opts: { confirm?: boolean } = {}) => policy.authorize({ principal, confirm: opts.confirm }, list),
      checkWrite: (what: string) => policy.authorizeWrite({ principal }, what),
    }),
    scenes: () => ({
      list: () => scenes.list(),
      get: (name: string, field?: string) => scenes.get(name, field),
      activate: (name: string, _principal?: unknown, field?: string) => scenes.activate(name, { principal }, field),
    }),
    groups: () => ({
      list: () => groups.list(),
      view: (name: string) => groups.view(name),
      control: (name: string, cmd: { action: string; parameters?: Record<string, unknown> }) => groups.control(name, cmd, { principal }),
    }),
    commands: () => ({ runCommand: (input: Parameters<typeof commands.runCommand>[0]) => commands.runCommand(input, principal) }),
  };
  const services: Record<string | symbol, unknown> = Object.fromEntries(needs.map((n) => [n, all[n]()]));
  services[LEGACY_ACT] = (req: ActRequest) => home.act(req);
  return services;
}
