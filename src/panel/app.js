// The panel: one page, a tab per concern, every figure read from the bridge's own API and kept
// current by its live event stream.
import { api, ApiError, eventStream, hasToken, setToken, whenSignedOut } from './api.js';
import { $, ago, bytes, duration, el, field, idList, time, toast } from './dom.js';
import { renderConnect, renderTokens, initTokens, renderHomeAssistant, initHomeAssistant } from './connect.js';
import { drawChart } from './chart.js';
import { loadConfigChanges } from './changes.js';

const state = {
  me: null,
  entities: new Map(),
  stream: null,
  paused: false,
  events: [],
  samples: [],
  timers: [],
};
const TOGGLES = new Set(['light', 'switch', 'fan', 'input_boolean', 'automation', 'siren', 'humidifier']);
const MAX_EVENTS = 200;

// --- sign-in -------------------------------------------------------------------------------

function showSignIn(show) {
  $('#sign-in').hidden = !show;
  document.querySelector('.tabs').hidden = show;
  for (const s of document.querySelectorAll('[data-panel]')) if (show) s.hidden = true;
  if (!show) route();
}

$('#sign-in-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  $('#sign-in-error').textContent = '';
  try {
    const t = await api('auth/token', { method: 'POST', body: { username: field(form, 'username'), password: String(new FormData(form).get('password')) } });
    setToken(t.access_token);
    form.reset();
    await start();
  } catch (err) {
    $('#sign-in-error').textContent = err.message;
  }
});

$('#sign-out').addEventListener('click', () => {
  setToken(null);
  stop();
  showSignIn(true);
  loadBadge();
});

whenSignedOut(() => {
  stop();
  showSignIn(true);
  loadBadge();
});

// --- tabs ----------------------------------------------------------------------------------

function route() {
  const tab = (location.hash || '#home').slice(1);
  for (const s of document.querySelectorAll('[data-panel]')) s.hidden = s.dataset.panel !== tab;
  for (const a of document.querySelectorAll('[data-tab]')) a.setAttribute('aria-current', a.dataset.tab === tab ? 'page' : 'false');
  if (tab === 'scenes') loadScenesAndGroups().catch(report);
  if (tab === 'streams') loadStreams().catch(report);
  if (tab === 'connect') Promise.all([renderHomeAssistant(), renderTokens()]).catch(report);
  if (tab === 'command') $('#command-input').focus();
  if (tab === 'config') loadConfigChanges().catch(report);
}
addEventListener('hashchange', () => state.me && route());

function report(err) {
  if (err instanceof ApiError && err.status === 401) return;
  toast(err.message, 'error');
}

// --- status --------------------------------------------------------------------------------

/** The header's hub badge, from /health (public): it says the hub's state signed in or not. */
function showHub(health) {
  const badge = $('#hub-badge');
  badge.dataset.state = health.hub.connected ? 'ok' : 'down';
  badge.textContent = health.hub.connected ? 'hub connected' : 'hub disconnected';
}

async function loadBadge() {
  try {
    showHub(await api('health'));
  } catch {
    const badge = $('#hub-badge');
    badge.dataset.state = 'unknown';
    badge.textContent = 'hub: sign in to see';
  }
}

async function loadStatus() {
  const [health, config] = await Promise.all([api('health'), api('api/config')]);
  showHub(health);
  $('#st-hub').textContent = health.hub.connected ? 'Connected' : 'Disconnected';
  $('#st-hub-url').textContent =
    { home_assistant: 'Home Assistant', supervisor: 'through the Supervisor', simulator: 'built-in simulator' }[config.hub.mode] ?? config.hub.mode;
  $('#st-version').textContent = health.hub.version ?? '—';
  $('#st-uptime').textContent = duration(health.uptime);
  $('#st-bridge-version').textContent = `bridge ${health.version}`;
}

// --- entities ------------------------------------------------------------------------------

const nameOf = (s) => s.attributes?.friendly_name || s.entity_id;
const shown = (s) => `${s.state}${s.attributes?.unit_of_measurement ? ` ${s.attributes.unit_of_measurement}` : ''}`;

async function loadEntities() {
  const list = await api('api/state');
  state.entities = new Map(list.map((s) => [s.entity_id, s]));
  const domains = [...new Set(list.map((s) => s.entity_id.split('.')[0]))].sort();
  const select = $('#entity-domain');
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, 'All domains'), ...domains.map((d) => el('option', { value: d }, d)));
  select.value = domains.includes(chosen) ? chosen : '';
  $('#entity-ids').replaceChildren(...list.map((s) => el('option', { value: s.entity_id }, nameOf(s))));
  examples(list);
  $('#st-entities').textContent = String(list.length);
  $('#st-domains').textContent = `${domains.length} domains`;
  renderEntities();
}

// What a scene captures and a group controls: the examples in their forms are this home's own.
const CAPTURED = ['light', 'switch', 'cover', 'fan', 'media_player', 'climate'];
const GROUPED = ['light', 'switch'];
function examples(list) {
  const pick = (domains) => {
    const found = domains.map((d) => list.find((e) => e.entity_id.startsWith(`${d}.`))?.entity_id).filter(Boolean);
    return (found.length >= 2 ? found : list.map((e) => e.entity_id)).slice(0, 2).join(', ');
  };
  const lights = list
    .filter((e) => e.entity_id.startsWith('light.'))
    .slice(0, 2)
    .map((e) => e.entity_id);
  $('#scene-form input[name="entities"]').placeholder = pick(CAPTURED);
  $('#group-form input[name="entities"]').placeholder = lights.length === 2 ? lights.join(', ') : pick(GROUPED);
}

function entityRow(s) {
  const domain = s.entity_id.split('.')[0];
  const toggle =
    TOGGLES.has(domain) && (s.state === 'on' || s.state === 'off')
      ? el('button', { class: 'small secondary', onclick: () => control(s.entity_id, 'toggle') }, s.state === 'on' ? 'Turn off' : 'Turn on')
      : '';
  return el(
    'tr',
    { 'data-entity': s.entity_id },
    el('td', {}, el('span', { class: 'name' }, nameOf(s)), el('span', { class: 'id' }, s.entity_id)),
    el('td', {}, s.area ?? ''),
    el('td', { class: 'state', 'data-state': s.state }, shown(s)),
    el('td', {}, toggle),
  );
}

function renderEntities() {
  const q = $('#entity-search').value.trim().toLowerCase();
  const domain = $('#entity-domain').value;
  const rows = [...state.entities.values()]
    .filter((s) => !domain || s.entity_id.startsWith(`${domain}.`))
    .filter((s) => !q || [s.entity_id, nameOf(s), s.area ?? '', s.state].some((x) => String(x).toLowerCase().includes(q)))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  $('#entity-count').textContent = `${rows.length} of ${state.entities.size} entities`;
  $('#entity-rows').replaceChildren(...rows.slice(0, 500).map(entityRow));
}

$('#entity-search').addEventListener('input', renderEntities);
$('#entity-domain').addEventListener('change', renderEntities);

async function control(entity_id, action) {
  try {
    await api('api/device/control', { method: 'POST', body: { entity_id, action } });
  } catch (err) {
    report(err);
  }
}

/** A state change from the stream: the row is replaced in place, so search and order stay. */
function applyState(entityId, newState) {
  if (!newState) {
    state.entities.delete(entityId);
    document.querySelector(`tr[data-entity="${CSS.escape(entityId)}"]`)?.remove();
    return;
  }
  const before = state.entities.get(entityId);
  const merged = { ...newState, area: before?.area ?? null, area_id: before?.area_id ?? null };
  state.entities.set(entityId, merged);
  const row = document.querySelector(`tr[data-entity="${CSS.escape(entityId)}"]`);
  if (row) {
    const fresh = entityRow(merged);
    fresh.classList.add('changed');
    row.replaceWith(fresh);
  } else if (!before) {
    renderEntities();
  }
}

// --- events --------------------------------------------------------------------------------

function summary(m) {
  if (m.event_type === 'state_changed') {
    const from = m.data.old_state?.state ?? '—';
    const to = m.data.new_state?.state ?? 'removed';
    return `${from} → ${to}`;
  }
  const d = m.data ?? {};
  const keys = Object.keys(d)
    .filter((k) => k !== 'entity_id')
    .slice(0, 3);
  return keys.map((k) => `${k}: ${typeof d[k] === 'object' ? JSON.stringify(d[k]) : d[k]}`).join(', ');
}

function eventItem(m) {
  return el(
    'li',
    { 'data-type': m.event_type },
    el('time', { datetime: m.time_fired }, time(m.time_fired)),
    el('span', { class: 'type' }, m.event_type),
    el('span', { class: 'id' }, m.entity_id ?? ''),
    el('span', { class: 'what' }, summary(m)),
  );
}

function matchesFilters(m) {
  const type = $('#event-type').value.trim();
  const target = $('#event-entity').value.trim();
  if (type && !m.event_type.includes(type)) return false;
  if (target && !(m.entity_id ?? '').startsWith(target)) return false;
  return true;
}

function renderEvents() {
  $('#event-log').replaceChildren(...state.events.filter(matchesFilters).map(eventItem));
  homeEvents();
}

function homeEvents() {
  const latest = state.events.slice(0, 8).map(eventItem);
  $('#home-events').replaceChildren(
    ...(latest.length ? latest : [el('li', { class: 'muted empty' }, 'No events since the page opened; they appear here as they happen.')]),
  );
}

function onEvent(m) {
  if (m.event_type === 'state_changed' && m.entity_id) applyState(m.entity_id, m.data.new_state);
  state.events.unshift(m);
  if (state.events.length > MAX_EVENTS) state.events.length = MAX_EVENTS;
  if (state.paused) return;
  if (matchesFilters(m)) $('#event-log').prepend(eventItem(m));
  const log = $('#event-log');
  while (log.children.length > MAX_EVENTS) log.lastChild.remove();
  homeEvents();
}

for (const id of ['#event-type', '#event-entity']) $(id).addEventListener('input', renderEvents);
$('#event-pause').addEventListener('click', (e) => {
  state.paused = !state.paused;
  e.currentTarget.textContent = state.paused ? 'Resume' : 'Pause';
  e.currentTarget.setAttribute('aria-pressed', String(state.paused));
  if (!state.paused) renderEvents();
});
$('#event-clear').addEventListener('click', () => {
  state.events = [];
  renderEvents();
});

function openStream() {
  state.stream?.close();
  const es = eventStream();
  state.stream = es;
  es.addEventListener('connected', () => {
    $('#event-status').textContent = 'Live: new events appear at the top.';
    // After a gap the list may have missed changes; read it whole again.
    loadEntities().catch(report);
    loadStatus().catch(report);
  });
  es.addEventListener('message', (e) => {
    try {
      onEvent(JSON.parse(e.data));
    } catch {
      /* a frame that is not an event message */
    }
  });
  es.addEventListener('error', () => {
    $('#event-status').textContent = 'The live stream was interrupted; reconnecting…';
  });
}

// --- scenes and groups -----------------------------------------------------------------------

async function loadScenesAndGroups() {
  const [{ scenes }, { groups }] = await Promise.all([api('api/scenes'), api('api/groups')]);
  $('#scene-list').replaceChildren(
    ...(scenes.length
      ? scenes.map((s) =>
          el(
            'li',
            {},
            el('span', { class: 'name' }, s.name),
            el('span', { class: 'id' }, `${s.actions.length} entities`),
            el(
              'button',
              { class: 'small', onclick: () => act(`api/scene/${encodeURIComponent(s.id)}/activate`, 'POST', `Scene ${s.name} activated`) },
              'Activate',
            ),
            el(
              'button',
              {
                class: 'small danger',
                onclick: () => confirm(`Delete the scene ${s.name}?`) && act(`api/scene/${encodeURIComponent(s.id)}`, 'DELETE', `Scene ${s.name} deleted`),
              },
              'Delete',
            ),
          ),
        )
      : [el('li', { class: 'muted' }, 'No scenes yet.')]),
  );
  $('#group-list').replaceChildren(
    ...(groups.length
      ? groups.map((g) =>
          el(
            'li',
            {},
            el('span', { class: 'name' }, g.name),
            el('span', { class: 'id members' }, ...g.entities.map((m) => el('span', { class: 'member' }, m))),
            el(
              'button',
              { class: 'small', onclick: () => act(`api/group/${encodeURIComponent(g.id)}/control`, 'POST', `${g.name}: on`, { action: 'turn_on' }) },
              'On',
            ),
            el(
              'button',
              {
                class: 'small secondary',
                onclick: () => act(`api/group/${encodeURIComponent(g.id)}/control`, 'POST', `${g.name}: off`, { action: 'turn_off' }),
              },
              'Off',
            ),
            el(
              'button',
              {
                class: 'small danger',
                onclick: () => confirm(`Delete the group ${g.name}?`) && act(`api/group/${encodeURIComponent(g.id)}`, 'DELETE', `Group ${g.name} deleted`),
              },
              'Delete',
            ),
          ),
        )
      : [el('li', { class: 'muted' }, 'No groups yet.')]),
  );
}

async function act(path, method, done, body) {
  try {
    const out = await api(path, { method, body });
    toast(out && out.success === false ? `${done}, but some failed` : done, out && out.success === false ? 'error' : 'info');
    await loadScenesAndGroups();
  } catch (err) {
    report(err);
  }
}

function saveForm(selector, path, body) {
  $(selector).addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const error = form.querySelector('.error');
    error.textContent = '';
    try {
      await api(path, { method: 'POST', body: body(form) });
      form.reset();
      await loadScenesAndGroups();
    } catch (err) {
      error.textContent = err.message;
    }
  });
}
saveForm('#scene-form', 'api/scene/capture', (f) => ({ name: field(f, 'name'), entities: idList(field(f, 'entities')) }));
saveForm('#group-form', 'api/group', (f) => ({ name: field(f, 'name'), entities: idList(field(f, 'entities')) }));

// --- commands ------------------------------------------------------------------------------

let planned = null;

$('#command-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const command = field(e.currentTarget, 'command');
  $('#command-result').textContent = '';
  $('#command-plan').hidden = true;
  try {
    const plan = await api('api/command', { method: 'POST', body: { command, dry_run: true } });
    showPlan(command, plan);
  } catch (err) {
    // "Which lamp do you mean?": the question, with the candidates listed.
    const candidates = err.body?.code === 'AMBIGUOUS' ? err.body.details?.candidates : undefined;
    if (candidates) return showPlan(command, { success: false, message: err.message, actions: [], candidates });
    $('#command-result').textContent = err.message;
    $('#command-result').dataset.kind = 'error';
  }
});

function showPlan(command, plan) {
  planned = command;
  $('#command-message').textContent = plan.query ? plan.query.answer || plan.message : plan.message;
  $('#command-actions').replaceChildren(
    ...plan.actions.map((a) =>
      el(
        'li',
        {},
        el('code', {}, a.entity_id),
        ` ${a.action}`,
        Object.keys(a.parameters ?? {}).length ? ` ${JSON.stringify(a.parameters)}` : '',
        a.needs_confirmation ? el('strong', {}, ' (needs confirmation)') : '',
      ),
    ),
    ...(plan.candidates ?? []).map((c) => el('li', {}, `${c.name}${c.area ? ` (${c.area})` : ''}: `, el('code', {}, c.entity_id))),
  );
  const needsConfirm = plan.actions.some((a) => a.needs_confirmation);
  $('#command-confirm-row').hidden = !needsConfirm;
  $('#command-confirm').checked = false;
  $('#command-run').hidden = !plan.success || plan.actions.length === 0 || Boolean(plan.query);
  $('#command-plan').hidden = false;
}

$('#command-run').addEventListener('click', async () => {
  if (!planned) return;
  const confirm = $('#command-confirm').checked;
  try {
    const out = await api('api/command', { method: 'POST', body: { command: planned, ...(confirm ? { confirm: true } : {}) } });
    $('#command-result').textContent = out.message;
    $('#command-result').dataset.kind = out.success ? 'ok' : 'error';
    $('#command-plan').hidden = true;
  } catch (err) {
    $('#command-result').textContent = err.message;
    $('#command-result').dataset.kind = 'error';
  }
});

// --- streams -------------------------------------------------------------------------------

async function loadStreams() {
  const [stats, conns, metrics] = await Promise.all([api('api/sse/stats'), api('api/sse/connections'), api('api/sse/metrics?period=1h')]);
  const d = stats.data;
  $('#ss-conn').textContent = String(d.active_connections);
  $('#ss-sent').textContent = d.total_events_sent.toLocaleString();
  $('#ss-rate').textContent = d.events_per_second.toFixed(1);
  $('#ss-mem').textContent = bytes(d.memory_usage);
  state.samples.push({ at: Date.now(), rate: d.events_per_second, conn: d.active_connections });
  if (state.samples.length > 120) state.samples.shift();
  const peak = drawChart($('#ss-chart'), state.samples);
  $('#ss-peak-rate').textContent = `(peak ${peak.rate.toFixed(1)})`;
  $('#ss-peak-conn').textContent = `(peak ${peak.conn})`;
  const l = metrics.data.metrics.latency;
  $('#ss-latency').textContent = `Delivery latency over the last hour: p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms.`;
  $('#ss-rows').replaceChildren(
    ...conns.data.connections.map((c) =>
      el(
        'tr',
        {},
        el('td', {}, c.transport),
        el('td', {}, c.client_id),
        el('td', {}, ago(c.connected_at)),
        el('td', {}, String(c.events_sent)),
        el('td', {}, String(c.events_dropped)),
      ),
    ),
  );
}

// --- start and stop ------------------------------------------------------------------------

function stop() {
  state.stream?.close();
  state.stream = null;
  state.me = null;
  for (const t of state.timers) clearInterval(t);
  state.timers = [];
  $('#who').textContent = '';
  $('#sign-out').hidden = true;
}

async function start() {
  // Asked first because it never answers 401: a signed-out page load asks nothing that fails.
  const session = await api('api/session');
  if (!session.signed_in && !session.ingress) {
    if (hasToken()) setToken(null); // expired or revoked since it was kept
    loadBadge();
    return showSignIn(true);
  }
  try {
    state.me = await api('api/me');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return showSignIn(true);
    if (err instanceof ApiError && err.status === 403) {
      // Through ingress as a Home Assistant user the bridge does not admit (INGRESS_USERS).
      showSignIn(false);
      document.querySelector('.tabs').hidden = true;
      for (const s of document.querySelectorAll('[data-panel]')) s.hidden = true;
      $('#refused-message').textContent = err.message;
      $('#refused').hidden = false;
      return;
    }
    throw err;
  }
  const me = state.me;
  $('#who').textContent = me.via === 'ingress' ? me.name : `${me.name} (bridge user)`;
  $('#sign-out').hidden = !hasToken();
  showSignIn(false);
  renderConnect(me);
  initTokens(me);
  initHomeAssistant();
  openStream();
  homeEvents();
  await Promise.all([loadStatus(), loadEntities()]);
  state.timers.push(setInterval(() => loadStatus().catch(report), 30_000));
  state.timers.push(setInterval(() => !$('[data-panel="streams"]').hidden && loadStreams().catch(report), 5_000));
}

start().catch(report);
