// Config changes: the versions the bridge kept of Home Assistant's automations, scripts, helpers
// and dashboards, each with its diff and a button that puts it back (previewed, then confirmed).
import { api } from './api.js';
import { $, ago, el, toast } from './dom.js';

/** A unified diff as lines coloured by kind; text only. */
function diffBlock(diff) {
  return el(
    'pre',
    { class: 'diff' },
    ...diff.split('\n').map((line) =>
      el(
        'span',
        {
          class: line.startsWith('@@')
            ? 'hunk'
            : line.startsWith('+') && !line.startsWith('+++')
              ? 'add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'del'
                : undefined,
        },
        `${line}\n`,
      ),
    ),
  );
}

async function restore(v) {
  try {
    const preview = await api(`api/ha-config-versions/${v.id}/restore`, { method: 'POST', body: { dry_run: true } });
    if (preview.change === 'unchanged') return toast(`${v.kind} ${v.item} is already as version ${v.id} has it`);
    const ok = confirm(`${preview.summary}\n\n${preview.diff.split('\n').slice(0, 30).join('\n')}\n\nPut this version back?`);
    if (!ok) return;
    const done = await api(`api/ha-config-versions/${v.id}/restore`, {
      method: 'POST',
      body: { confirm: true, reason: 'put back from the panel', preview_id: preview.preview_id },
    });
    toast(`Put back: ${done.summary}`);
    await loadConfigChanges();
  } catch (err) {
    toast(err.message, 'error');
  }
}

export async function loadConfigChanges() {
  const [{ versions }, config] = await Promise.all([api('api/ha-config-versions?limit=30'), api('api/config')]);
  $('#config-editing').textContent = config.features?.config_editing
    ? 'Config editing is on (CONFIG_EDITING).'
    : 'Config editing is off (CONFIG_EDITING): changes, and putting one back, are refused until a person turns it on in the bridge’s settings.';
  $('#config-list').replaceChildren(
    ...(versions.length
      ? versions.map((v) =>
          el(
            'li',
            {},
            el('span', { class: 'name' }, `${v.kind} ${v.item}`),
            el('span', {}, `${v.change} ${ago(v.created_at)}${v.actor ? ` by ${v.actor}` : ''}${v.reason ? `: “${v.reason}”` : ''}`),
            el('button', { class: 'small secondary', onclick: () => restore(v) }, 'Put back'),
            el('span', { class: 'id' }, v.summary ?? v.words.join('; ')),
            v.diff ? el('details', {}, el('summary', {}, 'Diff'), diffBlock(v.diff)) : null,
          ),
        )
      : [el('li', { class: 'muted' }, 'No changes yet.')]),
  );
}
