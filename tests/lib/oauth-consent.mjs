// What a person does on the bridge's OAuth consent page, done over HTTP: open the authorization
// URL, read the form, sign in and allow (or deny); answers where the browser is sent next. Shared
// by the OAuth tests and the conformance runner's authorization step.
export async function consent(authorizationUrl, opts = {}) {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, location: page.headers.get('location'), page: html };
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`no consent form in the page: ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ request, decision: opts.decision ?? 'approve' });
  for (const s of opts.scopes ?? ['read', 'control']) form.append('scope', s);
  if (opts.username !== undefined) form.set('username', opts.username);
  if (opts.password !== undefined) form.set('password', opts.password);
  const answer = await fetch(new URL('authorize', authorizationUrl), {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
  return { status: answer.status, location: answer.headers.get('location'), page: await answer.text() };
}
