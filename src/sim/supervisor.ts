// What Home Assistant's Supervisor keeps for an add-on, as its own objects do: installed add-ons
// with their ingress tokens (supervisor/addons, supervisor/ingress.py), ingress sessions and
// discovery messages (supervisor/discovery). Facts follow the Supervisor of early 2025, the one
// that shipped beside Home Assistant 2025.1: sessions live 15 minutes and each validation adds
// another 15 to their end (not to now); they are the Supervisor's, so a restart of Home
// Assistant (the simulator's restart()) keeps them.
import { randomBytes } from 'node:crypto';
import { hexId } from './time.js';

export interface SupervisorOptions {
  /** The add-on's SUPERVISOR_TOKEN (it belongs to the first installed add-on); default 'supervisor-token'. */
  token?: string;
  /** The token Home Assistant Core itself uses with the Supervisor; default 'core-supervisor-token'. */
  coreToken?: string;
  /** How long an ingress session lives, and what each validation adds; default 15 minutes. */
  sessionLifetimeMs?: number;
  /** The local address the ingress proxy connects to add-ons from (e.g. '127.0.0.2'). */
  ingressSourceAddress?: string;
  /** How long a backup takes, its job's progress running meanwhile; default 200 ms. */
  backupMs?: number;
  /** Home Assistant's version, as a backup that holds it names it. */
  coreVersion?: () => string;
}

/** hassio_role (supervisor/const.py ROLE_*); the least is default. */
export type HassioRole = 'default' | 'homeassistant' | 'backup' | 'manager' | 'admin';

/** A backup as the Supervisor keeps it (supervisor/backups/backup.py), the fields its info shows. */
export interface SimBackup {
  slug: string;
  name: string;
  date: string;
  type: 'full' | 'partial';
  /** MB, as `size` says it; `size_bytes` is the bytes. */
  size: number;
  homeassistant: string | null;
  addons: { slug: string; name: string; version: string; size: number }[];
  folders: string[];
}

/** A job (supervisor/jobs/__init__.py SupervisorJob.as_dict). */
export interface SimJob {
  name: string;
  reference: string | null;
  uuid: string;
  progress: number;
  stage: string | null;
  done: boolean | null;
  parent_id: string | null;
  errors: { type: string; message: string; stage: string | null; error_key: string | null; extra_fields: Record<string, unknown> | null }[];
  created: string;
  extra: Record<string, unknown> | null;
}

export type AddonState = 'started' | 'stopped';

export interface AddonSpec {
  slug: string;
  name?: string;
  /** The add-on's base http URL, e.g. http://127.0.0.1:PORT (its ingress port). */
  url: string;
  /** Default: 64 random url-safe characters, as the Supervisor makes them. */
  ingressToken?: string;
  state?: AddonState;
  version?: string;
  /** Services the add-on may announce (its config's `discovery`); default none, as the Supervisor defaults. */
  discovery?: string[];
  /** The config's `ingress_entry` (appended to ingress_url). */
  ingressEntry?: string;
  /** The host name other containers reach it by (info's `hostname`); default the slug with dashes, as the Supervisor makes it. */
  hostname?: string;
  /** The config's `ingress_stream`: POST bodies are streamed to the add-on instead of read first; default false. */
  ingressStream?: boolean;
  /** The config's `homeassistant_api` (needed for /core/websocket); default true. */
  homeassistantApi?: boolean;
  panelTitle?: string;
  panelIcon?: string;
  panelAdmin?: boolean;
  /** The config's `hassio_api` and `hassio_role`: which Supervisor paths its token reaches; default false and 'default'. */
  hassioApi?: boolean;
  hassioRole?: HassioRole;
}

export interface Addon {
  readonly slug: string;
  readonly name: string;
  readonly url: URL;
  readonly ingressToken: string;
  state: AddonState;
  readonly version: string;
  readonly discovery: string[];
  readonly ingressEntry: string | undefined;
  readonly hostname: string;
  readonly ingressStream: boolean;
  readonly homeassistantApi: boolean;
  readonly panelTitle: string;
  readonly panelIcon: string;
  readonly panelAdmin: boolean;
  readonly hassioApi: boolean;
  readonly hassioRole: HassioRole;
}

/** IngressSessionDataUser: what the Supervisor knows of the Home Assistant user behind a session. */
export interface SessionUser {
  id: string;
  username: string | null;
  displayName: string | null;
}

export interface IngressSession {
  session: string;
  /** Epoch ms; the session has lapsed once now is past it. */
  validUntil: number;
  user: SessionUser | null;
}

export interface DiscoveryMessage {
  addon: string;
  service: string;
  uuid: string;
  config: Record<string, unknown>;
}

export const DEFAULT_SESSION_LIFETIME_MS = 15 * 60 * 1000;

export class SimSupervisor {
  readonly token: string;
  readonly coreToken: string;
  readonly sessionLifetimeMs: number;
  readonly ingressSourceAddress: string | undefined;
  private readonly addons = new Map<string, Addon>();
  private readonly sessionMap = new Map<string, IngressSession>();
  private readonly messages = new Map<string, DiscoveryMessage>();
  private readonly backupMap = new Map<string, SimBackup>();
  private readonly jobMap = new Map<string, SimJob>();
  readonly backupMs: number;
  private readonly coreVersion: () => string;

  constructor(
    opts: SupervisorOptions,
    /** Home Assistant's users, as the Supervisor reads them to attach one to a session. */
    private readonly findUser: (id: string) => SessionUser | undefined,
    /** The simulator's base URL, for ingressUrl(). */
    private readonly baseUrl: () => string,
  ) {
    this.token = opts.token ?? 'supervisor-token';
    this.coreToken = opts.coreToken ?? 'core-supervisor-token';
    this.sessionLifetimeMs = opts.sessionLifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS;
    this.ingressSourceAddress = opts.ingressSourceAddress;
    this.backupMs = opts.backupMs ?? 200;
    this.coreVersion = opts.coreVersion ?? (() => '2026.11.0');
  }

  // --- add-ons ------------------------------------------------------------------------------

  installAddon(spec: AddonSpec): Addon {
    if (this.addons.has(spec.slug)) throw new Error(`add-on ${spec.slug} is already installed`);
    const addon: Addon = {
      slug: spec.slug,
      name: spec.name ?? spec.slug,
      url: new URL(spec.url),
      // secrets.token_urlsafe(32) in the Supervisor.
      ingressToken: spec.ingressToken ?? randomBytes(32).toString('base64url'),
      state: spec.state ?? 'started',
      version: spec.version ?? '1.0.0',
      discovery: [...(spec.discovery ?? [])],
      ingressEntry: spec.ingressEntry,
      hostname: spec.hostname ?? spec.slug.replace(/_/g, '-'),
      ingressStream: spec.ingressStream ?? false,
      homeassistantApi: spec.homeassistantApi ?? true,
      panelTitle: spec.panelTitle ?? spec.name ?? spec.slug,
      panelIcon: spec.panelIcon ?? 'mdi:puzzle',
      panelAdmin: spec.panelAdmin ?? true,
      hassioApi: spec.hassioApi ?? false,
      hassioRole: spec.hassioRole ?? 'default',
    };
    this.addons.set(addon.slug, addon);
    return addon;
  }

  setAddonState(slug: string, state: AddonState): void {
    const addon = this.addons.get(slug);
    if (!addon) throw new Error(`no add-on ${slug}`);
    addon.state = state;
  }

  addon(slug: string): Addon | undefined {
    return this.addons.get(slug);
  }

  allAddons(): Addon[] {
    return [...this.addons.values()];
  }

  /** The add-on a SUPERVISOR_TOKEN belongs to: the simulator's one token is the first add-on's. */
  addonForToken(token: string | undefined): Addon | undefined {
    if (token === undefined || token !== this.token) return undefined;
    return this.addons.values().next().value;
  }

  addonForIngressToken(token: string): Addon | undefined {
    for (const a of this.addons.values()) if (a.ingressToken === token) return a;
    return undefined;
  }

  /** Where a browser opens the add-on: the ingress URL on the simulator (Home Assistant's frontend). */
  ingressUrl(slug: string): string {
    const addon = this.addons.get(slug);
    if (!addon) throw new Error(`no add-on ${slug}`);
    return `${this.baseUrl()}${ingressPath(addon)}`;
  }

  // --- ingress sessions -------------------------------------------------------------------

  /** Ingress.create_session: 128 hex characters; the user only if Home Assistant knows the id. */
  createSession(userId: string | undefined): string {
    const session = randomBytes(64).toString('hex');
    const user = userId === undefined ? undefined : this.findUser(userId);
    this.sessionMap.set(session, { session, validUntil: Date.now() + this.sessionLifetimeMs, user: user ?? null });
    return session;
  }

  /** Ingress.validate_session: false if unknown or lapsed, else pushes its end one lifetime further. */
  validateSession(session: string): boolean {
    const s = this.sessionMap.get(session);
    if (!s) return false;
    if (s.validUntil < Date.now()) return false;
    s.validUntil += this.sessionLifetimeMs;
    return true;
  }

  sessionUser(session: string): SessionUser | null {
    return this.sessionMap.get(session)?.user ?? null;
  }

  /** The sessions still valid now. */
  sessions(): IngressSession[] {
    const now = Date.now();
    return [...this.sessionMap.values()].filter((s) => s.validUntil >= now).map((s) => ({ ...s, user: s.user ? { ...s.user } : null }));
  }

  /** Lets every session lapse now (for tests); lapsed sessions stay known, as in the Supervisor until its cleanup. */
  expireSessions(): void {
    const past = Date.now() - 1;
    for (const s of this.sessionMap.values()) s.validUntil = past;
  }

  // --- backups and their jobs ---------------------------------------------------------------

  /**
   * BackupManager.do_backup_full / do_backup_partial: a job that runs for backupMs (its progress
   * and stage moving), then is done with the new backup's slug as its reference. Apps are stopped
   * for nothing here: the simulator has no containers.
   */
  startBackup(req: { name?: string; homeassistant: boolean; addons: string[] | 'ALL'; folders: string[]; type: 'full' | 'partial' }): SimJob {
    const slug = randomBytes(4).toString('hex');
    const job: SimJob = {
      name: `backup_manager_${req.type}_backup`,
      reference: null,
      uuid: hexId(),
      progress: 0,
      stage: null,
      done: false,
      parent_id: null,
      errors: [],
      created: new Date().toISOString(),
      extra: null,
    };
    this.jobMap.set(job.uuid, job);
    const apps = req.addons === 'ALL' ? this.allAddons() : req.addons.map((a) => this.addon(a)).filter((a): a is Addon => a !== undefined);
    const backup: SimBackup = {
      slug,
      name: req.name ?? new Date().toISOString().slice(0, 10),
      date: new Date().toISOString(),
      type: req.type,
      size: 0,
      homeassistant: req.homeassistant ? this.coreVersion() : null,
      addons: apps.map((a) => ({ slug: a.slug, name: a.name, version: a.version, size: 0.1 })),
      folders: [...req.folders],
    };
    const stages = ['home_assistant', 'apps', 'folders', 'finishing_file'];
    const step = this.backupMs / stages.length;
    for (const [i, stage] of stages.entries()) {
      setTimeout(() => {
        job.stage = stage;
        job.progress = Math.round((i / stages.length) * 1000) / 10;
      }, i * step).unref();
    }
    setTimeout(() => {
      backup.size = Math.round((0.5 + backup.addons.length * 0.1 + backup.folders.length * 0.2) * 100) / 100;
      this.backupMap.set(slug, backup);
      job.reference = slug;
      job.progress = 100;
      job.stage = null;
      job.done = true;
    }, this.backupMs).unref();
    return job;
  }

  job(uuid: string): SimJob | undefined {
    return this.jobMap.get(uuid);
  }

  backup(slug: string): SimBackup | undefined {
    return this.backupMap.get(slug);
  }

  backups(): SimBackup[] {
    return [...this.backupMap.values()];
  }

  // --- discovery ----------------------------------------------------------------------------

  /**
   * Discovery.send: one message per add-on and service. The same again returns the stored one;
   * a new config replaces the old under the same uuid.
   */
  announce(addon: Addon, service: string, config: Record<string, unknown>): DiscoveryMessage {
    for (const m of this.messages.values()) {
      if (m.addon !== addon.slug || m.service !== service) continue;
      m.config = config;
      return m;
    }
    const message: DiscoveryMessage = { addon: addon.slug, service, uuid: hexId(), config };
    this.messages.set(message.uuid, message);
    return message;
  }

  discovery(uuid: string): DiscoveryMessage | undefined {
    return this.messages.get(uuid);
  }

  removeDiscovery(uuid: string): void {
    this.messages.delete(uuid);
  }

  /** Every message announced and not removed, whatever the add-on's state. */
  discoveries(): DiscoveryMessage[] {
    return [...this.messages.values()].map((m) => ({ ...m, config: structuredClone(m.config) }));
  }
}

/** Addon.ingress_url: the token's path with a trailing slash, then the config's ingress_entry. */
export function ingressPath(addon: Addon): string {
  return `/api/hassio_ingress/${addon.ingressToken}/${addon.ingressEntry ?? ''}`;
}
