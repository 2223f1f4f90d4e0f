// A hosted assistant as the official MCP SDK client's OAuth support sees it: a provider that keeps
// what the flow gives it, and the whole dance (401, consent through the real form, finish, connect).
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { consent } from '../lib/oauth-consent.mjs';

export const REDIRECT = 'http://127.0.0.1:9/callback';

export class HostedAssistant implements OAuthClientProvider {
  client?: Record<string, any>;
  saved?: Record<string, any>;
  verifier = '';
  discovery?: unknown;
  authorizationUrl?: URL;
  constructor(private readonly scope?: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'Hosted assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(c: Record<string, any>) {
    this.client = c;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(t: Record<string, any>) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept beside the verifier, so the SDK can check the callback came from the server it discovered.
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}

/** The whole dance: connect (401), consent, finish, connect again. */
export async function authorizedClient(base: string, user: { username: string; password: string }, assistant: HostedAssistant, scopes = ['read', 'control']) {
  const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: assistant });
  await expect(new Client({ name: 'hosted', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const answer = await consent(assistant.authorizationUrl!, { ...user, scopes });
  expect(answer.status).toBe(302);
  await first.finishAuth(new URL(answer.location!).searchParams);
  const client = new Client({ name: 'hosted', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: assistant }));
  return client;
}
