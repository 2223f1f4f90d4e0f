// Named long-lived tokens an admin makes for assistants. Each is a JWT whose id is a row in the
// store: deleting the row revokes it at once (every use is checked against the rows held in
// memory) and for good (the row is gone after a restart too). Last use is noted in memory and
// written at most once a minute, so a busy assistant costs no write per request.
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { AppError, conflict, notFound } from '../errors.js';
import type { BridgeTokenRecord, TokenStore } from '../store/tokens.js';
import type { CredentialEnd } from './credentials.js';
import { LastUse } from './last-use.js';
import { actorName, type Principal, type TokenService } from './tokens.js';

const DAY = 86_400;
export const MAX_TOKEN_DAYS = 3650;

export const tokenRequestSchema = v.strictObject({
  name: v.pipe(
    v.string('must be a string'),
    v.maxLength(64, 'must be at most 64 characters'),
    v.check((name) => name.trim() !== '', 'must not be empty'),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a name is refused for holding control characters, so the pattern names them
    v.check((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not hold control characters'),
  ),
  expires_in_days: v.optional(
    v.pipe(
      v.number('must be a number of days'),
      v.integer('must be a whole number of days'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(MAX_TOKEN_DAYS, `must be at most ${MAX_TOKEN_DAYS}`),
    ),
  ),
});
export type TokenRequest = v.InferOutput<typeof tokenRequestSchema>;

/** A token as listed: never the secret itself. */
export type BridgeTokenView = BridgeTokenRecord & { kind: 'bridge_token' };

export class BridgeTokens {
  private readonly live = new Map<string, BridgeTokenRecord>();
  private readonly used: LastUse;

  constructor(
    private readonly store: TokenStore,
    private readonly tokens: TokenService,
    private readonly opts: {
      /** Whether the bridge user a token was made by is gone (tokens end with the user who made them). */
      creatorGone?: (createdBy: string) => boolean;
      /** Told when a token is revoked (credentials may have ended). */
      changed?: () => void;
    } = {},
  ) {
    for (const r of store.all()) this.live.set(r.id, r);
    this.used = new LastUse((batch) => store.touch(batch));
  }

  list(): BridgeTokenView[] {
    return [...this.live.values()].map((r) => ({ kind: 'bridge_token', ...r }));
  }

  nameOf(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.live.get(id)?.name;
  }

  /** Makes a token; the secret is in the answer only, once. */
  async create(input: TokenRequest, createdBy: Principal): Promise<BridgeTokenView & { token: string }> {
    const name = input.name.trim();
    for (const r of this.live.values())
      if (r.name === name) throw conflict(`A token named ${JSON.stringify(name)} exists; revoke it first or choose another name`, { id: r.id });
    const id = randomUUID();
    const ttlSeconds = (input.expires_in_days ?? MAX_TOKEN_DAYS) * DAY;
    const { access_token } = await this.tokens.issue(`token:${id}`, { id, ttlSeconds });
    const now = new Date();
    const record: BridgeTokenRecord = {
      id,
      name,
      created_by: actorName(createdBy),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      last_used_at: null,
    };
    // Another request may have taken the name while the token was signed.
    if ([...this.live.values()].some((r) => r.name === name)) throw conflict(`A token named ${JSON.stringify(name)} exists`);
    this.store.insert(record);
    this.live.set(id, record);
    return { kind: 'bridge_token', ...record, token: access_token };
  }

  revoke(id: string): BridgeTokenView {
    const record = this.live.get(id);
    if (!record) throw notFound(`No token with id ${JSON.stringify(id.slice(0, 64))}`);
    this.store.delete(id);
    this.live.delete(id);
    this.used.forget(id);
    this.opts.changed?.();
    return { kind: 'bridge_token', ...record };
  }

  /** Whether a bridge token has ended: revoked, or the bridge user who made it is gone. */
  ended(p: Principal): CredentialEnd | undefined {
    const record = p.tokenId === undefined ? undefined : this.live.get(p.tokenId);
    if (!record) return { reason: 'token_revoked', message: 'The access token has been revoked' };
    // Made through ingress (ha:<name>), by another token or an OAuth client: no bridge user to outlive.
    const by = record.created_by;
    if (!/^(ha|token|oauth):/.test(by) && this.opts.creatorGone?.(by)) {
      return { reason: 'user_removed', message: `The user who made this token (${JSON.stringify(by.slice(0, 64))}) no longer exists` };
    }
    return undefined;
  }

  /** Why a verified bridge token is refused (revoked, its maker gone), or undefined; notes its use. */
  refusal(p: Principal): AppError | undefined {
    const end = this.ended(p);
    if (end) return new AppError('AUTHENTICATION_ERROR', 401, end.message, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    const record = this.live.get(p.tokenId!)!;
    record.last_used_at = this.used.note(record.id);
    return undefined;
  }

  close(): void {
    this.used.close();
  }
}
