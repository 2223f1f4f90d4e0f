// The simulator as Home Assistant and its Supervisor, for tests: /core/websocket, the Supervisor's
// REST paths (/discovery, /addons/..., /ingress/...), the `supervisor/api` command and the ingress
// proxy share the hub's server as a SimulatorRole. Not part of demo mode (src/sim/index.ts).
import { WebSocketServer } from 'ws';
import type { Command, SimUser } from './commands.js';
import { INGRESS_PREFIX, firstProtocol, handleIngressRequest, handleIngressUpgrade } from './ingress-proxy.js';
import { isPlainObject } from './schema.js';
import { type MakeRole, Simulator as Hub, type SimulatorOptions as HubOptions, type SimulatorRole } from './server.js';
import { SimSupervisor, type SupervisorOptions } from './supervisor.js';
import { SUPERVISOR_PATH, handleSupervisorHttp, supervisorApiCommand } from './supervisor-api.js';
import { hexId } from './time.js';

export interface SimulatorOptions extends HubOptions {
  /** Also act as the Supervisor for an add-on. */
  supervisor?: SupervisorOptions;
}

function supervisorRole(sup: SimSupervisor, user: SimUser): SimulatorRole {
  let ingressWss: WebSocketServer | undefined;
  // Registered by the hassio integration, which only loads under a Supervisor.
  const commands = new Map<string, Command>([['supervisor/api', supervisorApiCommand(sup)]]);
  return {
    user,
    commands,
    request(req, res) {
      if ((req.url ?? '').startsWith(INGRESS_PREFIX)) {
        handleIngressRequest(sup, req, res);
        return true;
      }
      if (SUPERVISOR_PATH.test(new URL(req.url ?? '/', 'http://sim').pathname)) {
        handleSupervisorHttp(sup, req, res).catch(() => res.destroy());
        return true;
      }
      return false;
    },
    upgrade(req, socket, head) {
      if (!ingressWss || !(req.url ?? '').startsWith(INGRESS_PREFIX)) return false;
      handleIngressUpgrade(sup, ingressWss, req, socket, head);
      return true;
    },
    websocket: {
      path: '/core/websocket',
      // The Supervisor's /core/websocket handshake (supervisor/api/proxy.py): the add-on's token in
      // access_token or api_password, "Invalid access" otherwise; then Home Assistant sees the
      // Supervisor's own user.
      authenticate(msg) {
        if (!isPlainObject(msg)) return undefined;
        const token = msg.api_password || msg.access_token;
        const addon = typeof token === 'string' ? sup.addonForToken(token) : undefined;
        if (!addon?.homeassistantApi) return { invalid: 'Invalid access' };
        return { user };
      },
    },
    started() {
      ingressWss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024, handleProtocols: firstProtocol });
    },
    stopping() {
      for (const ws of ingressWss?.clients ?? []) ws.terminate();
      ingressWss?.close();
      ingressWss = undefined;
    },
  };
}

/** The simulated hub, with the Supervisor beside it when `supervisor` is given. */
export class Simulator extends Hub {
  /** The Supervisor's state (add-ons, ingress sessions, discovery) when `supervisor` is given; it outlives restarts. (Optional, so the demo's Simulator, as the bridge holds it, is one too.) */
  readonly supervisor?: SimSupervisor;

  constructor(opts: SimulatorOptions = {}) {
    const { supervisor: supervisorOptions, ...hubOptions } = opts;
    const made: { supervisor?: SimSupervisor } = {};
    const makeRole: MakeRole | undefined = supervisorOptions
      ? (host) => {
          // Home Assistant's system user the Supervisor's /core/websocket proxy logs in as.
          const user: SimUser = { id: hexId(), name: 'Supervisor', isAdmin: true, username: null };
          made.supervisor = new SimSupervisor(
            { coreVersion: () => host.version, ...supervisorOptions },
            (id) => {
              const u = id === user.id ? user : host.userById(id);
              return u ? { id: u.id, username: u.username ?? null, displayName: u.name } : undefined;
            },
            () => host.url,
          );
          return supervisorRole(made.supervisor, user);
        }
      : undefined;
    super(hubOptions, makeRole);
    this.supervisor = made.supervisor;
  }
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const sim = new Simulator(opts);
  await sim.start();
  return sim;
}
