// The way to the add-on through Home Assistant's own address: sign in to its WebSocket API with a
// long-lived token, find the add-on and its ingress URL through the Supervisor (`supervisor/api`),
// open an ingress session and send every HTTP request with its cookie. The session is renewed
// before it lapses; one that is refused anyway (lapsed, or Home Assistant restarted) is replaced
// and the request sent again. The WebSocket is opened again when it drops.
import type WebSocket from 'ws';
import { backoffDelay } from '../hub/backoff.js';
import { HA_ERROR } from '../hub/protocol.js';
import { connectOnce, InvalidAuthError, websocketUrl } from '../hub/socket.js';

export const ADDON_SLUG = 'home_mcp_bridge';
const TIMEOUT_MS = 10_000;

/** A problem the user must fix (a wrong token, no Supervisor, the add-on stopped): no retry helps. */
export class IngressSetupError extends Error {
  override name = 'IngressSetupError';
}

class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface AddonInfo {
  slug: string;
  name?: string;
  state?: string;
  ingress?: boolean;
  ingress_url?: string | null;
}

export interface HaIngressOptions {
  /** Home Assistant's base URL, as the user opens it (http(s)://host:8123). */
  url: string;
  token: string;
  /** The add-on's slug; default: the installed add-on whose slug is or ends with home_mcp_bridge. */
  addon?: string;
  /** How often the session is renewed (the Supervisor lets it lapse after 15 minutes without). */
  renewMs?: number;
  log: (message: string) => void;
}

export class HaIngress {
  private socket?: WebSocket;
  private connecting?: Promise<WebSocket>;
  private nextId = 2;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private session?: string;
  private opening?: Promise<string>;
  private renewTimer?: NodeJS.Timeout;
  private closed = false;
  /** The add-on's MCP endpoint under Home Assistant's address. */
  mcpUrl!: URL;
  slug!: string;

  constructor(private readonly opts: HaIngressOptions) {}

  /** Checks everything once, with a clear error for what the user must fix; then keeps the session. */
  async start(): Promise<URL> {
    const user = await this.command<{ name: string; is_admin: boolean }>({ type: 'auth/current_user' });
    if (!user.is_admin) {
      throw new IngressSetupError(
        `the token belongs to ${user.name}, who is not a Home Assistant administrator; add-ons are reached through ingress only with an administrator's long-lived access token`,
      );
    }
    this.slug = this.opts.addon ?? (await this.findAddon());
    const info = await this.supervisor<AddonInfo>(`/addons/${this.slug}/info`, 'get').catch((err: Error) => {
      throw err instanceof CommandError ? new IngressSetupError(`the add-on ${this.slug} is not installed (${err.message || err.code})`) : err;
    });
    if (info.state !== 'started')
      throw new IngressSetupError(`the add-on ${info.name ?? this.slug} is ${info.state ?? 'not running'}; start it in Home Assistant (Settings → Add-ons)`);
    if (!info.ingress || !info.ingress_url) throw new IngressSetupError(`the add-on ${this.slug} offers no ingress`);
    this.mcpUrl = new URL(`${info.ingress_url.replace(/\/?$/, '/')}mcp`, this.opts.url.replace(/\/+$/, '/'));
    await this.newSession();
    this.renewTimer = setInterval(() => void this.renew(), this.opts.renewMs ?? 60_000);
    this.renewTimer.unref();
    return this.mcpUrl;
  }

  /** fetch for the MCP transport: the session cookie on every request; a refused session is replaced once. */
  readonly fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const send = async (session: string) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', `ingress_session=${session}`);
      return fetch(input, { ...init, headers });
    };
    const session = this.session ?? (await this.newSession());
    const res = await send(session);
    if (res.status !== 401) return res;
    // The request is sent again whole: MCP requests carry their body as a string.
    await res.body?.cancel();
    this.opts.log('the ingress session was refused; opening a new one');
    return send(await this.newSession(session));
  };

  close(): void {
    this.closed = true;
    clearInterval(this.renewTimer);
    this.socket?.close();
  }

  private async findAddon(): Promise<string> {
    let list: { addons?: AddonInfo[] };
    try {
      list = await this.supervisor<{ addons?: AddonInfo[] }>('/addons', 'get');
    } catch (err) {
      throw err instanceof CommandError ? new IngressSetupError(`Home Assistant did not list its add-ons (${err.message || err.code})`) : err;
    }
    const found = (list.addons ?? []).filter((a) => a.slug === ADDON_SLUG || a.slug.endsWith(`_${ADDON_SLUG}`));
    if (found.length === 0)
      throw new IngressSetupError(
        `the Home MCP Bridge add-on is not installed on this Home Assistant (looked for a slug ending in ${ADDON_SLUG}; give another with --addon SLUG)`,
      );
    if (found.length > 1)
      throw new IngressSetupError(`more than one Home MCP Bridge add-on is installed (${found.map((a) => a.slug).join(', ')}); choose one with --addon SLUG`);
    return found[0]!.slug;
  }

  /** A new session, unless another request already replaced the refused one. */
  private newSession(refused?: string): Promise<string> {
    if (this.session !== refused && this.session !== undefined) return Promise.resolve(this.session);
    this.opening ??= this.supervisor<{ session: string }>('/ingress/session', 'post')
      .then((r) => (this.session = r.session))
      .finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async renew(): Promise<void> {
    const session = this.session;
    if (!session || this.closed) return;
    try {
      await this.supervisor('/ingress/validate_session', 'post', { session });
    } catch (err) {
      if (this.closed) return;
      // Lapsed or unknown (Home Assistant or the Supervisor restarted): the next request opens a new one.
      this.opts.log(`renewing the ingress session failed (${(err as Error).message || 'refused'}); a new one will be opened`);
      if (this.session === session) this.session = undefined;
    }
  }

  private async supervisor<T>(endpoint: string, method: 'get' | 'post', data?: unknown): Promise<T> {
    try {
      return await this.command<T>({ type: 'supervisor/api', endpoint, method, ...(data === undefined ? {} : { data }) });
    } catch (err) {
      if (err instanceof CommandError && err.code === HA_ERROR.unknownCommand) {
        throw new IngressSetupError(
          `Home Assistant at ${this.opts.url} has no Supervisor (add-ons and ingress need Home Assistant OS or a Supervised installation); connect to the bridge's own port instead: connect http://<host>:3000/mcp with BRIDGE_TOKEN`,
        );
      }
      if (err instanceof CommandError && err.code === 'unauthorized') {
        throw new IngressSetupError(`Home Assistant refused ${endpoint} for this token's user: an administrator's token is needed`);
      }
      throw err;
    }
  }

  /** One WebSocket command; the socket is opened (again) as needed, with backoff while Home Assistant is away. */
  private async command<T>(message: Record<string, unknown>): Promise<T> {
    const socket = await this.connect();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`Home Assistant did not answer ${String(message.type)} within ${TIMEOUT_MS / 1000} s`));
      }, TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      socket.send(JSON.stringify({ ...message, id }));
    });
  }

  private connect(): Promise<WebSocket> {
    if (this.socket && this.socket.readyState === this.socket.OPEN) return Promise.resolve(this.socket);
    this.connecting ??= (async () => {
      for (let attempt = 0; ; attempt++) {
        if (this.closed) throw new Error('closed');
        try {
          const socket = await connectOnce(websocketUrl(this.opts.url), this.opts.token, TIMEOUT_MS);
          this.attach(socket);
          if (attempt > 0) this.opts.log('signed in to Home Assistant again');
          return socket;
        } catch (err) {
          if (err instanceof InvalidAuthError)
            throw new IngressSetupError(`Home Assistant at ${this.opts.url} refused the token in HASS_TOKEN (${err.message})`);
          // Only the first sign-in reports at once; later ones wait for Home Assistant to come back.
          if (!this.mcpUrl) throw new IngressSetupError(`cannot reach Home Assistant at ${this.opts.url}: ${(err as Error).message}`);
          await new Promise((r) => setTimeout(r, backoffDelay(attempt, { baseMs: 500, maxMs: 10_000 })));
        }
      }
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private attach(socket: WebSocket): void {
    this.socket = socket;
    socket.on('message', (raw) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(raw));
      } catch {
        return;
      }
      // Messages come coalesced into arrays (the socket asked for that when it signed in).
      for (const msg of (Array.isArray(parsed) ? parsed : [parsed]) as {
        id?: number;
        type?: string;
        success?: boolean;
        result?: unknown;
        error?: { code: string; message: string };
      }[]) {
        const waiting = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!waiting || msg.type !== 'result') continue;
        this.pending.delete(msg.id!);
        if (msg.success) waiting.resolve(msg.result);
        else waiting.reject(new CommandError(msg.error?.code ?? 'unknown_error', msg.error?.message ?? ''));
      }
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(new Error('the connection to Home Assistant closed'));
      }
    });
    socket.on('error', () => undefined);
  }
}
