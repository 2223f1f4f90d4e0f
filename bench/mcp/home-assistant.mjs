// bench/mcp's Home Assistant rows: a verified tools/call through Home Assistant's own
// /api/mcp/{api_id} (its mcp_server, then its mcp integration, which opens a session to the bridge
// for every call), beside the same call straight to the bridge's /mcp, in one run, rounds
// alternating. The bridge's hub is that Home Assistant in both; it is added the way a real install
// adds it: the add-on's discovery message (the simulator plays the Supervisor) handed to Home
// Assistant's hassio step and confirmed. Needs a Home Assistant 2026.10 or later started from
// tests/e2e/ha-config (it carries the discovery feed) in HASS_URL and HASS_TOKEN.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort, waitHealthy } from '../../tests/lib/bridge-process.mjs';
import { addDiscovered, bridgeResultOf, ensureMcpServer, haMcp, removeEntry } from '../../tests/lib/home-assistant-mcp.mjs';

const SLUG = 'home_mcp_bridge';
const LIGHT = 'light.bed_light';

/** Why the rows cannot be measured here, or undefined. */
export async function homeAssistantUnavailable(haUrl, haToken) {
  if (!haUrl || !haToken)
    return 'HASS_URL and HASS_TOKEN are not set (start Home Assistant 2026.11.0 with tests/e2e/ha.mjs, then eval "$(node tests/e2e/ha.mjs env)")';
  const res = await fetch(`${haUrl}/api/config`, { headers: { authorization: `Bearer ${haToken}` } }).catch((err) => err);
  if (!(res instanceof Response) || !res.ok) return `Home Assistant at ${haUrl} does not answer /api/config with that token`;
  const { version } = await res.json();
  const [major, minor] = String(version).split('.').map(Number);
  if (major < 2026 || (major === 2026 && minor < 10)) return `Home Assistant ${version} has no mcp integration (2026.10 and later)`;
  return undefined;
}

export async function measureThroughHomeAssistant({ root, work, children, user, calls, rounds, haUrl, haToken, log }) {
  const { version } = await (await fetch(`${haUrl}/api/config`, { headers: { authorization: `Bearer ${haToken}` } })).json();
  const { startSimulator } = await import(join(root, 'dist', 'src', 'sim', 'index.js'));
  const sim = await startSimulator({ supervisor: {}, logger: (await import('pino')).default({ level: 'silent' }) });
  sim.supervisor.installAddon({ slug: SLUG, name: 'Home MCP Bridge', url: 'http://127.0.0.1:9', discovery: ['mcp'], hostname: '127.0.0.1' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(work, 'home-assistant'),
    HASS_URL: haUrl,
    HASS_TOKEN: haToken,
    SUPERVISOR_TOKEN: 'supervisor-token',
    SUPERVISOR_URL: sim.url,
    // Home Assistant reaches the bridge from this machine's loopback.
    DISCOVERY_PEERS: '127.0.0.1',
    AUTH_USERNAME: user.username,
    AUTH_PASSWORD: user.password,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
  };
  const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(bridge);
  let entryId;
  try {
    await waitHealthy(url, bridge);
    let message;
    for (let i = 0; i < 100 && !(message = sim.supervisor.discoveries().find((d) => d.service === 'mcp')); i++) await new Promise((r) => setTimeout(r, 100));
    if (!message) throw new Error('the bridge did not announce its link to the Supervisor');
    await ensureMcpServer(haUrl, haToken);
    const { result } = await addDiscovered(haUrl, haToken, message);
    if (result?.type !== 'create_entry') throw new Error(`Home Assistant did not add the bridge: ${JSON.stringify(result)}`);
    entryId = result.result.entry_id;
    const listed = await haMcp(haUrl, haToken, `mcp-${SLUG}`, 'tools/list');
    log(`Home Assistant ${version}: entry ${entryId}, ${listed.body?.result?.tools?.length} tools at /api/mcp/mcp-${SLUG}`);

    const token = (
      await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()
    ).access_token;
    const viaHa = new Client({ name: 'bench', version: '1' });
    await viaHa.connect(
      new StreamableHTTPClientTransport(new URL(`${haUrl}/api/mcp/mcp-${SLUG}`), { requestInit: { headers: { authorization: `Bearer ${haToken}` } } }),
    );
    const direct = new Client({ name: 'bench', version: '1' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

    // Every call flips the light (one counter for both ways): a call asking for the state the light
    // already has sees no state change and waits out the bridge's settle time (500 ms) instead.
    // Home Assistant answers with one text block, the JSON of the bridge's own result.
    let flip = 0;
    const args = () => ({ entity_id: LIGHT, command: flip++ % 2 ? 'off' : 'on' });
    const ways = {
      through: async () => verified(bridgeResultOf(await viaHa.callTool({ name: 'control_lights', arguments: args() }))),
      straight: async () => verified(await direct.callTool({ name: 'control_lights', arguments: args() })),
    };
    const times = { through: [], straight: [] };
    await fetch(`${haUrl}/api/services/light/turn_off`, {
      method: 'POST',
      headers: { authorization: `Bearer ${haToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity_id: LIGHT }),
    });
    for (const name of Object.keys(ways)) for (let i = 0; i < 10; i++) await ways[name]();
    const per = Math.ceil(calls / rounds);
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? ['straight', 'through'] : ['through', 'straight']) {
        for (let i = 0; i < per; i++) {
          const t = performance.now();
          await ways[name]();
          times[name].push(performance.now() - t);
        }
      }
    }
    await viaHa.close();
    await direct.close();
    return { version, ...times };
  } finally {
    if (entryId) await removeEntry(haUrl, haToken, entryId).catch(() => undefined);
    bridge.kill('SIGTERM');
    await sim.stop();
  }
}

function verified(result) {
  if (result.isError || result.structuredContent?.entities?.[0]?.verified !== true)
    throw new Error(`the call was not verified: ${JSON.stringify(result).slice(0, 300)}`);
}
