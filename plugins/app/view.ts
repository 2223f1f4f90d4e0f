// The app's page (MCP Apps): plain HTML, CSS and script in one document, nothing fetched from
// anywhere. It speaks the extension's JSON-RPC over postMessage with the window that framed it,
// and with nothing else: ui/initialize, the tool's input and result the host sends, and tools/call
// (through the host, so every action passes the bridge's checkpoint like any other call). It shows
// the entities of the tool's result, or of an area, with their live state (read again every few
// seconds and after each action) and the controls that fit: a light's switch and brightness, a
// cover's position, a thermostat's target.

/** What the page may load and reach: its own inline script and style, nothing over the network. */
export const VIEW_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

const STYLE = `
:root { color-scheme: light dark; --fg: #1c1c1c; --muted: #6b6b6b; --bg: #fff; --card: #f4f6f8; --accent: #03a9f4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e1e1e1; --muted: #9b9b9b; --bg: #111; --card: #1c1f22; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 12px; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; margin-bottom: 8px; }
h1 { font-size: 16px; margin: 0; }
#status { color: var(--muted); font-size: 12px; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
li { background: var(--card); border-radius: 8px; padding: 8px 10px; display: grid; grid-template-columns: 1fr auto; gap: 4px 10px; align-items: center; }
.name { font-weight: 600; }
.state { color: var(--muted); font-size: 12px; }
.controls { grid-column: 1 / -1; display: flex; align-items: center; gap: 8px; }
.controls input[type=range] { flex: 1; }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid var(--muted); background: transparent; color: var(--fg); cursor: pointer; }
button[aria-checked=true] { background: var(--accent); border-color: var(--accent); color: #fff; }
.error { color: #db4437; font-size: 12px; grid-column: 1 / -1; }
.area { cursor: pointer; }
`;

// Written without template literals, so this module's own template holds it unchanged.
const SCRIPT = `
(function () {
  'use strict';
  var host = window.parent;
  var nextId = 1;
  var pending = {};
  var view = { area: null, ids: null, entities: [], areas: [], timer: null, busy: false };
  var list = document.getElementById('list');
  var title = document.getElementById('title');
  var status = document.getElementById('status');

  // Messages go to the window that framed the page and to nothing else.
  function send(message) { host.postMessage(message, '*'); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: '2.0', id: id, method: method, params: params || {} });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ jsonrpc: '2.0', method: method, params: params || {} }); }

  window.addEventListener('message', function (event) {
    if (event.source !== host) return;
    var m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id !== undefined && m.method === undefined) {
      var p = pending[m.id];
      if (!p) return;
      delete pending[m.id];
      if (m.error) p.reject(new Error(m.error.message || 'error')); else p.resolve(m.result);
      return;
    }
    if (m.method === 'ui/notifications/tool-input') takeInput((m.params && m.params.arguments) || {});
    else if (m.method === 'ui/notifications/tool-result') takeResult(m.params || {});
    else if (m.method === 'ui/notifications/host-context-changed') theme(m.params || {});
    else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
  });

  function theme(ctx) {
    if (ctx && (ctx.theme === 'dark' || ctx.theme === 'light')) document.documentElement.style.colorScheme = ctx.theme;
  }

  function takeInput(args) {
    if (typeof args.area === 'string') view.area = args.area;
    if (typeof args.entity_id === 'string') view.ids = [args.entity_id];
    else if (Array.isArray(args.entity_id)) view.ids = args.entity_id.slice(0, 50);
  }

  // The entities a tool's result names: its structuredContent's entities (or entity), else the input's.
  function takeResult(result) {
    var sc = result.structuredContent || {};
    var found = [];
    var rows = Array.isArray(sc.entities) ? sc.entities : Array.isArray(sc.results) ? sc.results : [];
    for (var i = 0; i < rows.length && found.length < 50; i++) if (rows[i] && typeof rows[i].entity_id === 'string') found.push(rows[i].entity_id);
    if (typeof sc.entity_id === 'string') found.push(sc.entity_id);
    if (found.length) view.ids = found;
    refresh();
  }

  function call(name, args) {
    return request('tools/call', { name: name, arguments: args }).then(function (r) {
      if (r && r.isError) throw new Error((r.content && r.content[0] && r.content[0].text) || 'the tool refused');
      return r;
    });
  }

  function refresh() {
    var args = {};
    if (view.ids && view.ids.length) args.entity_ids = view.ids; else if (view.area) args.area = view.area;
    return call('app_home_state', args).then(function (r) {
      var sc = r.structuredContent || {};
      view.entities = sc.entities || [];
      view.areas = sc.areas || [];
      title.textContent = sc.title || 'Home';
      status.textContent = 'live';
      render();
    }).catch(function (err) { status.textContent = err.message; });
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function act(row, name, args) {
    view.busy = true;
    status.textContent = 'working';
    call(name, args).then(refresh, function (err) {
      row.appendChild(el('div', { 'class': 'error', role: 'alert' }, err.message));
      status.textContent = 'refused';
    }).then(function () { view.busy = false; });
  }

  function render() {
    list.textContent = '';
    if (!view.entities.length) {
      for (var a = 0; a < view.areas.length; a++) (function (area) {
        var li = el('li', { 'class': 'area', 'data-area': area.area_id });
        li.appendChild(el('span', { 'class': 'name' }, area.name));
        li.appendChild(el('span', { 'class': 'state' }, area.count + ' entities'));
        li.addEventListener('click', function () { view.area = area.area_id; view.ids = null; refresh(); });
        list.appendChild(li);
      })(view.areas[a]);
    }
    for (var i = 0; i < view.entities.length; i++) list.appendChild(row(view.entities[i]));
    notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight });
  }

  function row(e) {
    var li = el('li', { 'data-entity': e.entity_id });
    li.appendChild(el('span', { 'class': 'name' }, e.name));
    li.appendChild(el('span', { 'class': 'state', 'data-state': e.state }, e.state + (e.area ? ' · ' + e.area : '')));
    var c = e.controls || {};
    var box = el('div', { 'class': 'controls' });
    if (c.kind === 'light') {
      var sw = el('button', { role: 'switch', 'aria-checked': String(e.state === 'on'), 'aria-label': 'Switch ' + e.name }, e.state === 'on' ? 'On' : 'Off');
      sw.addEventListener('click', function () { act(li, 'control_lights', { entity_id: e.entity_id, command: e.state === 'on' ? 'off' : 'on' }); });
      box.appendChild(sw);
      if (c.brightness_pct !== undefined) {
        var dim = el('input', { type: 'range', min: '1', max: '100', value: String(c.brightness_pct || 0), 'aria-label': 'Brightness of ' + e.name });
        dim.addEventListener('change', function () { act(li, 'control_lights', { entity_id: e.entity_id, command: 'on', brightness_pct: Number(dim.value) }); });
        box.appendChild(dim);
      }
    } else if (c.kind === 'cover') {
      var open = el('button', { 'aria-label': 'Open ' + e.name }, 'Open');
      open.addEventListener('click', function () { act(li, 'control_covers', { entity_id: e.entity_id, command: 'open' }); });
      var close = el('button', { 'aria-label': 'Close ' + e.name }, 'Close');
      close.addEventListener('click', function () { act(li, 'control_covers', { entity_id: e.entity_id, command: 'close' }); });
      box.appendChild(open);
      box.appendChild(close);
      if (c.position !== undefined) {
        var pos = el('input', { type: 'range', min: '0', max: '100', value: String(c.position || 0), 'aria-label': 'Position of ' + e.name });
        pos.addEventListener('change', function () { act(li, 'control_covers', { entity_id: e.entity_id, command: 'set_position', position: Number(pos.value) }); });
        box.appendChild(pos);
      }
    } else if (c.kind === 'climate') {
      var target = el('input', { type: 'number', min: String(c.min), max: String(c.max), step: String(c.step), value: c.target === null ? '' : String(c.target), 'aria-label': 'Target temperature of ' + e.name });
      var set = el('button', { 'aria-label': 'Set the target of ' + e.name }, 'Set ' + (c.unit || ''));
      set.addEventListener('click', function () { act(li, 'control_climate', { entity_id: e.entity_id, temperature: Number(target.value) }); });
      box.appendChild(target);
      box.appendChild(set);
    }
    if (box.childNodes.length) li.appendChild(box);
    return li;
  }

  request('ui/initialize', { appInfo: { name: 'home-mcp-bridge', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' }).then(function (r) {
    theme(r && r.hostContext);
    notify('ui/notifications/initialized');
    refresh();
    // Live: read again while shown; an action reads at once.
    view.timer = setInterval(function () { if (!view.busy && !document.hidden) refresh(); }, 3000);
  });
})();
`;

export const VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Home</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title">Home</h1><span id="status" aria-live="polite">connecting</span></header>
<ul id="list"></ul>
<script>${SCRIPT}</script>
</body>
</html>
`;
