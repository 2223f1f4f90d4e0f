// What the image tests share: the rehearsed root (npm run test:image made it), the simulator
// playing Home Assistant with its Supervisor on the hassio network's addresses, and the app
// installed there as config.yaml describes it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startContainer, type Container } from '../../scripts/image/container.mjs';
import type { Rehearsal } from '../../scripts/image/rehearse.mjs';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim/testing';

const file = process.env.IMAGE_REHEARSAL;
if (!file) throw new Error('run the image tests with `npm run test:image`: it rehearses the image first');
export const rehearsal = JSON.parse(readFileSync(file, 'utf8')) as Rehearsal;
/** The Supervisor's address on Home Assistant's hassio network: its API, and where ingress comes from. */
export const SUPERVISOR = process.env.IMAGE_SUPERVISOR_ADDRESS!;
/** The app's own address on that network. */
export const APP = process.env.IMAGE_APP_ADDRESS!;
export const config = parse(readFileSync(new URL('../../config.yaml', import.meta.url), 'utf8')) as Record<string, any>;
export const PORT = Number(config.ingress_port);
export const appUrl = `http://${APP}:${PORT}`;
export const SUPERVISOR_TOKEN = 'image-test-supervisor-token';

/** The simulator as Home Assistant and its Supervisor, at http://supervisor (port 80), with the app installed. */
export async function startHomeAssistant(): Promise<{ sim: Simulator; ingressToken: string }> {
  const sim = await startSimulator({ host: SUPERVISOR, port: 80, supervisor: { token: SUPERVISOR_TOKEN, ingressSourceAddress: SUPERVISOR } });
  const addon = sim.supervisor!.installAddon({
    slug: config.slug,
    name: config.name,
    version: config.version,
    url: appUrl,
    discovery: config.discovery,
    ingressStream: config.ingress_stream === true,
    homeassistantApi: config.homeassistant_api === true,
    panelTitle: config.panel_title,
    panelIcon: config.panel_icon,
  });
  return { sim, ingressToken: addon.ingressToken };
}

/** A /data folder with the options the user set in the app's Configuration tab. */
export function dataFolder(options: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hmb-image-data-'));
  writeFileSync(join(dir, 'options.json'), JSON.stringify({ ...config.options, ...options }));
  return dir;
}

export function removeData(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Starts the app in the root, as the Supervisor and the s6 run script would, and waits for /health. */
export async function startApp(dataDir: string): Promise<Container> {
  const app = startContainer({ rehearsal, dataDir, supervisor: { token: SUPERVISOR_TOKEN, hosts: { supervisor: SUPERVISOR, homeassistant: '172.30.32.1' } } });
  for (;;) {
    if (app.child.exitCode !== null) throw new Error(`the app exited (${app.child.exitCode}):\n${app.output()}`);
    try {
      const res = await fetch(`${appUrl}/health`);
      if (res.ok && ((await res.json()) as { hub: { connected: boolean } }).hub.connected) return app;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
