// Client ID metadata documents: a client whose id is an https URL describes itself in the JSON
// document at that URL. The bridge fetches it with limits (time, size), keeps it for a while, and
// never connects to a private, loopback or link-local address unless OAUTH_METADATA_PRIVATE allows
// it. The address is checked after the name is resolved and the connection goes to that checked
// address, so a name cannot resolve to a public address for the check and a private one after.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../ip-address.js';

export { isPrivateAddress };
import type { LookupFunction } from 'node:net';

export const METADATA_MAX_BYTES = 64 * 1024;
export const METADATA_TIMEOUT_MS = 5_000;
const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 500;

export class MetadataError extends Error {
  override name = 'MetadataError';
}

/** A metadata URL as the specification wants it: https, a path, no fragment, no credentials. */
export function isMetadataUrl(id: string, allowHttp = false): boolean {
  let u: URL;
  try {
    u = new URL(id);
  } catch {
    return false;
  }
  return (u.protocol === 'https:' || (allowHttp && u.protocol === 'http:')) && u.pathname.length > 1 && !u.hash && !u.username && !u.password;
}

export class ClientMetadataFetcher {
  private readonly cache = new Map<string, { doc: Record<string, unknown>; until: number }>();

  constructor(private readonly allowPrivate: boolean) {}

  async get(url: string): Promise<Record<string, unknown>> {
    const hit = this.cache.get(url);
    if (hit && hit.until > Date.now()) return hit.doc;
    const doc = await this.fetch(url);
    if (doc.client_id !== url) throw new MetadataError(`the document's client_id (${JSON.stringify(String(doc.client_id).slice(0, 100))}) is not its own URL`);
    if (!Array.isArray(doc.redirect_uris) || doc.redirect_uris.length === 0 || !doc.redirect_uris.every((u) => typeof u === 'string'))
      throw new MetadataError('the document lists no redirect_uris');
    // Only what the bridge uses is kept (anyone can make it fetch a document): a few hundred bytes
    // a client rather than up to 64 KiB.
    const kept = {
      client_id: url,
      ...(typeof doc.client_name === 'string' ? { client_name: doc.client_name.slice(0, 100) } : {}),
      redirect_uris: (doc.redirect_uris as string[]).filter((u) => u.length <= 2000).slice(0, 10),
    };
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(url, { doc: kept, until: Date.now() + CACHE_MS });
    return kept;
  }

  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const refused = addresses.find((a) => isPrivateAddress(a.address));
      if (refused && !this.allowPrivate)
        return callback(
          new MetadataError(`${hostname} is a private address (${refused.address}); metadata documents are fetched from public addresses only`),
          '',
          4,
        );
      const first = addresses[0]!;
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };

  private fetch(url: string): Promise<Record<string, unknown>> {
    const u = new URL(url);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isPrivateAddress(host) && !this.allowPrivate)
      return Promise.reject(new MetadataError(`${host} is a private address; metadata documents are fetched from public addresses only`));
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(u, { method: 'GET', lookup: this.lookup, headers: { accept: 'application/json' }, timeout: METADATA_TIMEOUT_MS }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new MetadataError(`fetching it answered ${res.statusCode}`));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > METADATA_MAX_BYTES) {
          req.destroy();
          return reject(new MetadataError(`it is larger than ${METADATA_MAX_BYTES / 1024} KiB`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > METADATA_MAX_BYTES) {
            req.destroy();
            reject(new MetadataError(`it is larger than ${METADATA_MAX_BYTES / 1024} KiB`));
          } else chunks.push(c);
        });
        res.on('end', () => {
          try {
            const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
            if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
            resolve(doc as Record<string, unknown>);
          } catch {
            reject(new MetadataError('it is not a JSON object'));
          }
        });
        res.on('error', (e) => reject(new MetadataError(e.message)));
      });
      // The whole fetch, not only the idle time between packets, is bounded.
      const timer = setTimeout(() => req.destroy(new MetadataError(`no complete answer within ${METADATA_TIMEOUT_MS / 1000} s`)), METADATA_TIMEOUT_MS);
      req.on('timeout', () => req.destroy(new MetadataError(`no answer within ${METADATA_TIMEOUT_MS / 1000} s`)));
      req.on('error', (e) => reject(e instanceof MetadataError ? e : new MetadataError(e.message)));
      req.on('close', () => clearTimeout(timer));
      req.end();
    });
  }
}
