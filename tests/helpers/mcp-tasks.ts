// A client of MCP 2026-07-28's tasks extension (io.modelcontextprotocol/tasks) over raw HTTP: the
// SDK client has no tasks. Each request declares the protocol revision, the client and, when asked,
// the extension in its _meta, as a stateless 2026-07-28 client does.
export const TASKS = 'io.modelcontextprotocol/tasks';
export type Answer = Record<string, any>;
export type Rpc = (method: string, params: Record<string, unknown>) => Promise<Answer>;

const NAMED: Record<string, string> = { 'tools/call': 'name', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };
let id = 0;

/** A 2026-07-28 request to the bridge at `server`; resolves with the result, rejects with the JSON-RPC error. */
export const modernRpc =
  (server: { url: string; token: string }, extension: boolean): Rpc =>
  async (method, params) => {
    const name = params[NAMED[method] ?? ''];
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, ...(extension ? { extensions: { [TASKS]: {} } } : {}) },
          },
        },
      }),
    });
    const body = (await res.json()) as { result?: Answer; error?: Answer };
    if (body.error) throw body.error;
    return body.result!;
  };

/** tasks/get until the task leaves these statuses (a wait for a status change, not a time). */
export async function untilTaskLeaves(rpc: Rpc, taskId: string, leave: string[]): Promise<Answer> {
  for (;;) {
    const t = await rpc('tasks/get', { taskId });
    if (!leave.includes(t.status)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}
