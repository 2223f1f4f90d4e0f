// Home Assistant's own MCP path, driven the way Home Assistant's frontend and Supervisor drive it:
// a Supervisor discovery message handed to its `hassio` flow (through the test-only custom
// component `supervisor_discovery_feed` in tests/e2e/ha-config), config flows over its REST API,
// application credentials and entries over its WebSocket API, and its /api/mcp/{api_id}. Shared by
// the end-to-end suite (tests/e2e/ha-mcp.test.ts) and bench/mcp.
import WebSocket from 'ws';

/** One REST call on Home Assistant: {status, body} (the body parsed when it is JSON). */
export async function haRequest(haUrl, token, path, { method = 'GET', json, headers = {} } = {}) {
  const res = await fetch(`${haUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  return { status: res.status, body };
}

/** One WebSocket command on Home Assistant; its result, or a thrown error naming the command. */
export function haCommand(haUrl, token, command, timeoutMs = 15_000) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${haUrl.replace(/^http/, 'ws')}/api/websocket`);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${command.type}: no answer from Home Assistant in ${timeoutMs} ms`));
    }, timeoutMs);
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: token }));
      else if (msg.type === 'auth_invalid') reject(new Error(`Home Assistant refused the token: ${msg.message}`));
      else if (msg.type === 'auth_ok') ws.send(JSON.stringify({ id: 1, ...command }));
      else if (msg.id === 1) {
        clearTimeout(timer);
        ws.close();
        if (msg.success) resolve(msg.result);
        else reject(new Error(`${command.type}: ${msg.error?.code} ${msg.error?.message}`));
      }
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * What the Supervisor does with an add-on's discovery message: Home Assistant's hassio integration
 * starts the service's config flow with a HassioServiceInfo (config, the add-on's name, slug, uuid).
 * No Supervisor runs here, so the custom component makes that same call.
 */
export async function handToHomeAssistant(haUrl, token, message, addonName) {
  const res = await haRequest(haUrl, token, '/api/supervisor_discovery_feed', {
    method: 'POST',
    json: { service: message.service, config: message.config, name: addonName, addon: message.addon, uuid: message.uuid },
  });
  if (res.status !== 200)
    throw new Error(`the discovery feed answered ${res.status}: ${JSON.stringify(res.body)} (is supervisor_discovery_feed in the configuration?)`);
}

/** The flow in progress for a handler (and discovery uuid), waiting for it to appear. */
export async function flowInProgress(haUrl, token, handler, uniqueId, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const flows = await haCommand(haUrl, token, { type: 'config_entries/flow/progress' });
    const flow = flows.find((f) => f.handler === handler && (uniqueId === undefined || f.context?.unique_id === uniqueId));
    if (flow) return flow;
    if (Date.now() > end) throw new Error(`no ${handler} flow${uniqueId ? ` for ${uniqueId}` : ''} in progress: ${JSON.stringify(flows)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One step of a config flow over REST (what the frontend posts). */
export const flowStep = (haUrl, token, flowId, input = {}, headers = {}) =>
  haRequest(haUrl, token, `/api/config/config_entries/flow/${flowId}`, { method: 'POST', json: input, headers });

export const entriesOf = (haUrl, token, domain) => haCommand(haUrl, token, { type: 'config_entries/get', domain });

export const removeEntry = (haUrl, token, entryId) => haRequest(haUrl, token, `/api/config/config_entries/entry/${entryId}`, { method: 'DELETE' });

/** Home Assistant's MCP server (`mcp_server`), which serves every LLM API at /api/mcp/{api_id}; made once. */
export async function ensureMcpServer(haUrl, token) {
  if ((await entriesOf(haUrl, token, 'mcp_server')).length) return;
  const flow = await haRequest(haUrl, token, '/api/config/config_entries/flow', { method: 'POST', json: { handler: 'mcp_server' } });
  const done = await flowStep(haUrl, token, flow.body.flow_id, {});
  if (done.body?.type !== 'create_entry') throw new Error(`mcp_server could not be set up: ${JSON.stringify(done.body)}`);
}

/** The add-on's announcement as the Supervisor hands it over, confirmed as a person does: the entry. */
export async function addDiscovered(haUrl, token, message, addonName = 'Home MCP Bridge') {
  await handToHomeAssistant(haUrl, token, message, addonName);
  const flow = await flowInProgress(haUrl, token, 'mcp', message.uuid);
  const done = await flowStep(haUrl, token, flow.flow_id, {});
  return { flow, result: done.body };
}

/** A JSON-RPC request to Home Assistant's /api/mcp/{api_id} (stateless: one request, one answer). */
export async function haMcp(haUrl, token, apiId, method, params = {}, id = 1) {
  const res = await haRequest(haUrl, token, `/api/mcp/${apiId}`, {
    method: 'POST',
    json: { jsonrpc: '2.0', id, method, params },
    headers: { accept: 'application/json, text/event-stream' },
  });
  return res;
}

/** Home Assistant answers a tool call with one text block: the JSON of the tool's own result. */
export function bridgeResultOf(haResult) {
  const [block, ...rest] = haResult.content ?? [];
  if (block?.type !== 'text' || rest.length) throw new Error(`expected one text block from Home Assistant: ${JSON.stringify(haResult)}`);
  try {
    return JSON.parse(block.text);
  } catch {
    return { error: block.text };
  }
}
