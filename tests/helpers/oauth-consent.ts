// What a person does on the consent page, done over HTTP: open the authorization URL, read the
// form, sign in and allow (or deny); answers where the browser is sent next.
export async function consent(authorizationUrl: URL | string, opts: { username?: string; password?: string; decision?: 'approve' | 'deny'; scopes?: string[] } = {}): Promise<{ status: number; location: string | null; page: string }> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, location: page.headers.get('location'), page: html };
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`no consent form in the page: ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ request, decision: opts.decision ?? 'approve' });
  for (const s of opts.scopes ?? ['read', 'control']) form.append('scope', s);
  if (opts.username !== undefined) form.set('username', opts.username);
  if (opts.password !== undefined) form.set('password', opts.password);
  const action = new URL('authorize', authorizationUrl);
  const answer = await fetch(action, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  return { status: answer.status, location: answer.headers.get('location'), page: await answer.text() };
}
