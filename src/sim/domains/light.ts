// Lights as the hub's light integration runs them: the turn_on preprocessing (brightness_pct,
// steps, colour names, mireds), conversion into a colour mode the light supports, and state
// attributes that are present but null while the light is off. Before 2024.4 the lights keep their
// colour temperature in mireds (3000 K comes back as 3003 K) and do not clamp it to their range,
// as the 2024.3 demo lights do; before 2024.12 hs converts to rgb by truncating, not rounding.
import {
  COLOR_NAMES,
  type HS,
  type RGB,
  type RGBWW,
  type XY,
  colorNameToRgb,
  hsToRgb,
  hsToXy,
  kelvinToHs,
  kelvinToMired,
  kelvinToRgbww,
  miredToKelvin,
  pyRound,
  rgbToHs,
  rgbToRgbww,
  rgbToXy,
  rgbwwToRgb,
  xyToHs,
  xyToRgb,
} from '../color.js';
import { type DomainModule, finish } from '../domain.js';
import type { Hub } from '../hub.js';
import { all, any, clamp, coerceFloat, coerceInt, exactSequence, isPlainObject, literal, oneOf, range, reworded, string } from '../schema.js';
import type { EntityCtx, FieldDef } from '../services.js';
import { SINCE } from '../version.js';
import { byte, num, positiveInt, sel, smallFloat } from './common.js';

export const LIGHT_EFFECT = 4;
export const LIGHT_FLASH = 8;
export const LIGHT_TRANSITION = 32;

const BRIGHTNESS_MODES = new Set(['brightness', 'color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww', 'white']);
const COLOR_MODES = new Set(['hs', 'xy', 'rgb', 'rgbw', 'rgbww']);
const COLOR_GROUP = 'Color descriptors';

const VALID_TRANSITION = all(coerceFloat, clamp({ min: 0, max: 6553 }));
const VALID_BRIGHTNESS = all(coerceInt, clamp({ min: 0, max: 255 }));
const VALID_FLASH = oneOf(['short', 'long']);

const transition: FieldDef = {
  v: VALID_TRANSITION,
  name: 'Transition',
  description: 'Duration it takes to get to next state.',
  selector: sel.number(0, 300, { unit_of_measurement: 'seconds' }),
  filter: { supported_features: [LIGHT_TRANSITION] },
};
const flash: FieldDef = {
  v: VALID_FLASH,
  name: 'Flash',
  description: 'Tell light to flash, can be either value short or long.',
  section: 'advanced_fields',
  selector: sel.select(['long', 'short'], { translation_key: 'flash' }),
  legacyDescription: {
    selector: {
      select: {
        options: [
          { label: 'Long', value: 'long' },
          { label: 'Short', value: 'short' },
        ],
      },
    },
  },
  filter: { supported_features: [LIGHT_FLASH] },
};
const colorFilter = { attribute: { supported_color_modes: ['hs', 'xy', 'rgb', 'rgbw', 'rgbww'] } };
const ctFilter = { attribute: { supported_color_modes: ['color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww'] } };
const brightnessFilter = {
  attribute: { supported_color_modes: ['brightness', 'color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww'] },
};

const TURN_ON_FIELDS: Record<string, FieldDef> = {
  transition,
  rgb_color: {
    v: exactSequence([byte, byte, byte]),
    exclusive: COLOR_GROUP,
    name: 'Color',
    description: 'The color in RGB format. A list of three integers between 0 and 255 representing the values of red, green, and blue.',
    example: '[255, 100, 100]',
    selector: { color_rgb: null },
    legacyDescription: { example: null },
    filter: colorFilter,
  },
  rgbw_color: {
    v: exactSequence([byte, byte, byte, byte]),
    exclusive: COLOR_GROUP,
    name: 'RGBW-color',
    description: 'The color in RGBW format. A list of four integers between 0 and 255 representing the values of red, green, blue, and white.',
    example: '[255, 100, 100, 50]',
    section: 'advanced_fields',
    selector: sel.object(),
    filter: colorFilter,
  },
  rgbww_color: {
    v: exactSequence([byte, byte, byte, byte, byte]),
    exclusive: COLOR_GROUP,
    name: 'RGBWW-color',
    description:
      'The color in RGBWW format. A list of five integers between 0 and 255 representing the values of red, green, blue, cold white, and warm white.',
    example: '[255, 100, 100, 50, 70]',
    section: 'advanced_fields',
    selector: sel.object(),
    filter: colorFilter,
  },
  color_name: {
    v: string,
    exclusive: COLOR_GROUP,
    name: 'Color name',
    description: 'A human-readable color name.',
    section: 'advanced_fields',
    selector: sel.select([...COLOR_NAMES], { translation_key: 'color_name' }),
    filter: colorFilter,
  },
  hs_color: {
    v: exactSequence([all(coerceFloat, range({ min: 0, max: 360 })), all(coerceFloat, range({ min: 0, max: 100 }))]),
    exclusive: COLOR_GROUP,
    name: 'Hue/Sat color',
    description: 'Color in hue/sat format. A list of two integers. Hue is 0-360 and Sat is 0-100.',
    example: '[300, 70]',
    section: 'advanced_fields',
    selector: sel.object(),
    filter: colorFilter,
  },
  xy_color: {
    v: exactSequence([smallFloat, smallFloat]),
    exclusive: COLOR_GROUP,
    name: 'XY-color',
    description: 'Color in XY-format. A list of two decimal numbers between 0 and 1.',
    example: '[0.52, 0.43]',
    section: 'advanced_fields',
    selector: sel.object(),
    filter: colorFilter,
  },
  color_temp_kelvin: {
    v: positiveInt,
    exclusive: COLOR_GROUP,
    name: 'Color temperature',
    description: 'Color temperature in Kelvin.',
    selector: { color_temp: { unit: 'kelvin', min: 2000, max: 6500 } },
    filter: ctFilter,
    describedBy: 'modern',
  },
  color_temp: {
    v: all(coerceInt, range({ min: 1 })),
    exclusive: COLOR_GROUP,
    name: 'Color temperature (mireds)',
    description: 'Color temperature in mireds.',
    section: 'advanced_fields',
    legacyDescription: { advanced: false },
    selector: { color_temp: { unit: 'mired', min: 153, max: 500 } },
    filter: ctFilter,
  },
  kelvin: {
    v: positiveInt,
    exclusive: COLOR_GROUP,
    name: 'Color temperature (Kelvin)',
    description: 'Color temperature in Kelvin (deprecated alias of color_temp_kelvin).',
    advanced: true,
    selector: { color_temp: { unit: 'kelvin', min: 2000, max: 6500 } },
    filter: ctFilter,
    describedBy: 'legacy',
  },
  brightness: {
    v: VALID_BRIGHTNESS,
    exclusive: 'brightness',
    name: 'Brightness value',
    description: 'Number indicating brightness, where 0 turns the light off, 1 is the minimum brightness, and 255 is the maximum brightness.',
    section: 'advanced_fields',
    selector: sel.number(0, 255),
    filter: brightnessFilter,
  },
  brightness_pct: {
    v: reworded(all(coerceFloat, range({ min: 0, max: 100 })), 'expected a percentage between 0 and 100'),
    exclusive: 'brightness',
    name: 'Brightness',
    description:
      'Number indicating the percentage of full brightness, where 0 turns the light off, 1 is the minimum brightness, and 100 is the maximum brightness.',
    selector: sel.number(0, 100, { unit_of_measurement: '%' }),
    filter: brightnessFilter,
  },
  brightness_step: {
    v: all(coerceInt, clamp({ min: -255, max: 255 })),
    exclusive: 'brightness',
    name: 'Brightness step value',
    description: 'Change brightness by an amount.',
    section: 'advanced_fields',
    selector: sel.number(-225, 255),
    filter: brightnessFilter,
  },
  brightness_step_pct: {
    v: all(coerceFloat, clamp({ min: -100, max: 100 })),
    exclusive: 'brightness',
    name: 'Brightness step',
    description: 'Change brightness by a percentage.',
    selector: sel.number(-100, 100, { unit_of_measurement: '%' }),
    filter: brightnessFilter,
  },
  white: {
    v: any(literal(true), VALID_BRIGHTNESS),
    exclusive: COLOR_GROUP,
    name: 'White',
    description: 'Set the light to white mode.',
    section: 'advanced_fields',
    selector: { constant: { value: true, label: 'Enabled' } },
    filter: { attribute: { supported_color_modes: ['white'] } },
  },
  profile: {
    v: string,
    exclusive: COLOR_GROUP,
    name: 'Profile',
    description: 'Name of a light profile to use.',
    example: 'relax',
    section: 'advanced_fields',
    selector: sel.text(),
  },
  flash,
  effect: {
    v: string,
    name: 'Effect',
    description: 'Light effect.',
    selector: sel.text(),
    currentSelector: { state: { attribute: 'effect', multiple: false } },
    filter: { supported_features: [LIGHT_EFFECT] },
  },
};

/** 2026.11 has no mireds: color_temp and kelvin are not fields any more ("not a valid option"). */
const MIRED_FIELDS = new Set(['color_temp', 'kelvin']);
const kelvinOnlyFields = (fields: Record<string, FieldDef>): Record<string, FieldDef> =>
  Object.fromEntries(Object.entries(fields).filter(([k]) => !MIRED_FIELDS.has(k)));

/** toggle takes what turn_on takes; 2024.3 leaves the brightness steps and rgbw/rgbww undescribed. */
const TOGGLE_FIELDS: Record<string, FieldDef> = Object.fromEntries(
  Object.entries(TURN_ON_FIELDS).map(([k, f]) => [
    k,
    ['brightness_step', 'brightness_step_pct', 'rgbw_color', 'rgbww_color'].includes(k) ? { ...f, describedBy: 'modern' as const } : f,
  ]),
);

interface Model {
  brightness: number | null;
  colorMode: string | null;
  hs?: HS;
  xy?: XY;
  rgb?: RGB;
  rgbw?: [number, number, number, number];
  rgbww?: RGBWW;
  kelvin?: number;
  effect?: string | null;
}

/** How this hub's version rounds (see the top of the file). */
interface Rules {
  truncate: boolean;
  mireds: boolean;
  /** No mired attributes, and a colour temperature kept as it was given (2026.11). */
  kelvinOnly: boolean;
}

const rulesOf = (hub: Hub): Rules => ({ truncate: !hub.since(SINCE.roundedHsvToRgb), mireds: hub.legacy, kelvinOnly: hub.since(SINCE.kelvinOnly) });

const modesOf = (attrs: Record<string, unknown>): string[] =>
  Array.isArray(attrs.supported_color_modes) ? (attrs.supported_color_modes as string[]) : ['onoff'];
const brightnessSupported = (modes: string[]) => modes.some((m) => BRIGHTNESS_MODES.has(m));
const colorSupported = (modes: string[]) => modes.some((m) => COLOR_MODES.has(m));
const kelvinRange = (attrs: Record<string, unknown>): [number, number] => [num(attrs.min_color_temp_kelvin, 2000), num(attrs.max_color_temp_kelvin, 6535)];

function defaultMode(modes: string[]): string {
  for (const m of ['color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww', 'white', 'brightness']) if (modes.includes(m)) return m;
  return 'onoff';
}

/** color_rgbw_to_rgb: add white, then scale back to the input's maximum. */
function rgbwToRgb(r: number, g: number, b: number, w: number): RGB {
  const out = [r + w, g + w, b + w];
  const maxIn = Math.max(r, g, b, w);
  const maxOut = Math.max(...out);
  const factor = maxOut === 0 ? 0 : maxIn / maxOut;
  return out.map((c) => pyRound(c * factor)) as RGB;
}

/** color_rgb_to_rgbw: take the common white out of the three channels, then rescale. */
function rgbToRgbw(r: number, g: number, b: number): [number, number, number, number] {
  const w = Math.min(r, g, b);
  const raw = [r - w, g - w, b - w, w];
  const maxIn = Math.max(r, g, b);
  const maxOut = Math.max(...raw);
  const factor = maxOut === 0 ? 0 : maxIn / maxOut;
  return raw.map((c) => pyRound(c * factor)) as [number, number, number, number];
}

function readModel(attrs: Record<string, unknown>): Model {
  const m: Model = {
    brightness: typeof attrs.brightness === 'number' ? attrs.brightness : null,
    colorMode: typeof attrs.color_mode === 'string' ? attrs.color_mode : null,
    effect: typeof attrs.effect === 'string' ? attrs.effect : null,
  };
  if (Array.isArray(attrs.hs_color)) m.hs = attrs.hs_color as HS;
  if (Array.isArray(attrs.xy_color)) m.xy = attrs.xy_color as XY;
  if (Array.isArray(attrs.rgb_color)) m.rgb = attrs.rgb_color as RGB;
  if (Array.isArray(attrs.rgbw_color)) m.rgbw = attrs.rgbw_color as [number, number, number, number];
  if (Array.isArray(attrs.rgbww_color)) m.rgbww = attrs.rgbww_color as RGBWW;
  if (typeof attrs.color_temp_kelvin === 'number') m.kelvin = attrs.color_temp_kelvin;
  else if (typeof attrs.color_temp === 'number' && attrs.color_temp > 0) m.kelvin = miredToKelvin(attrs.color_temp);
  return m;
}

/** LightEntity._light_internal_convert_color: the other colour spaces of the current colour. */
function convertColor(mode: string, m: Model, rules: Rules, [minK, maxK]: [number, number]): Record<string, unknown> {
  const fromRgb = (rgb: RGB) => ({ hs_color: rgbToHs(...rgb), rgb_color: rgb.map(Math.trunc), xy_color: rgbToXy(...rgb) });
  if (mode === 'hs' && m.hs) {
    const [h, s] = m.hs;
    return { hs_color: [pyRound(h, 3), pyRound(s, 3)], rgb_color: hsToRgb(h, s, rules.truncate), xy_color: hsToXy(h, s, rules.truncate) };
  }
  if (mode === 'xy' && m.xy) {
    const [x, y] = m.xy;
    return { hs_color: xyToHs(x, y), rgb_color: xyToRgb(x, y), xy_color: [pyRound(x, 6), pyRound(y, 6)] };
  }
  if (mode === 'rgb' && m.rgb) return fromRgb(m.rgb);
  if (mode === 'rgbw' && m.rgbw) return { ...fromRgb(rgbwToRgb(...m.rgbw)), rgbw_color: m.rgbw.map(Math.trunc) };
  if (mode === 'rgbww' && m.rgbww) {
    const [r, g, b, cw, ww] = m.rgbww;
    return { ...fromRgb(rgbwwToRgb(r, g, b, cw, ww, minK, maxK)), rgbww_color: m.rgbww.map(Math.trunc) };
  }
  if (mode === 'color_temp' && m.kelvin) {
    const [h, s] = kelvinToHs(m.kelvin);
    return { hs_color: [pyRound(h, 3), pyRound(s, 3)], rgb_color: hsToRgb(h, s, rules.truncate), xy_color: hsToXy(h, s, rules.truncate) };
  }
  return {};
}

/** The light's full attribute set: capabilities, then state attributes (null while off). */
function render(base: Record<string, unknown>, on: boolean, m: Model, rules: Rules): Record<string, unknown> {
  const modes = modesOf(base);
  const features = num(base.supported_features, 0);
  const out: Record<string, unknown> = { ...base };
  const [minK, maxK] = kelvinRange(base);
  if (modes.includes('color_temp')) {
    out.min_color_temp_kelvin = minK;
    out.max_color_temp_kelvin = maxK;
    if (!rules.kelvinOnly) {
      out.min_mireds = kelvinToMired(maxK);
      out.max_mireds = kelvinToMired(minK);
    }
  }
  if (features & LIGHT_EFFECT) out.effect_list = Array.isArray(base.effect_list) ? base.effect_list : [];
  out.supported_color_modes = [...modes].sort();
  const mode = on ? m.colorMode : null;
  if (features & LIGHT_EFFECT) out.effect = on ? (m.effect ?? null) : null;
  out.color_mode = mode;
  if (brightnessSupported(modes)) out.brightness = mode && BRIGHTNESS_MODES.has(mode) ? m.brightness : null;
  if (modes.includes('color_temp')) {
    const k = mode === 'color_temp' ? (m.kelvin ?? null) : null;
    out.color_temp_kelvin = k;
    if (!rules.kelvinOnly) out.color_temp = k ? kelvinToMired(k) : null;
  }
  if (colorSupported(modes) || modes.includes('color_temp')) {
    out.hs_color = null;
    out.rgb_color = null;
    out.xy_color = null;
    if (modes.includes('rgbw')) out.rgbw_color = null;
    if (modes.includes('rgbww')) out.rgbww_color = null;
    if (mode) Object.assign(out, convertColor(mode, m, rules, [minK, maxK]));
  }
  return finish(out, String(base.friendly_name ?? ''), features);
}

function remember(e: EntityCtx, m: Model): void {
  e.memory.last = { ...m };
}

function turnOff(e: EntityCtx): void {
  if (e.state.state === 'on') remember(e, readModel(e.attrs));
  e.write('off', render(e.attrs, false, readModel(e.attrs), rulesOf(e.hub)));
}

/** async_handle_light_on_service: a given colour converted into a space the light supports. */
function convertParams(p: Record<string, unknown>, modes: string[], brightness: number | null, [minK, maxK]: [number, number], rules: Rules): void {
  const has = (m: string) => modes.includes(m);
  const tr = rules.truncate;
  // A colour temperature on a light without one is emulated: with both whites, or with a colour.
  if (typeof p.color_temp_kelvin === 'number' && !has('color_temp')) {
    const k = p.color_temp_kelvin;
    delete p.color_temp_kelvin;
    if (has('rgbww')) p.rgbww_color = kelvinToRgbww(k, typeof p.brightness === 'number' ? p.brightness : (brightness ?? 255), minK, maxK);
    else if (colorSupported(modes)) p.hs_color = kelvinToHs(k);
  }
  /** An rgb colour into the first space the light has, as the hub's elif chains order them. */
  const fromRgb = (rgb: RGB, skip: string) => {
    if (skip !== 'rgb' && has('rgb')) p.rgb_color = rgb;
    else if (skip !== 'rgbw' && has('rgbw')) p.rgbw_color = rgbToRgbw(...rgb);
    else if (skip !== 'rgbww' && has('rgbww')) p.rgbww_color = rgbToRgbww(...rgb, minK, maxK);
    else if (skip !== 'hs' && has('hs')) p.hs_color = rgbToHs(...rgb);
    else if (skip !== 'xy' && has('xy')) p.xy_color = rgbToXy(...rgb);
  };
  if (p.hs_color && !has('hs')) {
    const [h, s] = p.hs_color as HS;
    delete p.hs_color;
    if (has('rgb') || has('rgbw') || has('rgbww')) fromRgb(hsToRgb(h, s, tr), 'hs');
    else if (has('xy')) p.xy_color = hsToXy(h, s, tr);
  } else if (p.rgb_color && !has('rgb')) {
    const rgb = p.rgb_color as RGB;
    delete p.rgb_color;
    fromRgb(rgb, 'rgb');
  } else if (p.xy_color && !has('xy')) {
    const [x, y] = p.xy_color as XY;
    delete p.xy_color;
    if (has('hs')) p.hs_color = xyToHs(x, y);
    else fromRgb(xyToRgb(x, y), 'xy');
  } else if (p.rgbw_color && !has('rgbw')) {
    const rgb = rgbwToRgb(...(p.rgbw_color as [number, number, number, number]));
    delete p.rgbw_color;
    fromRgb(rgb, 'rgbw');
  } else if (p.rgbww_color && !has('rgbww')) {
    const [r, g, b, cw, ww] = p.rgbww_color as RGBWW;
    delete p.rgbww_color;
    fromRgb(rgbwwToRgb(r, g, b, cw, ww, minK, maxK), 'rgbww');
  }
}

function turnOn(e: EntityCtx): void {
  const p: Record<string, unknown> = { ...e.params };
  const on = e.state.state === 'on';
  const current = readModel(e.attrs);
  const modes = modesOf(e.attrs);
  const features = e.features;
  const rules = rulesOf(e.hub);
  const range = kelvinRange(e.attrs);

  if ('brightness_step' in p || 'brightness_step_pct' in p) {
    let b = on && current.brightness ? current.brightness : 0;
    b += 'brightness_step' in p ? (p.brightness_step as number) : pyRound(((p.brightness_step_pct as number) / 100) * 255);
    p.brightness = Math.max(0, Math.min(255, b));
    delete p.brightness_step;
    delete p.brightness_step_pct;
  }
  // preprocess_turn_on_alternatives
  delete p.profile;
  if (typeof p.color_name === 'string') {
    const rgb = colorNameToRgb(p.color_name);
    if (!rgb) e.hub.log.warn(`Got unknown color ${p.color_name}, falling back to white`);
    p.rgb_color = rgb ?? [255, 255, 255];
    delete p.color_name;
  }
  if (typeof p.color_temp === 'number') p.color_temp_kelvin = miredToKelvin(p.color_temp);
  if (typeof p.kelvin === 'number') p.color_temp_kelvin = p.kelvin;
  delete p.color_temp;
  delete p.kelvin;
  if (typeof p.brightness_pct === 'number') p.brightness = pyRound((255 * p.brightness_pct) / 100);
  delete p.brightness_pct;

  convertParams(p, modes, on ? current.brightness : null, range, rules);
  if (p.white !== undefined) {
    if (modes.includes('white')) {
      if (p.white !== true && p.brightness === undefined) p.brightness = p.white;
    } else delete p.white;
  }
  if (p.brightness === 0 || p.white === 0) {
    turnOff(e);
    return;
  }
  if (!(features & LIGHT_EFFECT)) delete p.effect;
  if (!brightnessSupported(modes)) delete p.brightness;

  const last = (e.memory.last as Model | undefined) ?? null;
  const m: Model = on ? current : { ...(last ?? { brightness: null, colorMode: null }) };
  if (typeof p.brightness === 'number') m.brightness = p.brightness;
  else if (!on || m.brightness === null) m.brightness = brightnessSupported(modes) ? (last?.brightness ?? 255) : null;
  const [minK, maxK] = range;
  if (typeof p.color_temp_kelvin === 'number') {
    m.colorMode = 'color_temp';
    // Older lights keep mireds (and take any value); 2025 ones keep kelvin within their range;
    // 2026.11's keep kelvin as given.
    m.kelvin = rules.mireds
      ? miredToKelvin(kelvinToMired(p.color_temp_kelvin))
      : rules.kelvinOnly
        ? p.color_temp_kelvin
        : Math.max(minK, Math.min(maxK, p.color_temp_kelvin));
  } else if (p.hs_color) {
    m.colorMode = 'hs';
    m.hs = p.hs_color as HS;
  } else if (p.rgb_color) {
    m.colorMode = 'rgb';
    m.rgb = p.rgb_color as RGB;
  } else if (p.xy_color) {
    m.colorMode = 'xy';
    m.xy = p.xy_color as XY;
  } else if (p.rgbw_color) {
    m.colorMode = 'rgbw';
    m.rgbw = p.rgbw_color as [number, number, number, number];
  } else if (p.rgbww_color) {
    m.colorMode = 'rgbww';
    m.rgbww = p.rgbww_color as RGBWW;
  } else if (p.white !== undefined) {
    m.colorMode = 'white';
  }
  fillDefaults(m, modes, range);
  if (typeof p.effect === 'string') m.effect = p.effect;
  remember(e, m);
  e.write('on', render(e.attrs, true, m, rules));
}

/** A colour mode the light supports, with a colour in it. */
function fillDefaults(m: Model, modes: string[], [minK, maxK]: [number, number]): void {
  if (!m.colorMode || !modes.includes(m.colorMode)) m.colorMode = defaultMode(modes);
  if (m.colorMode === 'color_temp' && !m.kelvin) m.kelvin = Math.max(minK, Math.min(maxK, 3000));
  if (m.colorMode === 'hs' && !m.hs) m.hs = [0, 0];
  if (m.colorMode === 'rgbw' && !m.rgbw) m.rgbw = [0, 0, 0, 255];
  if (m.colorMode === 'rgbww' && !m.rgbww) m.rgbww = [0, 0, 0, 255, 255];
}

const withoutNulls = (m: Model): Partial<Model> => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== null && v !== undefined));

export const light: DomainModule = {
  domain: 'light',
  init(seed, hub) {
    const a = seed.attributes;
    const modes = Array.isArray(a.supported_color_modes) ? (a.supported_color_modes as string[]) : ['color_temp', 'hs'];
    a.supported_color_modes = modes;
    const features = num(a.supported_features, LIGHT_TRANSITION | (Array.isArray(a.effect_list) ? LIGHT_EFFECT : 0));
    a.supported_features = features;
    a.friendly_name ??= seed.name;
    const state = seed.state ?? 'off';
    const on = state === 'on';
    const m = readModel(a);
    if (!m.colorMode || !modes.includes(m.colorMode)) {
      m.colorMode = defaultMode(modes);
      if (m.hs && modes.includes('hs')) m.colorMode = 'hs';
    }
    if (m.brightness === null && brightnessSupported(modes)) m.brightness = 255;
    fillDefaults(m, modes, kelvinRange(a));
    // What a light declared off comes back on with; config.when_on overrides it (the demo's bed
    // light comes on at 180 with its rainbow effect).
    const back = on || !isPlainObject(seed.config.when_on) ? m : { ...m, ...withoutNulls(readModel(seed.config.when_on)) };
    hub.memory(seed.entityId).last = { ...back };
    return { state, attributes: render(a, on, m, rulesOf(hub)) };
  },
  setup(hub: Hub) {
    const kelvinOnly = hub.since(SINCE.kelvinOnly);
    hub.services.register('light', 'turn_on', {
      name: 'Turn on',
      description: 'Turns on one or more lights and adjusts their properties, even when they are turned on already.',
      fields: kelvinOnly ? kelvinOnlyFields(TURN_ON_FIELDS) : TURN_ON_FIELDS,
      handle: turnOn,
    });
    hub.services.register('light', 'turn_off', {
      name: 'Turn off',
      description: 'Turns off one or more lights.',
      fields: { transition, flash },
      handle: turnOff,
    });
    hub.services.register('light', 'toggle', {
      name: 'Toggle',
      description: 'Toggles one or more lights, from on to off, or off to on, based on their current state.',
      // 2026.11's toggle describes rgbw and rgbww again, but still not the brightness steps.
      fields: kelvinOnly
        ? Object.fromEntries(
            Object.entries(kelvinOnlyFields(TURN_ON_FIELDS)).map(([k, f]) => [
              k,
              k === 'brightness_step' || k === 'brightness_step_pct' ? { ...f, hidden: true } : f,
            ]),
          )
        : TOGGLE_FIELDS,
      handle: (e) => (e.state.state === 'on' ? turnOff(e) : turnOn(e)),
    });
  },
};
