// "Connect an assistant": Home Assistant's own path first (its link, and OAuth clients for its MCP
// integration by hand), then the other ways in as ready-to-paste configuration, and the tokens.
import { api } from './api.js';
import { $, ago, el, field } from './dom.js';

let me = null;
let lastToken = null;

/** Where the page was opened from is the best guess at Home Assistant's own address. */
function homeAssistantUrl() {
  return me?.ingress_path ? location.origin : 'http://homeassistant.local:8123';
}

const mcpUrl = () => `http://${location.hostname}:${me.port}${me.mcp_path}`;

export function renderConnect(who) {
  me = who;
  const token = lastToken ?? '<a bridge token, made below>';
  $('#mcp-port').textContent = String(me.port);
  $('#mcp-url').textContent = mcpUrl();
  $('#mcp-url-ha').textContent = mcpUrl();
  $('#cfg-ha').textContent = JSON.stringify(
    {
      mcpServers: {
        home: {
          command: 'home-mcp-bridge',
          args: ['connect', '--home-assistant', homeAssistantUrl()],
          env: { HASS_TOKEN: '<a Home Assistant long-lived access token of an administrator>' },
        },
      },
    },
    null,
    2,
  );
  $('#cfg-stdio').textContent = JSON.stringify(
    { mcpServers: { home: { command: 'home-mcp-bridge', args: ['connect', mcpUrl()], env: { BRIDGE_TOKEN: token } } } },
    null,
    2,
  );
  $('#cfg-http').textContent = JSON.stringify(
    { mcpServers: { home: { type: 'http', url: mcpUrl(), headers: { Authorization: `Bearer ${token}` } } } },
    null,
    2,
  );
}

export async function renderTokens() {
  if (!me?.may_manage_tokens) {
    $('#token-rows').replaceChildren(
      el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'Signed in with an assistant token: tokens are managed by a person.')),
    );
    return;
  }
  const { tokens } = await api('api/tokens');
  $('#token-rows').replaceChildren(
    ...(tokens.length
      ? tokens.map((t) =>
          el(
            'tr',
            { 'data-token': t.id },
            el('td', {}, t.kind === 'oauth_grant' ? `${t.name} (OAuth: ${t.scope.join(', ')})` : t.name),
            el('td', { title: t.created_at }, `${ago(t.created_at)} by ${t.created_by}`),
            el('td', { title: t.last_used_at ?? '' }, ago(t.last_used_at)),
            el('td', {}, new Date(t.expires_at).toLocaleDateString()),
            el('td', {}, el('button', { class: 'small danger', onclick: () => revoke(t) }, 'Revoke')),
          ),
        )
      : [el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'No tokens yet.'))]),
  );
}

async function revoke(t) {
  if (!confirm(`Revoke the token ${t.name}? Assistants using it stop at once.`)) return;
  try {
    await api(`api/tokens/${encodeURIComponent(t.id)}`, { method: 'DELETE' });
  } catch (err) {
    $('#token-error').textContent = err.message;
  }
  await renderTokens();
}

export function initTokens(who) {
  me = who;
  const form = $('#token-form');
  form.hidden = !who.may_manage_tokens;
  if (form.dataset.ready) return;
  form.dataset.ready = '1';
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#token-error').textContent = '';
    try {
      const made = await api('api/tokens', { method: 'POST', body: { name: field(form, 'name') } });
      lastToken = made.token;
      $('#token-value').textContent = made.token;
      $('#token-made').hidden = false;
      form.reset();
      renderConnect(me);
      await renderTokens();
    } catch (err) {
      $('#token-error').textContent = err.message;
    }
  });
}

// --- Home Assistant's own path ---------------------------------------------------------------

const ANNOUNCED = {
  off: (a) => `off (${a.reason})`,
  pending: (a) => `being announced to Home Assistant (attempt ${a.attempt}${a.error ? `; last: ${a.error}` : ''})`,
  announced: (a) => `announced to Home Assistant ${ago(a.at)}`,
  failed: (a) => `could not be announced (${a.error}); a new key tries again`,
};

let linkTimer;

export async function renderHomeAssistant() {
  clearTimeout(linkTimer);
  if (!me?.may_manage_tokens) {
    $('#ha-card').hidden = true;
    return;
  }
  const link = await api('api/discovery');
  $('#ha-link-on').hidden = !link.enabled;
  $('#ha-link-off').hidden = link.enabled;
  $('#ha-link-off').textContent = link.enabled
    ? ''
    : `Home Assistant discovers the bridge only when it runs as a Home Assistant add-on (here: ${link.announcement.reason}). Use its MCP integration by hand, below.`;
  if (link.enabled) {
    $('#ha-link-status').textContent = ANNOUNCED[link.announcement.state](link.announcement);
    $('#ha-link-used').textContent = ago(link.last_used_at);
    $('#ha-link-control').checked = link.scope.includes('control');
    $('#ha-mcp-url').textContent = `${homeAssistantUrl()}/api/mcp/${link.home_assistant_api ?? 'mcp-<add-on slug>'}`;
    // While the Supervisor has not taken it yet, look again, as long as this tab is open.
    if (link.announcement.state === 'pending')
      linkTimer = setTimeout(() => !$('section[data-panel="connect"]').hidden && renderHomeAssistant().catch(() => undefined), 2000);
  }
  const { clients } = await api('api/oauth/clients');
  $('#client-rows').replaceChildren(
    ...(clients.length
      ? clients.map((c) =>
          el(
            'tr',
            { 'data-client': c.client_id },
            el('td', {}, c.client_name, el('br'), el('code', { class: 'muted' }, c.client_id)),
            el('td', {}, c.redirect_uris.join(' ')),
            el('td', { title: c.created_at }, `${ago(c.created_at)} by ${c.created_by}`),
            el('td', {}, el('button', { class: 'small danger', onclick: () => deleteClient(c) }, 'Delete')),
          ),
        )
      : [el('tr', {}, el('td', { colspan: 4, class: 'muted' }, 'No clients yet.'))]),
  );
}

async function deleteClient(c) {
  if (!confirm(`Delete the client ${c.client_name}? What it was granted stops at once.`)) return;
  try {
    await api(`api/oauth/clients/${encodeURIComponent(c.client_id)}`, { method: 'DELETE' });
  } catch (err) {
    $('#client-error').textContent = err.message;
  }
  await Promise.all([renderHomeAssistant(), renderTokens()]);
}

export function initHomeAssistant() {
  const form = $('#client-form');
  if (form.dataset.ready) return;
  form.dataset.ready = '1';
  const fail = (target) => (err) => ($(target).textContent = err.message);
  $('#ha-link-control').addEventListener('change', (e) => {
    $('#ha-link-error').textContent = '';
    api('api/discovery', { method: 'PATCH', body: { scope: e.target.checked ? ['read', 'control'] : ['read'] } }).then(
      renderHomeAssistant,
      fail('#ha-link-error'),
    );
  });
  $('#ha-link-rotate').addEventListener('click', () => {
    if (!confirm('Give Home Assistant a new link key? The old link stops at once; Home Assistant takes the new one when the add-on announces it.')) return;
    $('#ha-link-error').textContent = '';
    api('api/discovery/rotate', { method: 'POST' }).then(renderHomeAssistant, fail('#ha-link-error'));
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#client-error').textContent = '';
    try {
      const made = await api('api/oauth/clients', { method: 'POST', body: { name: field(form, 'name'), redirect_uris: [field(form, 'redirect')] } });
      $('#client-value').textContent = `Client ID:     ${made.client_id}\nClient secret: ${made.client_secret}`;
      $('#client-made').hidden = false;
      await renderHomeAssistant();
    } catch (err) {
      $('#client-error').textContent = err.message;
    }
  });
}
