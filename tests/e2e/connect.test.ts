// `connect --home-assistant` against the real Home Assistant of this run, which has no Supervisor
// (add-ons and ingress need Home Assistant OS or a Supervised installation): the official SDK
// client over stdio gets the same plain JSON-RPC errors it gets from the simulator, not a hang.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { HA_VERSION } from './ha-control.js';
import { HASS_TOKEN, HASS_URL } from './ha-rest.js';

/** The error a client gets when the proxy cannot set up the way in. */
const refusal = async (token: string) => {
  const client = new Client({ name: 'e2e-connect', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/src/main.js', 'connect', '--home-assistant', HASS_URL],
    env: { PATH: process.env.PATH ?? '', HASS_TOKEN: token },
    stderr: 'pipe',
  });
  const err = await client.connect(transport).then(
    () => new Error('connected, but should not have'),
    (e: Error) => e,
  );
  await client.close().catch(() => undefined);
  return err.message;
};

describe(`connect --home-assistant against Home Assistant ${HA_VERSION}`, () => {
  it('a Home Assistant without a Supervisor: said plainly, with the way that works instead', async () => {
    const message = await refusal(HASS_TOKEN);
    expect(message).toContain(`Home Assistant at ${HASS_URL} has no Supervisor (add-ons and ingress need Home Assistant OS or a Supervised installation)`);
    expect(message).toContain('connect http://<host>:3000/mcp with BRIDGE_TOKEN');
  });

  it('a token Home Assistant refuses', async () => {
    expect(await refusal('not-a-token')).toMatch(/refused the token in HASS_TOKEN/);
  });
});
