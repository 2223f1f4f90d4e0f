// The MCP address the add-on announces to Home Assistant (the Supervisor's `mcp` discovery), which
// Home Assistant's `mcp` integration uses as it is, with no person doing OAuth: a capability link,
// /mcp/ha/<key>, where the key is 256 random bits kept in DATA_DIR/discovery-link.json (0600).
// Whoever presents the key from one of DISCOVERY_PEERS is Home Assistant: its own principal
// (`via: 'discovery'`) with its own scopes (read, control). Everyone else gets 404 there, as for a
// path that does not exist.
// Why that keeps others out: only Home Assistant Core may read discovery messages from the
// Supervisor; the key lives only in this add-on's /data and in Home Assistant's own config entry,
// and is never logged (the log says /mcp/ha/… instead). Home Assistant runs in the host's network,
// so on the Supervisor's network it reaches the add-on from the gateway, 172.30.32.1, the default
// peer: other add-ons' containers (their own 172.30.33.x addresses) and the LAN through the
// published port (Docker keeps the client's address) are refused by address even with the key.
// Host-network apps share that address, so for them the key alone decides. Rotating it (the panel,
// POST /api/discovery/rotate) ends the old link at once and announces the new one; the Supervisor
// keeps the message's uuid, so Home Assistant updates its entry instead of offering a new one.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { backoffDelay } from '../hub/backoff.js';
import { DISCOVERY_SERVICE, type SupervisorApi } from '../hub/supervisor.js';
import { writePrivateFile } from './files.js';
import { canonicalAddress } from './ingress.js';
import { actorName, type Principal, type Scope } from './tokens.js';

/** What Home Assistant's link may be given: reading and control, never config editing (it signs in with no one present). */
export const LINK_SCOPES = ['read', 'control'] as const satisfies readonly Scope[];

/** The path the key follows; what logs show in its place. */
export const LINK_PREFIX = '/mcp/ha/';
export const LINK_SUBJECT = 'discovery:home-assistant';
const FILE = 'discovery-link.json';
const KEY = /^[A-Za-z0-9_-]{43}$/;
const ATTEMPTS = 8;

interface LinkFile {
  key: string;
  scope: Scope[];
  created_at: string;
}

export type AnnouncementState =
  | { state: 'off'; reason: string }
  | { state: 'pending'; attempt: number; error?: string }
  | { state: 'announced'; uuid: string; at: string; url: string }
  | { state: 'failed'; error: string };

export interface DiscoveryLinkView {
  enabled: boolean;
  /** The link with its key left out. */
  path: string;
  scope: Scope[];
  created_at: string | null;
  last_used_at: string | null;
  peers: string[];
  announcement: AnnouncementState;
  /** The LLM API id Home Assistant gives the entry it makes from the announcement (`mcp-<add-on slug>`), also the path of its /api/mcp/{api_id}. */
  home_assistant_api: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export class DiscoveryLink {
  private file?: LinkFile;
  private keyHash?: Buffer;
  private readonly peers: Set<string>;
  private lastUsed: string | null = null;
  private generation = 0;
  private announcement: AnnouncementState;
  private slug?: string;
  private stopped = false;

  constructor(
    private readonly dataDir: string,
    peers: readonly string[],
    /** The Supervisor; without one (not an add-on) there is nobody to announce to and the link is off. */
    private readonly supervisor: SupervisorApi | undefined,
    private readonly log: Logger,
    /** Where the server listens (known once it does; the link is announced after that). */
    private readonly listening: { readonly port: number },
  ) {
    this.peers = new Set(peers.map(canonicalAddress));
    this.announcement = supervisor ? { state: 'pending', attempt: 0 } : { state: 'off', reason: 'not running as an add-on (no Supervisor)' };
    if (supervisor) this.load();
  }

  get enabled(): boolean {
    return this.supervisor !== undefined;
  }

  private load(): void {
    const path = join(this.dataDir, FILE);
    if (existsSync(path)) {
      try {
        const f = JSON.parse(readFileSync(path, 'utf8')) as Partial<LinkFile>;
        if (typeof f.key === 'string' && KEY.test(f.key)) {
          const scope = Array.isArray(f.scope) ? LINK_SCOPES.filter((s) => f.scope!.includes(s)) : [...LINK_SCOPES];
          this.set({
            key: f.key,
            scope: scope.length ? scope : ['read'],
            created_at: typeof f.created_at === 'string' ? f.created_at : new Date().toISOString(),
          });
          return;
        }
      } catch {
        // A damaged file is replaced by a new key below; Home Assistant gets it with the next announcement.
      }
      this.log.warn(`${path} could not be read; made a new key for Home Assistant's link`);
    }
    this.set({ key: newKey(), scope: [...LINK_SCOPES], created_at: new Date().toISOString() });
    this.save();
  }

  private set(file: LinkFile): void {
    this.file = file;
    this.keyHash = sha256(file.key);
  }

  private save(): void {
    writePrivateFile(join(this.dataDir, FILE), `${JSON.stringify(this.file)}\n`);
  }

  /** Home Assistant, when the key is this link's and the caller is one of the peers; otherwise nobody. */
  principal(key: string | undefined, ip: string): Principal | undefined {
    if (!this.file || !this.keyHash || key === undefined || !this.peers.has(canonicalAddress(ip))) return undefined;
    // Compared as hashes: the same length whatever was sent, in constant time.
    if (!timingSafeEqual(sha256(key), this.keyHash)) return undefined;
    // Kept in memory only: the panel shows it, nothing else needs it across restarts.
    this.lastUsed = new Date().toISOString();
    return { sub: LINK_SUBJECT, iat: Math.floor(Date.parse(this.file.created_at) / 1000), via: 'discovery', scope: this.file.scope };
  }

  view(): DiscoveryLinkView {
    return {
      enabled: this.enabled,
      path: `${LINK_PREFIX}…`,
      scope: [...(this.file?.scope ?? [])],
      created_at: this.file?.created_at ?? null,
      last_used_at: this.lastUsed,
      peers: [...this.peers],
      announcement: this.announcement,
      home_assistant_api: this.slug ? `mcp-${this.slug}` : null,
    };
  }

  /** A new key: the old link stops at once; the new one is announced. */
  async rotate(by: Principal): Promise<DiscoveryLinkView> {
    this.mustBeOn();
    this.set({ ...this.file!, key: newKey(), created_at: new Date().toISOString() });
    this.save();
    this.log.info(`Home Assistant's MCP link got a new key (rotated by ${actorName(by)}); the old one no longer works`);
    // Tried once while the person waits, so the answer says whether Home Assistant has it; then again in the background.
    await this.announce(1);
    if (this.announcement.state !== 'announced') void this.announce();
    return this.view();
  }

  setScope(scope: readonly Scope[], by: Principal): DiscoveryLinkView {
    this.mustBeOn();
    const chosen = LINK_SCOPES.filter((s) => scope.includes(s) || s === 'read');
    this.set({ ...this.file!, scope: chosen });
    this.save();
    this.log.info(`Home Assistant's MCP link may now ${chosen.includes('control') ? 'read and control' : 'only read'} (set by ${actorName(by)})`);
    return this.view();
  }

  private mustBeOn(): void {
    if (!this.enabled || !this.file) throw new LinkOffError(this.announcement.state === 'off' ? this.announcement.reason : 'the link is off');
  }

  /**
   * Announces the link through the Supervisor. It may still be starting with the add-on, so failures
   * are retried with backoff (a later rotation takes over); giving up costs only the offer. `attempts`
   * of 1 tries once and lets the caller see the outcome.
   */
  async announce(attempts = ATTEMPTS): Promise<void> {
    if (!this.supervisor || !this.file) return;
    const generation = ++this.generation;
    for (let attempt = 0; attempt < attempts && !this.stopped && generation === this.generation; attempt++) {
      this.announcement = {
        state: 'pending',
        attempt: attempt + 1,
        ...(this.announcement.state === 'pending' && this.announcement.error ? { error: this.announcement.error } : {}),
      };
      try {
        const info = await this.supervisor.addonInfo();
        if (info.slug) this.slug = info.slug;
        // Home Assistant reaches the add-on by its host name on the Supervisor's network.
        const host = info.hostname || hostnameFallback();
        const port = this.listening.port;
        const url = `http://${host}:${port}${LINK_PREFIX}${this.file.key}`;
        const { uuid } = await this.supervisor.discover(DISCOVERY_SERVICE, { url, host, port });
        if (generation !== this.generation) return;
        const shown = `http://${host}:${port}${LINK_PREFIX}…`;
        this.announcement = { state: 'announced', uuid, at: new Date().toISOString(), url: shown };
        this.log.info(`announced the MCP endpoint ${shown} to Home Assistant (discovery ${uuid}; the key is not logged)`);
        return;
      } catch (err) {
        if (this.stopped || generation !== this.generation) return;
        const message = (err as Error).message;
        this.announcement = { state: 'pending', attempt: attempt + 1, error: message };
        if (attempt + 1 >= attempts) break;
        const delay = backoffDelay(attempt, { baseMs: 1000, maxMs: 30_000 });
        this.log.warn(`discovery through the Supervisor failed (${message}); trying again in ${Math.round(delay / 1000)} s`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
    if (this.stopped || generation !== this.generation) return;
    const error = this.announcement.state === 'pending' ? (this.announcement.error ?? 'no answer') : 'no answer';
    this.announcement = { state: 'failed', error };
    this.log.warn(`could not announce the MCP endpoint (${error}); Home Assistant will not offer to add it (the bridge itself works)`);
  }

  stop(): void {
    this.stopped = true;
  }
}

/** A rotation or scope change asked of a bridge that announces nothing. */
export class LinkOffError extends Error {}

const newKey = () => randomBytes(32).toString('base64url');

const hostnameFallback = () => hostname();
