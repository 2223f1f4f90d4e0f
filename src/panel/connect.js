// "Connect an assistant": the ways in, as ready-to-paste configuration, and the bridge tokens.
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
  $('#cfg-ha').textContent = JSON.stringify(
    { mcpServers: { home: { command: 'npx', args: ['-y', 'home-mcp-bridge', 'connect', '--home-assistant', homeAssistantUrl()], env: { HASS_TOKEN: '<a Home Assistant long-lived access token of an administrator>' } } } },
    null,
    2,
  );
  $('#cfg-stdio').textContent = JSON.stringify({ mcpServers: { home: { command: 'npx', args: ['-y', 'home-mcp-bridge', 'connect', mcpUrl()], env: { BRIDGE_TOKEN: token } } } }, null, 2);
  $('#cfg-http').textContent = JSON.stringify({ mcpServers: { home: { type: 'http', url: mcpUrl(), headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
}

export async function renderTokens() {
  if (!me?.may_manage_tokens) {
    $('#token-rows').replaceChildren(el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'Signed in with an assistant token: tokens are managed by a person.')));
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
