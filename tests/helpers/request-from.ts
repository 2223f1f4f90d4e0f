// An HTTP request sent from a chosen local address (127.0.0.2 and so on: all of 127/8 is this
// machine on Linux), for what the bridge decides by the caller's address: ingress trust.
import { request } from 'node:http';

export interface FromResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, any>>(): T;
}

/** `body` goes as JSON; `raw` as it is (with a content-type of the caller's). */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<FromResponse> {
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        localAddress,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
