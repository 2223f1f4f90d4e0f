// Looking after Home Assistant as a whole: its updates (update.* entities), backups, a restart or a
// reload of its core, and inside the add-on its apps (through the Supervisor). Each change is a
// ChangePlan run through the config service's one flow (the admin checkpoint, a preview, the
// person's confirmation); none is kept as a version, since none can be put back. What takes long
// (a backup, an update, a restart) is followed here until it ended, with progress, so the tool can
// run it as an MCP task.
import type { Principal } from '../auth/tokens.js';
import { AppError, invalidParameters, notFound } from '../errors.js';
import type { ApplyOptions, ChangePlan, HaConfigService, Outcome } from '../ha-config/service.js';
import type { HubReader } from '../hub/reader.js';
import { type AppInfo, type BackupRequest, SupervisorError, type SupervisorApi } from '../hub/supervisor.js';
import type { HubState } from '../hub/types.js';
import type { Policy } from '../policy/policy.js';
// An update as plugins see it is what this service shows: the SDK's shape is the one definition.
import type { UpdateInfo } from '../plugin-sdk/index.js';
import type { HubAdmin, Json } from './hub-admin.js';
import type { RestartClock } from './restart-clock.js';

/** UpdateEntityFeature (homeassistant/components/update/const.py). */
export const UPDATE_FEATURE = { INSTALL: 1, SPECIFIC_VERSION: 2, PROGRESS: 4, BACKUP: 8, RELEASE_NOTES: 16 } as const;

export type SystemOp = 'backup' | 'install' | 'restart_core' | 'reload_core' | 'start_app' | 'stop_app' | 'restart_app';

export interface SystemRequest {
  op: SystemOp;
  /** install: the update entity. */
  entity_id?: string;
  /** install: a version other than the latest, where the entity allows it. */
  version?: string;
  /** start_app, stop_app, restart_app: the app's slug. */
  app?: string;
  /** backup: its name, and what it holds (default: everything). */
  name?: string;
  homeassistant?: boolean;
  apps?: string[];
  folders?: string[];
}

/** How a long change is followed: the tool's client channel (background: answer with a task). */
export interface Follow {
  background(): boolean;
  signal: AbortSignal;
  progress(done: number, total: number | undefined, message: string): void;
}

export interface AppView {
  slug: string;
  name: string;
  state: string;
  version: string;
  version_latest: string | null;
  update_available: boolean;
}

/** What a change ended with, after its long part (a backup's contents, an update's new version, the time away). */
export type SystemOutcome = Outcome & { result?: Json };

/** The folders a Supervisor backup can hold (supervisor/backups/const.py, v1 names). */
const FOLDERS = ['homeassistant', 'ssl', 'share', 'addons/local', 'media'];
/** How long a restart asked for may take to begin (Home Assistant first checks its config). */
const RESTART_BEGINS_WITHIN_MS = 60_000;
/** How long an update or a backup is followed before the bridge says it is still running. */
const FOLLOW_LONGEST_MS = 60 * 60_000;
const POLL_MS = 1_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'backup';

function supervisorRefused(err: unknown, what: string): unknown {
  if (!(err instanceof SupervisorError)) {
    if (err instanceof Error && /fetch failed|aborted|timeout/i.test(err.message))
      return new AppError('CONNECTION_ERROR', 503, `The Supervisor did not answer ${what}: ${err.message}`);
    return err;
  }
  if (err.status === 401 || err.status === 403)
    return new AppError(
      'HUB_ERROR',
      403,
      `The Supervisor refused ${what}: the add-on's role does not allow it (config.yaml asks for hassio_api and hassio_role manager)`,
      { status: err.status },
    );
  if (err.status === 404) return notFound(`The Supervisor has no such item (${what})${err.reason ? `: ${err.reason}` : ''}`, { status: err.status });
  return new AppError('HUB_ERROR', 502, `The Supervisor refused ${what}: ${err.reason ?? err.message}`, { status: err.status });
}

export interface SystemOptions {
  hub: HubAdmin;
  reader: Pick<HubReader, 'cache'>;
  policy: Policy;
  config: HaConfigService;
  clock: RestartClock;
  /** Inside the add-on: the Supervisor's API (apps, backups). */
  supervisor?: SupervisorApi;
}

export class SystemService {
  /** Each change's long part, set by its plan's apply and followed once the flow returns. */
  private readonly running = new WeakMap<ChangePlan, (follow: Follow) => Promise<Json>>();
  /** The last reload of the core's YAML, as measured. */
  private lastReloadMs: number | undefined;
  private ownSlug: Promise<string> | undefined;

  constructor(private readonly o: SystemOptions) {}

  private use(principal: Principal | undefined, what: string): void {
    this.o.policy.authorizeAdminUse({ principal }, what);
  }

  private sup(what: string): SupervisorApi {
    if (!this.o.supervisor)
      throw new AppError('FORBIDDEN', 403, `${what} goes through the Supervisor: only the bridge running as a Home Assistant add-on can do it`, {
        supervisor: false,
      });
    return this.o.supervisor;
  }

  // --- reading -------------------------------------------------------------------------------

  updates(principal: Principal | undefined): UpdateInfo[] {
    this.use(principal, 'listing updates');
    return [...this.o.reader.cache.all()]
      .filter((s) => s.entity_id.startsWith('update.') && this.o.policy.maySee(s.entity_id))
      .map(updateView)
      .sort((a, b) => Number(b.available) - Number(a.available) || (a.entity_id < b.entity_id ? -1 : 1));
  }

  async releaseNotes(entityId: string, principal: Principal | undefined): Promise<{ update: UpdateInfo; notes: string | null }> {
    this.use(principal, 'reading release notes');
    const update = this.update(entityId);
    const notes = update.has_release_notes ? await this.o.hub.releaseNotes(entityId) : null;
    return { update, notes };
  }

  async apps(principal: Principal | undefined): Promise<AppView[]> {
    this.use(principal, 'listing apps');
    return this.listApps();
  }

  private async listApps(): Promise<AppView[]> {
    const sup = this.sup('Listing apps');
    let apps: AppInfo[];
    try {
      apps = await sup.apps();
    } catch (err) {
      throw supervisorRefused(err, 'listing apps');
    }
    return apps
      .filter((a) => this.o.policy.maySeeSubject(`app.${a.slug}`))
      .map((a) => ({
        slug: a.slug,
        name: a.name,
        state: a.state,
        version: a.version,
        version_latest: a.version_latest ?? null,
        update_available: a.update_available === true,
      }));
  }

  /** What a restart and a reload cost, as the bridge measured them. */
  downtime(): { restart: { ms: number; at: string } | null; reload_ms: number | null; away_now: boolean } {
    return { restart: this.o.clock.lastMeasured ?? null, reload_ms: this.lastReloadMs ?? null, away_now: this.o.clock.away };
  }

  private update(entityId: string): UpdateInfo {
    const s = this.o.reader.cache.get(entityId);
    if (!entityId.startsWith('update.') || !s || !this.o.policy.maySee(entityId))
      throw notFound(`Home Assistant has no update ${entityId}; operation updates lists them`, { entity_id: entityId });
    return updateView(s);
  }

  // --- changing ----------------------------------------------------------------------------

  /**
   * Plans, judges and (once confirmed) begins the change through the config service's one flow;
   * a long one is then followed with `follow` until it ended.
   */
  async change(req: SystemRequest, principal: Principal | undefined, opts: ApplyOptions, follow: Follow): Promise<SystemOutcome> {
    this.use(principal, `${req.op.replace('_', ' ')}`);
    // Planned inside the flow's turn for this item, so what the preview saw is what is changed.
    let plan: ChangePlan | undefined;
    const key = `system:${req.op}:${req.entity_id ?? req.app ?? req.name ?? ''}`;
    const outcome = await this.o.config.applyPlan(key, async () => (plan = await this.plan(req)), principal, opts);
    const long = plan && this.running.get(plan);
    if (!outcome.applied || !long) return outcome;
    const result = await long(follow);
    return { ...outcome, result, summary: String(result.said ?? outcome.summary) };
  }

  private async plan(req: SystemRequest): Promise<ChangePlan> {
    const misplaced = (Object.keys(req) as (keyof SystemRequest)[]).filter(
      (k) =>
        k !== 'op' &&
        req[k] !== undefined &&
        !(
          {
            backup: ['name', 'homeassistant', 'apps', 'folders'],
            install: ['entity_id', 'version'],
            restart_core: [],
            reload_core: [],
            start_app: ['app'],
            stop_app: ['app'],
            restart_app: ['app'],
          } as Record<SystemOp, string[]>
        )[req.op].includes(k),
    );
    if (misplaced.length) throw invalidParameters(`${misplaced.join(', ')}: not taken by operation ${req.op}`, { field: misplaced[0] });
    switch (req.op) {
      case 'backup':
        return this.planBackup(req);
      case 'install':
        return this.planInstall(req);
      case 'restart_core':
        return this.planRestart();
      case 'reload_core':
        return this.planReload();
      default:
        return this.planApp(req.op, req.app);
    }
  }

  private basePlan(kind: 'backup' | 'update' | 'core' | 'app', id: string, subject: string, what: string, before: Json | null, after: Json): ChangePlan {
    return {
      kind,
      id,
      subject,
      entityId: kind === 'update' ? id : null,
      before,
      after,
      written: null,
      change: before === null ? 'created' : 'updated',
      what,
      admin: { what, subjects: [subject] },
      versioned: false,
      apply: async () => ({ id, after }),
      undo: async () => undefined,
    };
  }

  // Backups: the Supervisor's inside the add-on (a job followed to its end); outside it, Home
  // Assistant's backup integration (backup/generate, followed with backup/info).
  private async planBackup(req: SystemRequest): Promise<ChangePlan> {
    const name = req.name?.trim() || `Home MCP Bridge ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const id = slugOf(name);
    const sup = this.o.supervisor;
    if (!sup) {
      if (req.apps !== undefined || req.folders !== undefined || req.homeassistant === false)
        throw invalidParameters(
          'apps, folders, homeassistant: without the Supervisor (the bridge is not the add-on) a backup is Home Assistant’s own, which always holds Home Assistant and no apps or folders',
          { field: req.apps !== undefined ? 'apps' : req.folders !== undefined ? 'folders' : 'homeassistant' },
        );
      const agent = await this.localAgent();
      const plan = this.basePlan('backup', id, `backup.${id}`, `making a backup "${name}"`, null, {
        name,
        holds: { homeassistant: true, database: true, apps: 'none (no Supervisor)', folders: 'none (no Supervisor)' },
        stored_by: agent,
      });
      plan.apply = async () => {
        const backupId = await this.o.hub.backupGenerate({ agent_ids: [agent], name, include_database: true });
        this.running.set(plan, (f) => this.followCoreBackup(backupId, f));
        return { id, after: plan.after };
      };
      return plan;
    }
    const unknownFolders = (req.folders ?? []).filter((f) => !FOLDERS.includes(f));
    if (unknownFolders.length)
      throw invalidParameters(`folders: ${unknownFolders.join(', ')} is no folder a backup holds; it takes ${FOLDERS.join(', ')}`, { field: 'folders' });
    const wire: BackupRequest = {
      name,
      homeassistant: req.homeassistant ?? true,
      ...(req.apps !== undefined ? { addons: req.apps } : {}),
      ...(req.folders !== undefined ? { folders: req.folders } : {}),
    };
    if (req.apps !== undefined) {
      const installed = new Set((await this.listApps()).map((a) => a.slug));
      const missing = req.apps.filter((a) => !installed.has(a));
      if (missing.length) throw notFound(`apps: ${missing.join(', ')} is not installed; operation apps lists them`, { field: 'apps' });
    }
    const holds = {
      homeassistant: wire.homeassistant,
      apps: req.apps ?? 'every app',
      folders: req.folders ?? (req.apps === undefined && wire.homeassistant ? 'every folder (a full backup)' : []),
    };
    const plan = this.basePlan('backup', id, `backup.${id}`, `making a backup "${name}"`, null, { name, holds });
    plan.apply = async () => {
      const job = await sup.newBackup(wire).catch((err: unknown) => {
        throw supervisorRefused(err, 'making a backup');
      });
      this.running.set(plan, (f) => this.followBackup(sup, job, f));
      return { id, after: plan.after };
    };
    return plan;
  }

  /** Home Assistant's local backup agent (backup.local; hassio.local under a Supervisor). */
  private async localAgent(): Promise<string> {
    let agents: { agent_id: string }[];
    try {
      agents = await this.o.hub.backupAgents();
    } catch (err) {
      if (err instanceof AppError && err.status === 501)
        throw new AppError(
          'HUB_ERROR',
          501,
          'Home Assistant’s backup integration is not loaded (it comes with default_config), so the bridge cannot make a backup',
          {
            backup: false,
          },
        );
      throw err;
    }
    const local = agents.find((a) => a.agent_id.endsWith('.local'));
    if (!local) throw new AppError('HUB_ERROR', 501, 'Home Assistant has no local backup location', { agents: agents.map((a) => a.agent_id) });
    return local.agent_id;
  }

  private async followCoreBackup(backupId: string, f: Follow): Promise<Json> {
    f.background();
    const end = Date.now() + FOLLOW_LONGEST_MS;
    for (;;) {
      const info = await this.o.hub.backupInfo();
      const last = info.last_action_event ?? {};
      if (info.state !== 'create_backup' && last.manager_state === 'create_backup' && last.state !== 'in_progress') {
        if (last.state !== 'completed')
          throw new AppError('HUB_ERROR', 502, `The backup failed: ${String(last.reason ?? 'Home Assistant gave no reason')}`, { backup_id: backupId });
        const b = await this.o.hub.backupDetails(backupId);
        if (!b) throw new AppError('HUB_ERROR', 502, `Home Assistant finished the backup but does not list ${backupId}`, { backup_id: backupId });
        const agents = (b.agents ?? {}) as Record<string, { size?: number }>;
        const size = Math.max(0, ...Object.values(agents).map((a) => a.size ?? 0));
        const holds = { homeassistant: b.homeassistant_included === true, database: b.database_included === true, apps: [], folders: [] };
        return {
          said: `Backup "${String(b.name)}" made (${backupId}, ${(size / 1_048_576).toFixed(1)} MB in ${Object.keys(agents).join(', ')}): Home Assistant ${String(b.homeassistant_version ?? '')}${holds.database ? ' with its database' : ''}.`,
          backup: { slug: backupId, name: b.name, date: b.date, size_mb: Math.round(size / 10_485.76) / 100, type: 'core', holds },
        };
      }
      f.progress(0, undefined, `backup ${String(last.stage ?? 'running')}`);
      if (f.signal.aborted) return { said: 'Stopped following the backup; Home Assistant goes on making it.', backup_id: backupId };
      if (Date.now() > end) return { said: `The backup is still being made after ${FOLLOW_LONGEST_MS / 60_000} minutes (${backupId}).`, backup_id: backupId };
      await sleep(POLL_MS / 4, f.signal);
    }
  }

  private async followBackup(sup: SupervisorApi, jobId: string, f: Follow): Promise<Json> {
    f.background();
    const end = Date.now() + FOLLOW_LONGEST_MS;
    for (;;) {
      const job = await sup.job(jobId).catch((err: unknown) => {
        throw supervisorRefused(err, 'following the backup');
      });
      if (job.errors.length) throw new AppError('HUB_ERROR', 502, `The backup failed: ${job.errors.map((e) => e.message).join('; ')}`, { job_id: jobId });
      if (job.done && job.reference) {
        const b = await sup.backupInfo(job.reference).catch((err: unknown) => {
          throw supervisorRefused(err, 'reading the new backup');
        });
        const holds = { homeassistant: b.homeassistant !== null, apps: b.addons.map((a) => a.slug), folders: b.folders };
        return {
          said: `Backup "${b.name}" made (${b.slug}, ${b.size.toFixed(1)} MB): ${b.homeassistant ? `Home Assistant ${b.homeassistant}` : 'no Home Assistant'}; apps ${holds.apps.join(', ') || 'none'}; folders ${holds.folders.join(', ') || 'none'}.`,
          backup: { slug: b.slug, name: b.name, date: b.date, size_mb: b.size, type: b.type, holds },
        };
      }
      f.progress(job.progress, 100, `backup ${job.stage ?? 'running'}`);
      if (f.signal.aborted) return { said: 'Stopped following the backup; the Supervisor goes on making it (it cannot be stopped from here).', job_id: jobId };
      if (Date.now() > end) return { said: `The backup is still being made after ${FOLLOW_LONGEST_MS / 60_000} minutes (job ${jobId}).`, job_id: jobId };
      await sleep(POLL_MS, f.signal);
    }
  }

  // Updates: installed by Home Assistant, after a fresh backup (its own where the entity makes one).
  private async planInstall(req: SystemRequest): Promise<ChangePlan> {
    if (!req.entity_id) throw invalidParameters('entity_id: say which update (operation updates lists them)', { field: 'entity_id' });
    const u = this.update(req.entity_id);
    const s = this.o.reader.cache.get(u.entity_id)!;
    const features = Number(s.attributes.supported_features ?? 0);
    if (!u.can_install)
      throw new AppError('FORBIDDEN', 403, `${u.entity_id} (${u.title}) cannot be installed from Home Assistant; install it where it comes from`, {
        can_install: false,
      });
    if (req.version !== undefined && !(features & UPDATE_FEATURE.SPECIFIC_VERSION))
      throw invalidParameters(`version: ${u.entity_id} installs only its latest version (${u.latest_version ?? 'unknown'})`, { field: 'version' });
    const target = req.version ?? u.latest_version;
    if (u.in_progress) throw new AppError('CONFLICT', 409, `${u.entity_id} is being installed already`, { in_progress: true });
    if (req.version === undefined && !u.available)
      throw new AppError('CONFLICT', 409, `${u.entity_id} (${u.title}) is up to date (${u.installed_version ?? 'unknown'}); nothing to install`, {
        available: false,
      });
    const backup = u.backs_up ? 'made first by Home Assistant (the update makes its own)' : 'made first by the bridge (the update cannot make one)';
    // Without the Supervisor the bridge's backup is Home Assistant's own: it must be there before anything is asked.
    if (!u.backs_up && !this.o.supervisor) await this.localAgent();
    const what = `installing ${u.title} ${target ?? ''} (${u.entity_id}, now ${u.installed_version ?? 'unknown'}) after a fresh backup`;
    const plan = this.basePlan('update', u.entity_id, u.entity_id, what, { installed_version: u.installed_version }, { installed_version: target, backup });
    plan.apply = async () => {
      let made: Json | undefined;
      const install = async (f: Follow) => {
        if (!u.backs_up) {
          f.progress(0, 100, 'making a backup first');
          made = await this.backupFirst(u, f);
        }
        return this.followInstall(u, target, features, f, made);
      };
      this.running.set(plan, install);
      return { id: u.entity_id, after: plan.after };
    };
    return plan;
  }

  /** A backup before an update that makes none: inside the add-on a full one, else Home Assistant's own. */
  private async backupFirst(u: UpdateInfo, f: Follow): Promise<Json> {
    const name = `Before ${u.title} ${u.latest_version ?? ''}`.trim();
    const half = { ...f, progress: (d: number, _t: number | undefined, m: string) => f.progress(d / 2, 100, m) };
    const sup = this.o.supervisor;
    let done: Json;
    if (sup) {
      const job = await sup.newBackup({ name, homeassistant: true }).catch((err: unknown) => {
        throw supervisorRefused(err, 'making the backup before the update');
      });
      done = await this.followBackup(sup, job, half);
    } else {
      const backupId = await this.o.hub.backupGenerate({ agent_ids: [await this.localAgent()], name, include_database: true });
      done = await this.followCoreBackup(backupId, half);
    }
    if (!done.backup) throw new AppError('HUB_ERROR', 502, `Not installed: the backup before it did not finish (${String(done.said)})`, {});
    return done.backup as Json;
  }

  private async followInstall(u: UpdateInfo, target: string | null, features: number, f: Follow, made: Json | undefined): Promise<Json> {
    f.background();
    const id = u.entity_id;
    const data: Json = { entity_id: id, ...(target && features & UPDATE_FEATURE.SPECIFIC_VERSION && target !== u.latest_version ? { version: target } : {}) };
    if (u.backs_up) data.backup = true;
    let failure: unknown;
    let answered = false;
    // Home Assistant answers the call once the install ended; a long one outlasts the call's time,
    // so the entity's state is what is followed.
    this.o.hub.callService('update', 'install', data).then(
      () => (answered = true),
      (err: unknown) => {
        if (!(err instanceof AppError && err.code === 'CONNECTION_ERROR')) failure = err;
        answered = true;
      },
    );
    const end = Date.now() + FOLLOW_LONGEST_MS;
    for (;;) {
      await sleep(POLL_MS / 4, f.signal);
      if (failure) throw failure;
      const s = this.o.reader.cache.get(id);
      const now = s ? updateView(s) : undefined;
      const pct = s?.attributes.update_percentage ?? s?.attributes.in_progress;
      if (typeof pct === 'number') f.progress(made ? 50 + pct / 2 : pct, 100, `installing ${u.title}`);
      if (now && !now.in_progress && answered && (now.installed_version === target || !now.available))
        return {
          said: `Installed ${u.title} ${now.installed_version ?? ''} (${id})${made ? `, after the backup "${String(made.name)}"` : ', after the backup Home Assistant made'}.`,
          installed_version: now.installed_version,
          ...(made ? { backup: made } : { backup: 'made by Home Assistant' }),
        };
      if (now && !now.in_progress && answered)
        throw new AppError('HUB_ERROR', 502, `Home Assistant ended the install of ${id} but it still has ${now.installed_version ?? 'unknown'} installed`, {
          entity_id: id,
        });
      if (f.signal.aborted) return { said: `Stopped following the install of ${id}; Home Assistant goes on with it (it cannot be stopped from here).` };
      if (Date.now() > end) return { said: `${id} is still being installed after ${FOLLOW_LONGEST_MS / 60_000} minutes.` };
    }
  }

  // The core: restart (everything stops, then starts) and reload (YAML again, nothing stops).
  private planRestart(): ChangePlan {
    const unavailable = `Home Assistant (its pages, automations, scripts, voice and every integration) and the bridge's view and control of the home will be unavailable ${this.o.clock.describe()}; the bridge reconnects by itself${this.o.supervisor ? '; apps keep running' : ''}`;
    const what = `restarting Home Assistant. ${unavailable}`;
    const plan = this.basePlan('core', 'restart', 'core.restart', what, { core: 'running' }, { core: 'restarted', unavailable });
    plan.apply = async () => {
      const since = Date.now();
      try {
        await this.o.hub.callService('homeassistant', 'restart', {});
      } catch (err) {
        // Home Assistant may go before it answers: the call reached it.
        if (!(err instanceof AppError && err.code === 'CONNECTION_ERROR')) throw err;
      }
      this.running.set(plan, (f) => this.followRestart(since, f));
      return { id: 'restart', after: plan.after };
    };
    return plan;
  }

  private async followRestart(since: number, f: Follow): Promise<Json> {
    f.background();
    f.progress(0, 2, 'Home Assistant is stopping');
    const away = await this.o.clock.awaitRestart(since, {
      goneWithinMs: RESTART_BEGINS_WITHIN_MS,
      signal: f.signal,
      changed: () => f.progress(1, 2, 'Home Assistant is away; waiting for it to run again'),
    });
    if (f.signal.aborted) return { said: 'Stopped following the restart; Home Assistant restarts all the same (a restart cannot be taken back).' };
    if (!away)
      throw new AppError('HUB_ERROR', 502, `Home Assistant was asked to restart but did not go away within ${RESTART_BEGINS_WITHIN_MS / 1000} s; see its log`, {
        restarted: false,
      });
    return { said: `Home Assistant restarted: it was away ${(away.ms / 1000).toFixed(1)} s.`, downtime_ms: away.ms, running_again_at: away.at };
  }

  private planReload(): ChangePlan {
    const took = this.lastReloadMs !== undefined ? `about ${(this.lastReloadMs / 1000).toFixed(1)} s, as the last reload took` : 'a time not yet measured';
    const unavailable = `automations, scripts, scenes, groups, templates and other integrations set in YAML are set up again from their files (each is briefly unavailable; the whole takes ${took}); nothing restarts`;
    const what = `reloading Home Assistant's YAML configuration: ${unavailable}`;
    const plan = this.basePlan('core', 'reload', 'core.reload', what, { yaml: 'as loaded' }, { yaml: 'loaded again', unavailable });
    plan.apply = async () => {
      const t0 = Date.now();
      await this.o.hub.callService('homeassistant', 'reload_all', {});
      this.lastReloadMs = Date.now() - t0;
      return { id: 'reload', after: { yaml: 'loaded again', took_ms: this.lastReloadMs } };
    };
    return plan;
  }

  /**
   * This bridge's own app. Not knowing it refuses the stop or restart (it could be this bridge), and
   * a failed asking is not kept, so the next call asks again.
   */
  private async ownApp(sup: SupervisorApi): Promise<string> {
    this.ownSlug ??= sup.addonInfo().then((i) => {
      if (!i.slug) throw new Error('its answer has no slug');
      return i.slug;
    });
    try {
      return await this.ownSlug;
    } catch (err) {
      this.ownSlug = undefined;
      throw new AppError(
        'CONNECTION_ERROR',
        503,
        `The Supervisor did not say which app this bridge is (${(err as Error).message}), so no app is stopped or restarted now: it could be this bridge; try again`,
        { own_app: null },
      );
    }
  }

  // Apps: started, stopped, restarted through the Supervisor; never uninstalled.
  private async planApp(op: 'start_app' | 'stop_app' | 'restart_app', slug: string | undefined): Promise<ChangePlan> {
    if (!slug) throw invalidParameters('app: say which app (operation apps lists them)', { field: 'app' });
    const sup = this.sup('Starting or stopping an app');
    const app = (await this.listApps()).find((a) => a.slug === slug);
    if (!app) throw notFound(`No app ${slug} is installed; operation apps lists them`, { app: slug });
    const action = op.slice(0, op.indexOf('_')) as 'start' | 'stop' | 'restart';
    if (action !== 'start') {
      if ((await this.ownApp(sup)).toLowerCase() === slug.toLowerCase())
        throw new AppError(
          'FORBIDDEN',
          403,
          `${app.name} is this bridge: ${action === 'stop' ? 'stopping' : 'restarting'} it would end this call; do it on its page in Home Assistant`,
          {
            app: slug,
          },
        );
    }
    const to = action === 'stop' ? 'stopped' : 'started';
    const what = `${action === 'stop' ? 'stopping' : action === 'start' ? 'starting' : 'restarting'} the app ${app.name} (${slug})${action === 'start' ? '' : `: what it serves is unavailable ${action === 'stop' ? 'until it is started again' : 'while it restarts'}`}`;
    const plan = this.basePlan('app', slug, `app.${slug}`, what, { state: app.state }, { state: action === 'restart' ? 'restarted' : to });
    plan.apply = async () => {
      await sup.appAction(slug, action).catch((err: unknown) => {
        throw supervisorRefused(err, `${action === 'stop' ? 'stopping' : action === 'start' ? 'starting' : 'restarting'} ${slug}`);
      });
      const now = (await this.listApps()).find((a) => a.slug === slug);
      this.running.set(plan, async () => ({ said: `The app ${app.name} is ${now?.state ?? 'in an unknown state'}.`, state: now?.state ?? null }));
      return { id: slug, after: { state: now?.state ?? 'unknown' } };
    };
    return plan;
  }
}

function updateView(s: HubState): UpdateInfo {
  const a = s.attributes;
  const features = Number(a.supported_features ?? 0);
  return {
    entity_id: s.entity_id,
    title: String(a.title ?? a.friendly_name ?? s.entity_id),
    installed_version: str(a.installed_version),
    latest_version: str(a.latest_version),
    available: s.state === 'on',
    in_progress: a.in_progress === true || typeof a.in_progress === 'number',
    skipped_version: str(a.skipped_version),
    release_summary: str(a.release_summary),
    release_url: str(a.release_url),
    can_install: (features & UPDATE_FEATURE.INSTALL) !== 0,
    backs_up: (features & UPDATE_FEATURE.BACKUP) !== 0,
    has_release_notes: (features & UPDATE_FEATURE.RELEASE_NOTES) !== 0,
  };
}
