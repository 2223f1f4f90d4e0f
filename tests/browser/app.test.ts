// The home app (MCP Apps, ui://home/app) in a real browser: Debian's chromium through
// playwright-core, in a host page built on the official @modelcontextprotocol/ext-apps host side
// (AppBridge and PostMessageTransport, bundled for the page here). The host frames the app as the
// extension says (a sandboxed frame with scripts only, the app's declared CSP), hands it a control
// tool's input and result, and passes the app's tool calls to the bridge through the official MCP
// client. Pressing a light's switch in the app is a tools/call the test sees, the light changes in
// the hub, and the app shows the new state; the app reaches nothing over the network.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium, type Browser, type Frame } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir } from '../helpers/screenshots.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const shots = screenshotDir();
const SHOTS = shots.dir;
const available = existsSync(CHROMIUM) || Boolean(process.env.CI);
const HOST = 'http://assistant.test';

let server: TestServer;
let browser: Browser;
let client: Client;
let hostBundle: string;

/** The official host side, as one module a page can load. */
async function bundleHost(): Promise<string> {
  const entry = join(import.meta.dirname, 'app-host-entry.mjs');
  const bundle = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'esm', codeSplitting: false } as never);
  await bundle.close();
  return output[0].code;
}

beforeAll(async () => {
  if (!available) return;
  server = await startTestServer();
  client = new Client({ name: 'app-host-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }),
  );
  hostBundle = await bundleHost();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await server?.close();
  shots.done();
});

const sim = () => server.app.simulator!;
const hubState = async (id: string) =>
  ((await (await fetch(`${sim().url}/api/states/${id}`, { headers: { authorization: `Bearer ${sim().token}` } })).json()) as { state: string }).state;

/** The CSP a host sets for an app from what its resource declares (no domains: nothing at all). */
function cspOf(csp: { connectDomains?: string[]; resourceDomains?: string[] } = {}): string {
  const connect = csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'";
  const resources = csp.resourceDomains?.length ? csp.resourceDomains.join(' ') : '';
  return `default-src 'none'; script-src 'unsafe-inline' ${resources}; style-src 'unsafe-inline' ${resources}; img-src data: ${resources}; connect-src ${connect}; frame-src 'none'`;
}

describe.skipIf(!available)('the home app in a browser, hosted by the official ext-apps host side', () => {
  it('links the tools, renders, and a press on a switch is a tool call that changes the light and the view', async () => {
    const { tools } = await client.listTools();
    const control = tools.find((t) => t.name === 'control_lights')!;
    const uri = (control._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uri).toBe('ui://home/app');
    for (const name of ['search_entities', 'list_areas', 'describe_entity', 'control_covers', 'control_climate']) {
      expect((tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } })?.ui?.resourceUri).toBe('ui://home/app');
    }
    expect((tools.find((t) => t.name === 'app_home_state')?._meta as { ui?: { visibility?: string[] } })?.ui?.visibility).toEqual(['app']);
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/ui']);

    const read = await client.readResource({ uri: uri! });
    const page = read.contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: Record<string, string[]> } } };
    expect(page.mimeType).toBe('text/html;profile=mcp-app');
    expect(page._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });

    // The model's call whose result the app shows.
    await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: 'off' } });
    const args = { entity_id: ['light.office_desk', 'light.bedroom_lamp'], command: 'off' };
    const result = await client.callTool({ name: 'control_lights', arguments: args });
    expect(await hubState('light.office_desk')).toBe('off');

    const context = await browser.newContext({ viewport: { width: 520, height: 420 } });
    const host = await context.newPage();
    const calls: { name: string; arguments: Record<string, unknown> }[] = [];
    const requests: string[] = [];
    const errors: string[] = [];
    host.on('request', (r) => requests.push(r.url()));
    host.on('pageerror', (e) => errors.push(e.message));
    await host.exposeFunction('hostCallTool', async (params: { name: string; arguments: Record<string, unknown> }) => {
      calls.push(params);
      return client.callTool(params);
    });
    await context.route(`${HOST}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/host.js') return route.fulfill({ contentType: 'text/javascript', body: hostBundle });
      if (path === '/') return route.fulfill({ contentType: 'text/html', body: HOST_PAGE });
      return route.fulfill({ status: 404, body: '' });
    });
    await host.goto(`${HOST}/`);
    await host.evaluate(
      ({ html, csp, input, output }) =>
        (globalThis as unknown as { showApp: (h: string, c: string, i: unknown, o: unknown) => Promise<void> }).showApp(html, csp, input, output),
      { html: page.text, csp: cspOf(page._meta?.ui?.csp), input: args, output: result },
    );

    const frame = host.frameLocator('#app');
    const row = frame.locator('li[data-entity="light.office_desk"]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row.locator('.state').getAttribute('data-state')).toBe('off');
    await expect.poll(() => frame.locator('li[data-entity="light.bedroom_lamp"]').count()).toBe(1);
    const sandbox = await host.locator('#app').getAttribute('sandbox');
    expect(sandbox).toBe('allow-scripts');

    const before = calls.length;
    await row.getByRole('switch').click();
    await expect
      .poll(() => calls.slice(before).find((c) => c.name === 'control_lights'))
      .toEqual({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: 'on' } });
    await expect.poll(() => hubState('light.office_desk')).toBe('on');
    await expect.poll(() => row.locator('.state').getAttribute('data-state'), { timeout: 10_000 }).toBe('on');
    await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('true');

    // A change made in the hub reaches the view too (it reads the live state again).
    await fetch(`${sim().url}/api/states/light.bedroom_lamp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim().token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'on', attributes: { friendly_name: 'Bedroom Lamp', supported_color_modes: ['color_temp', 'xy'] } }),
    });
    await expect.poll(() => frame.locator('li[data-entity="light.bedroom_lamp"] .state').getAttribute('data-state'), { timeout: 10_000 }).toBe('on');
    await host.screenshot({ path: join(SHOTS, 'app-in-host.png') });

    // The app reaches nothing over the network: its CSP refuses a fetch, and it made no request.
    const app = host.frames().find((f: Frame) => f !== host.mainFrame())!;
    const fetched = await app.evaluate(() =>
      fetch('http://127.0.0.1:9/').then(
        () => 'reached',
        (e: Error) => `refused: ${e.message}`,
      ),
    );
    expect(fetched).toMatch(/^refused/);
    expect(requests.every((u) => u.startsWith(HOST))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

/** The host page: the official AppBridge and PostMessageTransport around a sandboxed frame. */
const HOST_PAGE = `<!doctype html>
<title>An assistant</title>
<style>body{margin:0;font:14px system-ui}iframe{border:1px solid #ccc;width:500px;height:400px}</style>
<iframe id="app" sandbox="allow-scripts" title="Home app"></iframe>
<script type="module">
import { AppBridge, PostMessageTransport } from '/host.js';
window.showApp = async (html, csp, input, output) => {
  const frame = document.getElementById('app');
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {}, logging: {} });
  bridge.oncalltool = (params) => window.hostCallTool({ name: params.name, arguments: params.arguments ?? {} });
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: input });
    await bridge.sendToolResult(output);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  // The host's own CSP for the app, from what the app's resource declares.
  frame.srcdoc = html.replace('<head>', '<head><meta http-equiv="Content-Security-Policy" content="' + csp + '">');
};
</script>`;
