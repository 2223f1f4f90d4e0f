// The bridge's one connection to the hub: connects in the background, keeps the state cache,
// registries and service list current, pings, reconnects, resyncs, and calls services. What it is
// to everyone is the read-only view (src/hub/reader.ts); the handle that acts (src/hub/acting.ts)
// comes only out of open(), for the composition root to hand to the executor and the config service.
import { withoutCredentials, withoutQuotedCredentials } from './credentials.js';
import { createConnection, type Connection } from 'home-assistant-js-websocket';
import { AppError, hubUnavailable } from '../errors.js';
import type { Bus, HubConnectedData, HubDisconnectedData } from '../bus.js';
import { HUB_CONNECTED, HUB_DISCONNECTED, newContext, serviceEvent } from '../bus.js';
import type { Logger } from '../log.js';
import type { BackoffOptions } from './backoff.js';
import type { ActingHub, CallResult, HubServiceCall } from './acting.js';
import { ERR_CONNECTION_LOST, EVENT, HA_ERROR, HUB_RUNNING, MSG } from './protocol.js';
import { checkReadOnly, checkReadOnlySubscription, type HubReader, type RenderedTemplate } from './reader.js';
export type { RenderedTemplate } from './reader.js';
import { loadRegistries, Registries, REGISTRY_EVENTS } from './registries.js';
import { InvalidAuthError, socketFactory, type HubSocket } from './socket.js';
import { StateCache } from './state-cache.js';
import type { HubStatus } from './status.js';
import type { HubConfig, HubContext, HubEvent, HubServices, HubState, StateChangedData } from './types.js';

export interface HubClientOptions {
  /** WebSocket URL of the hub's API. */
  wsUrl: string;
  token: string;
  /** What /api/config shows as the hub's address. */
  displayUrl: string;
  mode: HubStatus['mode'];
  simulator?: { home: string };
  bus: Bus;
  log: Logger;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  callTimeoutMs?: number;
  /** How long a call waits for the entity's state_changed when none came with the call's result. */
  settleMs?: number;
  backoff?: BackoffOptions;
  authRetryMs?: number;
}

interface Observer {
  ids: Set<string>;
  seen: Map<string, StateChangedData & { context?: string }>;
  wake?: () => void;
}

const RELOAD_DEBOUNCE_MS = 250;

export class HubClient implements HubReader {
  /** Opens the connection: the read-only view, which anyone may be given, and the handle that acts, which only the composition root hands on. */
  static open(opts: HubClientOptions): { hub: HubClient; acting: Omit<ActingHub, 'rest'> } {
    const hub = new HubClient(opts);
    return {
      hub,
      acting: {
        call: (call, o) => hub.#call(call, o),
        callService: (domain, service, data, entityIds, o = {}) =>
          hub.#call({ domain, service, service_data: data, target: entityIds.length ? { entity_id: entityIds } : undefined }, { ...o, watch: entityIds }),
        command: (message) => hub.#command(message),
        fireEvent: (eventType, eventData) => hub.#fireEvent(eventType, eventData),
      },
    };
  }

  readonly cache = new StateCache();
  readonly registries = new Registries();
  services: HubServices = {};
  config?: HubConfig;

  private conn?: Connection;
  private connected = false;
  private synced = false;
  /**
   * Whether the hub had finished starting when last synced (or has since said so). A hub that is
   * still starting registers services and entities after the snapshot; its homeassistant_started
   * event brings a fresh one.
   */
  private hubStarted = false;
  private since = new Date();
  /** Attempts the current connection took, as the socket factory counted them. */
  private attempts = 0;
  /** Why the connection is being dropped, when the bridge drops it itself. */
  private dropReason?: HubDisconnectedData['reason'];
  /** Events that arrive while a snapshot is being fetched wait here, in order. */
  private buffer?: HubEvent[];
  private readonly observers = new Set<Observer>();
  private readonly abort = new AbortController();
  private pinger?: NodeJS.Timeout;
  private reloadTimers = new Map<string, NodeJS.Timeout>();
  private readyWaiters: (() => void)[] = [];
  private running?: Promise<void>;
  /** Hub events as they came off the socket (before buffering and the cache), for comparison with what the hub fired. */
  private readonly counts = { received: 0, state_changed: 0 };

  private constructor(private readonly opts: HubClientOptions) {}

  status(): HubStatus {
    // Built field by field in the order answers show them (no spreads: /api/config reads it per request).
    const status: HubStatus = {
      connected: this.connected,
      version: this.config?.version ?? this.conn?.haVersion,
      url: this.opts.displayUrl,
      mode: this.opts.mode,
    };
    if (this.opts.simulator) status.simulator = this.opts.simulator;
    if (!this.connected) status.since = this.since.toISOString();
    status.events = { received: this.counts.received, state_changed: this.counts.state_changed };
    return status;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** Connected to a hub that has not yet said it finished starting (its services may still be missing). */
  get isStarting(): boolean {
    return this.connected && !this.hubStarted;
  }

  /** Starts connecting in the background; never throws. */
  start(): void {
    this.running ??= this.run().catch((err: unknown) => {
      if (!this.abort.signal.aborted) this.opts.log.error({ err }, 'hub client stopped unexpectedly');
    });
  }

  /** Resolves once the client is connected and synced with a hub that has finished starting (now, if it is). */
  ready(timeoutMs = 30_000): Promise<void> {
    if (this.connected && this.hubStarted) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`hub not ready within ${timeoutMs} ms`)), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async run(): Promise<void> {
    const log = this.opts.log;
    log.info({ url: this.opts.displayUrl, mode: this.opts.mode }, `connecting to the hub at ${this.opts.displayUrl}`);
    const createSocket = socketFactory({
      url: this.opts.wsUrl,
      token: this.opts.token,
      log,
      backoff: this.opts.backoff,
      authRetryMs: this.opts.authRetryMs,
      signal: this.abort.signal,
      onConnected: (attempts) => {
        this.attempts = attempts;
      },
      onAttemptFailed: (err, attempt, repeated) => {
        if (repeated || this.abort.signal.aborted) return;
        const reason = err instanceof InvalidAuthError ? 'auth_invalid' : 'unreachable';
        this.emitDisconnected({ reason, message: err.message, attempt, since: this.since.toISOString() });
      },
    });
    const conn = await createConnection({ createSocket: createSocket as never });
    if (this.abort.signal.aborted) {
      conn.close();
      return;
    }
    this.conn = conn;
    conn.addEventListener('disconnected', () => {
      const wasConnected = this.connected;
      const reason = this.dropReason ?? 'connection_lost';
      this.dropReason = undefined;
      this.connected = false;
      this.since = new Date();
      if (this.abort.signal.aborted) return;
      log.warn('hub connection lost; reconnecting');
      // A socket lost before its sync finished was never announced as connected.
      if (wasConnected) {
        const message = reason === 'ping_timeout' ? 'the hub did not answer a ping in time' : 'the connection to the hub closed';
        this.emitDisconnected({ reason, message, attempt: 0, since: this.since.toISOString() });
      }
    });
    conn.addEventListener('ready', () => {
      void this.sync('resync');
    });
    this.buffer = [];
    // The library re-sends this subscription by itself after every reconnect.
    await conn.subscribeEvents<HubEvent>((event) => {
      this.counts.received++;
      if (event.event_type === EVENT.stateChanged) {
        this.counts.state_changed++;
        const data = event.data as unknown as StateChangedData;
        event = { ...event, data: { ...data, old_state: withoutCredentials(data.old_state), new_state: withoutCredentials(data.new_state) } as never };
      }
      this.onHubEvent(event);
    });
    await this.sync('initial');
    this.startPinger();
  }

  /** Loads states, config, services and registries; on a resync, reports what changed meanwhile. */
  private async sync(kind: 'initial' | 'resync'): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    this.buffer ??= [];
    try {
      const send = (msg: { type: string }) => conn.sendMessagePromise(msg);
      const [states, config, services, registries] = await Promise.all([
        send({ type: MSG.getStates }) as Promise<HubState[]>,
        send({ type: MSG.getConfig }) as Promise<HubConfig>,
        send({ type: MSG.getServices }) as Promise<HubServices>,
        loadRegistries(send),
      ]);
      this.config = config;
      this.services = services;
      this.registries.replace(registries);
      const changes = this.cache.replaceAll(states.map(withoutCredentials));
      const buffered = this.buffer;
      this.buffer = undefined;
      if (kind === 'resync' && this.synced) {
        for (const change of changes) this.publish(resyncEvent(change));
      }
      // Buffered events older than the snapshot are already in it; newer ones still apply.
      for (const event of buffered) {
        if (event.event_type === EVENT.stateChanged && !this.isNewer(event.data as unknown as StateChangedData)) continue;
        this.onHubEvent(event);
      }
      // A first sync that follows a failed one is still the first.
      const reconnect = this.synced;
      this.synced = true;
      this.connected = true;
      const log = this.opts.log;
      log.info(
        {
          version: config.version,
          entities: this.cache.size,
          areas: this.registries.areas.size,
          floors: this.registries.floorsSupported ? this.registries.floors.size : 'unsupported',
          changed: reconnect ? changes.length : undefined,
        },
        reconnect
          ? `hub reconnected; ${changes.length} entities changed while away`
          : `hub connected: Home Assistant ${config.version}, ${this.cache.size} entities`,
      );
      const data: HubConnectedData = {
        kind: reconnect ? 'reconnect' : 'initial',
        version: config.version,
        attempt: Math.max(1, this.attempts),
        entities: this.cache.size,
        changed: reconnect ? changes.length : 0,
        ...(reconnect ? { disconnected_for_ms: Date.now() - this.since.getTime() } : {}),
      };
      this.publish(serviceEvent(HUB_CONNECTED, data));
      // A hub still starting (Home Assistant answers its WebSocket API before every integration is
      // set up) is ready once it says it started and the snapshot was taken again.
      this.hubStarted = config.state === undefined || config.state === HUB_RUNNING;
      if (this.hubStarted) for (const w of this.readyWaiters.splice(0)) w();
    } catch (err) {
      this.buffer = undefined;
      if (this.abort.signal.aborted) return;
      // The connection dropped mid-sync; the next 'ready' starts another one.
      this.opts.log.warn({ err: (err as Error)?.message ?? err }, 'hub sync failed; waiting for the next connection');
    }
  }

  private isNewer(change: StateChangedData): boolean {
    const cached = this.cache.get(change.entity_id);
    if (!change.new_state) return cached !== undefined;
    return !cached || change.new_state.last_updated > cached.last_updated;
  }

  private onHubEvent(event: HubEvent): void {
    if (this.buffer) {
      this.buffer.push(event);
      return;
    }
    if (event.event_type === EVENT.stateChanged) {
      const change = event.data as unknown as StateChangedData;
      this.cache.apply(change);
      if (this.observers.size) this.observe(change, event.context?.id);
    } else if (REGISTRY_EVENTS.has(event.event_type)) {
      this.scheduleReload('registries', async () => this.registries.replace(await loadRegistries((m) => this.conn!.sendMessagePromise(m))));
    } else if (event.event_type === EVENT.homeassistantStarted) {
      void this.afterStart();
    } else if (event.event_type === EVENT.serviceRegistered || event.event_type === EVENT.serviceRemoved) {
      this.scheduleReload('services', async () => {
        this.services = (await this.conn!.sendMessagePromise({ type: MSG.getServices })) as HubServices;
      });
    }
    this.publish(event);
  }

  /** The hub finished starting: its services and registries again, at once, then ready. */
  private async afterStart(): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    try {
      const send = (msg: { type: string }) => conn.sendMessagePromise(msg);
      const [config, services, registries] = await Promise.all([
        send({ type: MSG.getConfig }) as Promise<HubConfig>,
        send({ type: MSG.getServices }) as Promise<HubServices>,
        loadRegistries(send),
      ]);
      this.config = config;
      this.services = services;
      this.registries.replace(registries);
      this.hubStarted = true;
      for (const w of this.readyWaiters.splice(0)) w();
    } catch (err) {
      this.opts.log.warn({ err: (err as Error)?.message ?? err }, 'reloading after the hub started failed');
    }
  }

  private publish(event: HubEvent): void {
    this.opts.bus.emit('event', event);
  }

  private emitDisconnected(data: HubDisconnectedData): void {
    this.publish(serviceEvent(HUB_DISCONNECTED, data));
  }

  private scheduleReload(what: string, load: () => Promise<void>): void {
    if (this.reloadTimers.has(what)) return;
    const timer = setTimeout(() => {
      this.reloadTimers.delete(what);
      if (!this.connected) return;
      load().catch((err: unknown) => this.opts.log.warn({ err }, `reloading ${what} failed`));
    }, RELOAD_DEBOUNCE_MS);
    timer.unref();
    this.reloadTimers.set(what, timer);
  }

  private startPinger(): void {
    const every = this.opts.pingIntervalMs ?? 30_000;
    const within = this.opts.pingTimeoutMs ?? 10_000;
    this.pinger = setInterval(() => {
      const conn = this.conn;
      if (!conn || !this.connected) return;
      const socket = conn.socket as unknown as HubSocket | undefined;
      let answered = false;
      const timer = setTimeout(() => {
        if (answered || conn.socket !== (socket as unknown)) return;
        this.opts.log.warn(`hub did not answer a ping within ${within} ms; reconnecting`);
        this.dropReason = 'ping_timeout';
        // terminate() fires 'close' at once, where a polite close could wait on a dead peer.
        socket?.terminate();
      }, within);
      conn.ping().then(
        () => {
          answered = true;
          clearTimeout(timer);
        },
        () => clearTimeout(timer),
      );
    }, every);
    this.pinger.unref();
  }

  private observe(change: StateChangedData, contextId: string | undefined): void {
    for (const o of this.observers) {
      if (!o.ids.has(change.entity_id)) continue;
      o.seen.set(change.entity_id, { ...change, context: contextId });
      o.wake?.();
    }
  }

  private ensureConnected(): Connection {
    if (!this.connected || !this.conn) throw hubUnavailable(`The hub is not connected (since ${this.since.toISOString()})`);
    return this.conn;
  }

  async query<T>(type: string, payload: Record<string, unknown> = {}): Promise<T> {
    return this.#command<T>({ ...payload, type: checkReadOnly(type) });
  }

  /** Any other command of the hub's WebSocket API, answered with its result (errors as for calls). */
  async #command<T>(message: { type: string; [k: string]: unknown }): Promise<T> {
    const conn = this.ensureConnected();
    const timeoutMs = this.opts.callTimeoutMs ?? 10_000;
    return (await withTimeout(conn.sendMessagePromise(message), timeoutMs, () =>
      hubUnavailable(`The hub did not answer ${message.type} within ${timeoutMs} ms`),
    ).catch((err: unknown) => {
      throw hubError(err, message.type);
    })) as T;
  }

  /**
   * A command the hub answers as a subscription (system_health/info): its events, gathered until
   * one `isLast` says it is the end or the time runs out; then unsubscribed.
   */
  async collect<T>(message: { type: string; [k: string]: unknown }, isLast: (event: T) => boolean): Promise<T[]> {
    checkReadOnlySubscription(message.type);
    const conn = this.ensureConnected();
    const timeoutMs = this.opts.callTimeoutMs ?? 10_000;
    const events: T[] = [];
    let unsubscribe: (() => Promise<void>) | undefined;
    let failed: unknown;
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      void conn
        .subscribeMessage<T>(
          (e) => {
            events.push(e);
            if (isLast(e)) {
              clearTimeout(timer);
              resolve();
            }
          },
          message,
          { resubscribe: false },
        )
        .then((u) => {
          unsubscribe = u;
        })
        .catch((err: unknown) => {
          clearTimeout(timer);
          events.length = 0;
          resolve();
          failed = hubError(err, message.type);
        });
    });
    await done;
    if (failed) throw failed;
    await unsubscribe?.().catch(() => undefined);
    return events;
  }

  /** Fires an event on the hub's bus (the caller has been judged by the checkpoint). */
  async #fireEvent(eventType: string, eventData: Record<string, unknown>): Promise<{ context?: HubContext }> {
    return (await this.#command<{ context?: HubContext }>({ type: MSG.fireEvent, event_type: eventType, event_data: eventData })) ?? {};
  }

  /**
   * Renders a template once: Home Assistant's render_template is a subscription that renders again
   * whenever what the template read changes, so the first rendering is taken and the subscription
   * ended. `timeoutS` is the hub's own limit (it refuses a template that would render longer);
   * `waitMs` is ours, for a hub that does not answer at all.
   */
  async renderTemplate(template: string, opts: { timeoutS: number; waitMs: number }): Promise<RenderedTemplate> {
    const conn = this.ensureConnected();
    let unsubscribe: (() => Promise<void>) | undefined;
    let settle: (r: RenderedTemplate) => void = () => undefined;
    const first = new Promise<RenderedTemplate>((resolve) => {
      settle = resolve;
    });
    const warnings: string[] = [];
    const onMessage = (m: { result?: unknown; listeners?: RenderedTemplate['listeners']; error?: string; level?: string }) => {
      if (typeof m.error === 'string') {
        // report_errors: warnings come before the result; an error ends the rendering.
        if (String(m.level ?? 'ERROR').toUpperCase() === 'WARNING') warnings.push(m.error);
        else settle({ error: m.error, warnings });
        return;
      }
      if ('result' in m) settle({ result: m.result, listeners: m.listeners, warnings });
    };
    const what = MSG.renderTemplate;
    try {
      unsubscribe = await withTimeout(
        conn.subscribeMessage(onMessage, { type: what, template, timeout: opts.timeoutS, report_errors: true, strict: false }, { resubscribe: false }),
        opts.waitMs,
        () => new AppError('HUB_ERROR', 504, `The hub did not take the template within ${opts.waitMs} ms`, { timeout_ms: opts.waitMs }),
      );
      return await withTimeout(
        first,
        opts.waitMs,
        () => new AppError('HUB_ERROR', 504, `The template did not render within ${opts.waitMs} ms`, { timeout_ms: opts.waitMs }),
      );
    } catch (err) {
      throw hubError(err, what);
    } finally {
      // A subscription that never answered is ended too, so the hub stops rendering it.
      void unsubscribe?.().catch(() => undefined);
    }
  }

  /**
   * A subscription asked for its first message only (calendar/event/subscribe lists a range's
   * events that way): the first event is the answer, then the subscription is ended.
   */
  async firstEvent<T>(message: { type: string; [k: string]: unknown }): Promise<T> {
    checkReadOnlySubscription(message.type);
    const conn = this.ensureConnected();
    const timeoutMs = this.opts.callTimeoutMs ?? 10_000;
    let stop: (() => Promise<void>) | undefined;
    let done = false;
    const end = () => {
      done = true;
      stop?.().catch(() => undefined);
    };
    try {
      return (await withTimeout(
        new Promise<unknown>((resolve, reject) => {
          conn
            .subscribeMessage((event: unknown) => resolve(event), message, { resubscribe: false })
            .then((unsubscribe) => {
              stop = unsubscribe;
              if (done) end();
            }, reject);
        }),
        timeoutMs,
        () => hubUnavailable(`The hub did not answer ${message.type} within ${timeoutMs} ms`),
      ).catch((err: unknown) => {
        throw hubError(err, message.type);
      })) as T;
    } finally {
      end();
    }
  }

  async #call(call: HubServiceCall, opts: { watch?: readonly string[]; settleMs?: number } = {}): Promise<CallResult> {
    const conn = this.ensureConnected();
    const { domain, service } = call;
    const watch = [...new Set(opts.watch ?? [])];
    const observer: Observer = { ids: new Set(watch), seen: new Map() };
    this.observers.add(observer);
    try {
      const message = {
        type: MSG.callService,
        domain,
        service,
        service_data: call.service_data ?? {},
        ...(call.target ? { target: call.target } : {}),
        ...(call.return_response ? { return_response: true } : {}),
      };
      const timeoutMs = this.opts.callTimeoutMs ?? 10_000;
      const result = (await withTimeout(conn.sendMessagePromise(message), timeoutMs, () =>
        hubUnavailable(`The hub did not answer ${domain}.${service} within ${timeoutMs} ms`),
      ).catch((err: unknown) => {
        throw hubError(err, `${domain}.${service}`);
      })) as { context?: HubContext; response?: unknown } | null;
      const context = result?.context ?? newContext();
      // Changes seen before the result count only when the call caused them; later ones count anyway.
      for (const [id, change] of observer.seen) if (change.context !== context.id) observer.seen.delete(id);
      const pending = () => watch.filter((id) => !observer.seen.has(id));
      const settleMs = opts.settleMs ?? this.opts.settleMs ?? 500;
      if (settleMs > 0 && pending().length) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, settleMs);
          observer.wake = () => {
            if (pending().length === 0) {
              clearTimeout(timer);
              resolve();
            }
          };
        });
      }
      return {
        context,
        states: new Map(watch.map((id) => [id, this.cache.get(id)])),
        ...(call.return_response ? { response: withoutQuotedCredentials(result?.response ?? null) } : {}),
      };
    } finally {
      this.observers.delete(observer);
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    clearInterval(this.pinger);
    for (const t of this.reloadTimers.values()) clearTimeout(t);
    this.connected = false;
    this.conn?.close();
    await this.running;
  }
}

function resyncEvent(change: StateChangedData): HubEvent {
  return {
    event_type: EVENT.stateChanged,
    data: change as unknown as Record<string, unknown>,
    origin: 'LOCAL',
    time_fired: change.new_state?.last_updated ?? new Date().toISOString(),
    context: change.new_state?.context ?? newContext(),
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * The service data key a validation message names: voluptuous (to 2025) says "@ data['key']",
 * probatio (2026.11) "at 'key'" or "at 'target.entity_id'"; the first key is the field.
 */
export function fieldOf(message: string): string | null {
  return /@ data\['([^']+)'\]/.exec(message)?.[1] ?? / at '([^'.]+)[^']*'/.exec(message)?.[1] ?? null;
}

/** The hub's refusal, kept in its own words. */
export function hubError(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  // The library rejects with ERR_CONNECTION_LOST, an error carrying it, or (for a command in flight
  // when the socket closed) a whole result message `{type: "result", success: false, error: {code}}`.
  const lost = (x: unknown) => typeof x === 'object' && x !== null && (x as { code?: unknown }).code === ERR_CONNECTION_LOST;
  if (err === ERR_CONNECTION_LOST || lost(err) || (typeof err === 'object' && err !== null && lost((err as { error?: unknown }).error))) {
    return hubUnavailable(`The hub connection was lost during ${what}`);
  }
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: string; message?: string; translation_key?: string };
  const details = { hub_code: e.code ?? null, hub_message: e.message ?? null, ...(e.translation_key ? { hub_translation_key: e.translation_key } : {}) };
  let message = e.message ?? `The hub refused ${what}`;
  if (e.code === HA_ERROR.invalidFormat) return new AppError('INVALID_PARAMETERS', 400, message, { field: fieldOf(message), ...details });
  // Some integrations' messages are not translated: 2026.11's manual alarm panel says only
  // "Validation error: invalid_code". Say it in words.
  if (e.translation_key && message === `Validation error: ${e.translation_key}`) {
    message = `Home Assistant refused it: ${e.translation_key.replace(/_/g, ' ')}`;
  }
  // A lock that wants a code (LockEntity.add_default_code): name the field to add, not the pattern.
  const wantsCode = /(?:^|: )The code for (\S+) doesn't match pattern (.+?)\.?$/.exec(message);
  if (e.translation_key === 'add_default_code' || wantsCode) {
    const [entity, format] = [wantsCode?.[1], wantsCode?.[2]];
    return new AppError('INVALID_PARAMETERS', 400, `${entity ?? 'The lock'} wants a code: give it as \`code\`${format ? ` (matching ${format})` : ''}`, {
      field: 'code',
      ...(entity ? { entity_id: entity } : {}),
      code_format: format ?? null,
      ...details,
    });
  }
  if (e.code === HA_ERROR.notFound) return new AppError('INVALID_ACTION', 400, message, details);
  if (e.code === HA_ERROR.unauthorized) return new AppError('HUB_ERROR', 403, message, details);
  return new AppError('HUB_ERROR', 400, message, details);
}
