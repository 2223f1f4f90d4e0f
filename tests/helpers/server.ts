// Starts the real service on a free port with its own data folder, for tests over real HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/load.js';
import { startApp, type RunningApp, type StartOptions } from '../../src/app.js';
import { createLogger } from '../../src/log.js';

export const TEST_USER = { username: 'tester', password: 'correct horse battery' };

export interface TestServer {
  app: RunningApp;
  url: string;
  config: Config;
  dataDir: string;
  /** A valid bearer token for TEST_USER. */
  token: string;
  /** fetch against the server with the token unless headers say otherwise. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** api() with the JSON body read: {status, body, headers}. */
  call(path: string, method?: string, json?: unknown): Promise<{ status: number; body: Record<string, any>; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<TestServer> {
  // A DATA_DIR given by the test outlives the server (a restart on the same data); one made here does not.
  const ownDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'hmb-test-'));
  const config = loadConfig({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH_USERNAME: TEST_USER.username,
      AUTH_PASSWORD: TEST_USER.password,
      RATE_LIMIT_MAX: '100000',
      LOG_LEVEL: 'silent',
      ...env,
      DATA_DIR: dataDir,
    },
    addonOptionsFile: join(dataDir, 'no-options.json'),
  });
  const app = await startApp(config, { log: createLogger(config.logLevel, 'stderr'), ...opts });
  const url = app.url;
  const res = await fetch(`${url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(TEST_USER),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return fetch(`${url}${path}`, { ...init, headers, body });
  };
  const call = async (path: string, method = 'GET', json?: unknown) => {
    const res = await api(path, { method, json });
    return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
  };
  return {
    app,
    url,
    config,
    dataDir,
    token,
    api,
    call,
    close: async () => {
      await app.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
