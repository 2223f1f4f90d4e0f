// Which part answers for a credential, by the way it came in: a bridge token, an OAuth grant, a
// person's session, ingress or Home Assistant's link. Admission's refusal, the end of open
// connections and the name a config version keeps all follow the same rule.
import type { Refusal } from '../http/admission.js';
import type { OAuthService } from '../oauth/service.js';
import type { BridgeTokens } from './bridge-tokens.js';
import type { CredentialEnd } from './credentials.js';
import { actorName, type Principal } from './tokens.js';
import type { UserStore } from './users.js';
import { unauthorized } from '../errors.js';

export interface CredentialRules {
  /** Why a credential has ended (for connections opened with it), or undefined while it holds. */
  ended(p: Principal): CredentialEnd | undefined;
  /** Admission's refusal of a credential. */
  refusal: Refusal;
  /** Who a principal is, by kind and a name people recognise (kept with each config version). */
  who(p: Principal | undefined): { kind: string; name: string };
}

export function credentialRules(parts: { users: UserStore; bridgeTokens: BridgeTokens; oauth: OAuthService }): CredentialRules {
  const { users, bridgeTokens, oauth } = parts;
  return {
    // Ingress and Home Assistant's link are vouched for where they come in; the link's MCP sessions are MCP's to end.
    ended: (p) =>
      p.via === 'oauth'
        ? oauth.ended(p)
        : p.via === 'token'
          ? bridgeTokens.ended(p)
          : p.via === 'ingress' || p.via === 'discovery'
            ? undefined
            : users.ended(p),
    refusal: (p, caller, policy) => {
      if (p.via === 'oauth')
        return policy.oauth ? oauth.refusal(p, caller.headers) : unauthorized('This access token was granted to an OAuth client for MCP (/mcp) only');
      return p.via === 'token' ? bridgeTokens.refusal(p) : users.refusal(p);
    },
    who: (p) => {
      if (!p) return { kind: 'local', name: 'the local user (stdio)' };
      if (p.via === 'token') return { kind: 'token', name: bridgeTokens.nameOf(p.tokenId) ?? p.sub };
      if (p.via === 'oauth') return { kind: 'oauth', name: oauth.list().find((g) => g.id === p.grantId)?.name ?? p.sub };
      if (p.via === 'discovery') return { kind: 'discovery', name: "Home Assistant's link" };
      return { kind: p.via === 'ingress' ? 'ingress' : 'user', name: actorName(p) };
    },
  };
}
