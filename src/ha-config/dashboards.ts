// Changes to a Lovelace dashboard's config, view by view and card by card: which part a change
// addresses, the whole config after it, and the part whose entities and actions are judged. Pure.
import { AppError, invalidParameters } from '../errors.js';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

export interface DashboardChange {
  op: 'create' | 'update' | 'delete';
  /** A view by its index, its path or its title. */
  view?: number | string;
  /** A card by its index in the view. */
  card?: number;
  config?: Json;
}

export interface DashboardEdit {
  /** The dashboard's whole config after the change. */
  after: Json;
  /** The part written (a card, a view, the whole), whose entities and actions are judged; null for a removal. */
  written: Json | null;
  /** In words: "adds a tile card to view Home". */
  words: string;
}

const viewName = (v: Json, i: number) => (typeof v.title === 'string' ? `"${v.title}"` : typeof v.path === 'string' ? v.path : `#${i}`);
const cardName = (c: Json) => `${typeof c.type === 'string' ? c.type : 'a'} card${typeof c.entity === 'string' ? ` (${c.entity})` : ''}`;

function viewsOf(config: Json): Json[] {
  const views = config.views ?? [];
  if (!Array.isArray(views) || !views.every(isObject))
    throw new AppError('HUB_ERROR', 409, "The dashboard's config has no list of views the bridge can edit; change it in Home Assistant", { field: 'views' });
  return views as Json[];
}

function findView(views: Json[], view: number | string): number {
  if (typeof view === 'number') {
    if (Number.isInteger(view) && view >= 0 && view < views.length) return view;
  } else {
    const word = view.trim().toLowerCase();
    const i = views.findIndex(
      (v) => (typeof v.path === 'string' && v.path.toLowerCase() === word) || (typeof v.title === 'string' && v.title.toLowerCase() === word),
    );
    if (i >= 0) return i;
  }
  const known = views.map((v, i) => `${i}: ${viewName(v, i)}`).join(', ') || 'none';
  throw new AppError('NOT_FOUND', 404, `The dashboard has no view ${JSON.stringify(view)}; its views are ${known}`, {
    field: 'view',
    views: views.map((v, i) => ({ index: i, title: v.title ?? null, path: v.path ?? null })),
  });
}

function cardsOf(view: Json): Json[] {
  if ('sections' in view && !('cards' in view)) {
    throw invalidParameters('view: this view holds sections, not cards; the bridge edits views with cards (change the whole view with update instead)', {
      field: 'view',
    });
  }
  const cards = view.cards ?? [];
  if (!Array.isArray(cards)) throw invalidParameters('view: its cards are not a list', { field: 'view' });
  return cards as Json[];
}

function checkCard(card: unknown): Json {
  if (!isObject(card) || typeof card.type !== 'string' || !card.type)
    throw invalidParameters('config: a card is an object with a type, such as {"type": "tile", "entity": "light.kitchen"}', { field: 'config' });
  return card;
}

function checkView(view: unknown): Json {
  if (!isObject(view)) throw invalidParameters('config: a view is an object, such as {"title": "Home", "cards": []}', { field: 'config' });
  if (view.cards !== undefined) (Array.isArray(view.cards) ? view.cards : [view.cards]).forEach(checkCard);
  return view;
}

/** The dashboard after a change; `current` is its config now (null: none saved yet). */
export function editDashboard(current: Json | null, change: DashboardChange): DashboardEdit {
  const base: Json = structuredClone(current ?? { views: [] });
  const views = viewsOf(base);
  base.views = views;
  const { op, view, card, config } = change;
  if (card !== undefined && view === undefined) throw invalidParameters('card: say which view it is in (view)', { field: 'card' });
  if (op !== 'delete' && config === undefined)
    throw invalidParameters(
      `config: ${op} needs the ${view === undefined ? (op === 'create' ? 'view' : 'dashboard') : op === 'create' || card !== undefined ? 'card' : 'view'} to write`,
      { field: 'config' },
    );
  if (op === 'delete' && config !== undefined) throw invalidParameters('config: delete takes none', { field: 'config' });

  if (view === undefined) {
    if (op === 'create') {
      const v = checkView(config);
      views.push(v);
      return { after: base, written: v, words: `adds view ${viewName(v, views.length - 1)}` };
    }
    if (op === 'update') {
      if (!isObject(config) || !Array.isArray(config.views))
        throw invalidParameters('config: a whole dashboard is an object with a list of views', { field: 'config' });
      viewsOf(config).forEach(checkView);
      return { after: structuredClone(config), written: config, words: 'replaces the whole dashboard' };
    }
    throw invalidParameters('view: say which view (or view and card) to remove; a whole dashboard is removed in Home Assistant', { field: 'view' });
  }
  const vi = findView(views, view);
  const target = views[vi]!;
  const where = `view ${viewName(target, vi)}`;
  if (op === 'create') {
    const c = checkCard(config);
    const cards = cardsOf(target);
    const at = card === undefined ? cards.length : card;
    if (!Number.isInteger(at) || at < 0 || at > cards.length)
      throw invalidParameters(`card: where to add it is 0 to ${cards.length} in ${where}`, { field: 'card' });
    cards.splice(at, 0, c);
    target.cards = cards;
    return { after: base, written: c, words: `adds ${cardName(c)} to ${where} at position ${at}` };
  }
  if (card === undefined) {
    if (op === 'update') {
      const v = checkView(config);
      views[vi] = v;
      return { after: base, written: v, words: `replaces ${where}` };
    }
    views.splice(vi, 1);
    return { after: base, written: null, words: `removes ${where}` };
  }
  const cards = cardsOf(target);
  if (!Number.isInteger(card) || card < 0 || card >= cards.length) {
    throw new AppError('NOT_FOUND', 404, `${where} has no card ${card}; it has ${cards.length} (0 to ${cards.length - 1})`, {
      field: 'card',
      cards: cards.map((c, i) => ({ index: i, type: c.type ?? null, entity: c.entity ?? null })),
    });
  }
  const old = cards[card]!;
  if (op === 'update') {
    const c = checkCard(config);
    cards[card] = c;
    return { after: base, written: c, words: `replaces card ${card} (${cardName(old)}) of ${where} with ${cardName(c)}` };
  }
  cards.splice(card, 1);
  return { after: base, written: null, words: `removes card ${card} (${cardName(old)}) from ${where}` };
}
