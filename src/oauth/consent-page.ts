// The consent page: which client asks, for what, and the person's answer. Plain HTML with the
// panel's stylesheet (no script, no CDN); every value is escaped. It may not be framed (a framed
// consent page is a click-jacking target), and its form may lead only here and, after approval, to
// the client's own redirect URI.
import type { Principal } from '../auth/tokens.js';
import type { PendingAuthorization } from './service.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function consentHeaders(redirectUri?: string): Record<string, string> {
  let target = '';
  try {
    if (redirectUri) target = ` ${new URL(redirectUri).origin}`;
  } catch {
    target = '';
  }
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    // Not no-referrer: with it, browsers send `Origin: null` with the form, and the answer through
    // ingress is taken only with this page's own origin.
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': `default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Home MCP Bridge</title>
<link rel="stylesheet" href="../panel/style.css">
</head>
<body>
<header class="top"><img class="logo" src="../panel/icon.svg" alt="" width="28" height="28"><h1>Home MCP Bridge</h1></header>
<main>${body}</main>
</body>
</html>
`;
}

const SCOPE_WORDS = {
  read: 'See your entities, their states and history, and the bridge’s resources',
  control: 'Control your devices: switch, dim, open, lock and run scenes',
  config:
    'Change your automations, scripts, helpers and dashboards (each change previewed, confirmed and kept as a version; only while the bridge allows config editing)',
  admin:
    'Look after Home Assistant itself: areas, devices, entities, zones, repairs and integrations (each change previewed and confirmed; only while the bridge allows admin tools)',
};

export function consentPage(p: PendingAuthorization, who: Principal | undefined, error?: string): string {
  const host = (() => {
    try {
      return new URL(p.redirectUri).host;
    } catch {
      return p.redirectUri;
    }
  })();
  const scopes = p.scope
    .map((s) =>
      s === 'read'
        ? `<li><label class="check"><input type="checkbox" checked disabled> ${escapeHtml(SCOPE_WORDS.read)}</label><input type="hidden" name="scope" value="read"></li>`
        : // Config editing and admin are never granted unless the person ticks them.
          `<li><label class="check"><input type="checkbox" name="scope" value="${s}"${s === 'control' ? ' checked' : ''}> ${escapeHtml(SCOPE_WORDS[s])}</label></li>`,
    )
    .join('');
  const signIn = who
    ? `<p class="muted">Signed in as ${escapeHtml(who.haUser?.displayName || who.haUser?.name || who.sub)} through Home Assistant.</p>`
    : `<label>Username <input name="username" autocomplete="username" required maxlength="128"></label>
       <label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>`;
  return page(
    'Allow access',
    `<section class="card narrow">
  <h2>Allow ${escapeHtml(p.client.client_name)} to use your home?</h2>
  <p><strong>${escapeHtml(p.client.client_name)}</strong> asks for access to this Home Assistant through Home MCP Bridge. After you answer, you go back to <code>${escapeHtml(host)}</code>.</p>
  <p class="muted">Client: <code>${escapeHtml(p.client.client_id.slice(0, 200))}</code>${p.client.kind === 'metadata_document' ? ' (described by its own metadata document)' : p.client.kind === 'confidential' ? ` (a client with a secret, made by ${escapeHtml(p.client.created_by ?? 'a person')} in this bridge's panel)` : ''}</p>
  <form method="post" action="authorize" class="stack">
    <input type="hidden" name="request" value="${escapeHtml(p.id)}">
    <ul class="items">${scopes}</ul>
    ${signIn}
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <div class="inline">
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
    </div>
  </form>
</section>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Cannot authorize',
    `<section class="card narrow"><h2>This request cannot be authorized</h2><p class="error" role="alert">${escapeHtml(message)}</p><p class="muted">Nothing was granted. Start again from the assistant.</p></section>`,
  );
}
