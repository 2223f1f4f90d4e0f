// Colour conversions with the hub's formulas and rounding (homeassistant.util.color), and the
// colour names that light.turn_on's color_name accepts (the CSS names).

/** Python's round(): half to even. */
export function pyRound(x: number, digits = 0): number {
  const m = 10 ** digits;
  const y = x * m;
  let r = Math.round(y);
  if (Math.abs(y % 1) === 0.5) r = 2 * Math.round(y / 2);
  return r / m;
}

const mod1 = (x: number) => ((x % 1) + 1) % 1;

/** colorsys.rgb_to_hsv on 0..1 components. */
function rgbToHsv(r: number, g: number, b: number): [number, number, number] {
  const maxc = Math.max(r, g, b);
  const minc = Math.min(r, g, b);
  if (maxc === minc) return [0, 0, maxc];
  const range = maxc - minc;
  const s = range / maxc;
  const rc = (maxc - r) / range;
  const gc = (maxc - g) / range;
  const bc = (maxc - b) / range;
  let h: number;
  if (r === maxc) h = bc - gc;
  else if (g === maxc) h = 2 + rc - bc;
  else h = 4 + gc - rc;
  return [mod1(h / 6), s, maxc];
}

/** colorsys.hsv_to_rgb on 0..1 components. */
function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  if (s === 0) return [v, v, v];
  let i = Math.trunc(h * 6);
  const f = h * 6 - i;
  const p = v * (1 - s);
  const q = v * (1 - s * f);
  const t = v * (1 - s * (1 - f));
  i %= 6;
  switch (i) {
    case 0:
      return [v, t, p];
    case 1:
      return [q, v, p];
    case 2:
      return [p, v, t];
    case 3:
      return [p, q, v];
    case 4:
      return [t, p, v];
    default:
      return [v, p, q];
  }
}

export type RGB = [number, number, number];
export type HS = [number, number];
export type XY = [number, number];

export function rgbToHs(r: number, g: number, b: number): HS {
  const [h, s] = rgbToHsv(r / 255, g / 255, b / 255);
  return [pyRound(h * 360, 3), pyRound(s * 100, 3)];
}

/** color_hs_to_RGB: channels rounded from 2024.12, truncated before (`truncate`). */
export function hsToRgb(h: number, s: number, truncate = false): RGB {
  const [r, g, b] = hsvToRgb(h / 360, s / 100, 1);
  const to255 = truncate ? (c: number) => Math.trunc(c * 255) : (c: number) => pyRound(c * 255);
  return [to255(r), to255(g), to255(b)];
}

const gammaIn = (c: number) => (c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92);
const gammaOut = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

export function rgbToXy(r: number, g: number, b: number): XY {
  if (r + g + b === 0) return [0, 0];
  const R = gammaIn(r / 255);
  const G = gammaIn(g / 255);
  const B = gammaIn(b / 255);
  // Wide RGB D65
  const X = R * 0.664511 + G * 0.154324 + B * 0.162028;
  const Y = R * 0.283881 + G * 0.668433 + B * 0.047685;
  const Z = R * 0.000088 + G * 0.07231 + B * 0.986039;
  const sum = X + Y + Z;
  return [pyRound(X / sum, 3), pyRound(Y / sum, 3)];
}

export function xyToRgb(x: number, yIn: number): RGB {
  const y = yIn === 0 ? 1e-11 : yIn;
  const Y = 1;
  const X = (Y / y) * x;
  const Z = (Y / y) * (1 - x - y);
  let r = X * 1.656492 - Y * 0.354851 - Z * 0.255038;
  let g = -X * 0.707196 + Y * 1.655397 + Z * 0.036152;
  let b = X * 0.051713 - Y * 0.121364 + Z * 1.01153;
  [r, g, b] = [r, g, b].map((c) => Math.max(0, gammaOut(c))) as RGB;
  const max = Math.max(r, g, b);
  if (max > 1) [r, g, b] = [r / max, g / max, b / max];
  return [Math.trunc(r * 255), Math.trunc(g * 255), Math.trunc(b * 255)];
}

export const xyToHs = (x: number, y: number): HS => rgbToHs(...xyToRgb(x, y));
export const hsToXy = (h: number, s: number, truncate = false): XY => rgbToXy(...hsToRgb(h, s, truncate));

const clamp255 = (c: number) => Math.max(0, Math.min(255, c));

/** Tanner Helland's black-body approximation, as color_temperature_to_rgb does it. */
export function kelvinToRgb(kelvin: number): RGB {
  const t = Math.max(1000, Math.min(40000, kelvin)) / 100;
  const red = t <= 66 ? 255 : clamp255(329.698727446 * (t - 60) ** -0.1332047592);
  const green = clamp255(t <= 66 ? 99.4708025861 * Math.log(t) - 161.1195681661 : 288.1221695283 * (t - 60) ** -0.0755148492);
  const blue = t >= 66 ? 255 : t <= 19 ? 0 : clamp255(138.5177312231 * Math.log(t - 10) - 305.0447927307);
  return [red, green, blue];
}

export const kelvinToHs = (kelvin: number): HS => rgbToHs(...kelvinToRgb(kelvin));

/** match_max_scale: scales the output so its largest channel equals the input's largest. */
function matchMaxScale(input: number[], output: number[]): number[] {
  const maxIn = Math.max(...input);
  const maxOut = Math.max(...output);
  const factor = maxOut === 0 ? 0 : maxIn / maxOut;
  return output.map((c) => pyRound(c * factor));
}

export type RGBWW = [number, number, number, number, number];

/** color_rgbww_to_rgb: the two whites mixed at their colour temperature, added to rgb. */
export function rgbwwToRgb(r: number, g: number, b: number, cw: number, ww: number, minKelvin: number, maxKelvin: number): RGB {
  const maxMireds = kelvinToMired(minKelvin);
  const minMireds = kelvinToMired(maxKelvin);
  const ratio = cw + ww === 0 ? 0.5 : ww / (cw + ww);
  const mired = minMireds + ratio * (maxMireds - minMireds);
  const [wr, wg, wb] = kelvinToRgb(mired ? miredToKelvin(mired) : 0);
  const level = Math.max(cw, ww) / 255;
  return matchMaxScale([r, g, b, cw, ww], [r + wr * level, g + wg * level, b + wb * level]) as RGB;
}

/** color_rgb_to_rgbww: the white at the middle of the light's range taken out of rgb. */
export function rgbToRgbww(r: number, g: number, b: number, minKelvin: number, maxKelvin: number): RGBWW {
  const maxMireds = kelvinToMired(minKelvin);
  const minMireds = kelvinToMired(maxKelvin);
  const [wr, wg, wb] = kelvinToRgb(miredToKelvin(minMireds + (maxMireds - minMireds) / 2));
  const level = Math.min(wr ? r / wr : 0, wg ? g / wg : 0, wb ? b / wb : 0);
  const white = pyRound(level * 255);
  return matchMaxScale([r, g, b], [r - wr * level, g - wg * level, b - wb * level, white, white]) as RGBWW;
}

/** color_temperature_to_rgbww: a colour temperature as a mix of the cold and warm whites. */
export function kelvinToRgbww(kelvin: number, brightness: number, minKelvin: number, maxKelvin: number): RGBWW {
  const maxMireds = kelvinToMired(minKelvin);
  const minMireds = kelvinToMired(maxKelvin);
  const cold = ((maxMireds - kelvinToMired(kelvin)) / (maxMireds - minMireds)) * brightness;
  return [0, 0, 0, pyRound(cold), pyRound(brightness - cold)];
}
export const kelvinToMired = (kelvin: number): number => Math.floor(1_000_000 / kelvin);
export const miredToKelvin = (mired: number): number => Math.floor(1_000_000 / mired);

const CSS_COLORS: Record<string, string> = {
  aliceblue: 'f0f8ff',
  antiquewhite: 'faebd7',
  aqua: '00ffff',
  aquamarine: '7fffd4',
  azure: 'f0ffff',
  beige: 'f5f5dc',
  bisque: 'ffe4c4',
  black: '000000',
  blanchedalmond: 'ffebcd',
  blue: '0000ff',
  blueviolet: '8a2be2',
  brown: 'a52a2a',
  burlywood: 'deb887',
  cadetblue: '5f9ea0',
  chartreuse: '7fff00',
  chocolate: 'd2691e',
  coral: 'ff7f50',
  cornflowerblue: '6495ed',
  cornsilk: 'fff8dc',
  crimson: 'dc143c',
  cyan: '00ffff',
  darkblue: '00008b',
  darkcyan: '008b8b',
  darkgoldenrod: 'b8860b',
  darkgray: 'a9a9a9',
  darkgreen: '006400',
  darkgrey: 'a9a9a9',
  darkkhaki: 'bdb76b',
  darkmagenta: '8b008b',
  darkolivegreen: '556b2f',
  darkorange: 'ff8c00',
  darkorchid: '9932cc',
  darkred: '8b0000',
  darksalmon: 'e9967a',
  darkseagreen: '8fbc8f',
  darkslateblue: '483d8b',
  darkslategray: '2f4f4f',
  darkslategrey: '2f4f4f',
  darkturquoise: '00ced1',
  darkviolet: '9400d3',
  deeppink: 'ff1493',
  deepskyblue: '00bfff',
  dimgray: '696969',
  dimgrey: '696969',
  dodgerblue: '1e90ff',
  firebrick: 'b22222',
  floralwhite: 'fffaf0',
  forestgreen: '228b22',
  fuchsia: 'ff00ff',
  gainsboro: 'dcdcdc',
  ghostwhite: 'f8f8ff',
  gold: 'ffd700',
  goldenrod: 'daa520',
  gray: '808080',
  green: '008000',
  greenyellow: 'adff2f',
  grey: '808080',
  honeydew: 'f0fff0',
  hotpink: 'ff69b4',
  indianred: 'cd5c5c',
  indigo: '4b0082',
  ivory: 'fffff0',
  khaki: 'f0e68c',
  lavender: 'e6e6fa',
  lavenderblush: 'fff0f5',
  lawngreen: '7cfc00',
  lemonchiffon: 'fffacd',
  lightblue: 'add8e6',
  lightcoral: 'f08080',
  lightcyan: 'e0ffff',
  lightgoldenrodyellow: 'fafad2',
  lightgray: 'd3d3d3',
  lightgreen: '90ee90',
  lightgrey: 'd3d3d3',
  lightpink: 'ffb6c1',
  lightsalmon: 'ffa07a',
  lightseagreen: '20b2aa',
  lightskyblue: '87cefa',
  lightslategray: '778899',
  lightslategrey: '778899',
  lightsteelblue: 'b0c4de',
  lightyellow: 'ffffe0',
  lime: '00ff00',
  limegreen: '32cd32',
  linen: 'faf0e6',
  magenta: 'ff00ff',
  maroon: '800000',
  mediumaquamarine: '66cdaa',
  mediumblue: '0000cd',
  mediumorchid: 'ba55d3',
  mediumpurple: '9370db',
  mediumseagreen: '3cb371',
  mediumslateblue: '7b68ee',
  mediumspringgreen: '00fa9a',
  mediumturquoise: '48d1cc',
  mediumvioletred: 'c71585',
  midnightblue: '191970',
  mintcream: 'f5fffa',
  mistyrose: 'ffe4e1',
  moccasin: 'ffe4b5',
  navajowhite: 'ffdead',
  navy: '000080',
  navyblue: '000080',
  oldlace: 'fdf5e6',
  olive: '808000',
  olivedrab: '6b8e23',
  orange: 'ffa500',
  orangered: 'ff4500',
  orchid: 'da70d6',
  palegoldenrod: 'eee8aa',
  palegreen: '98fb98',
  paleturquoise: 'afeeee',
  palevioletred: 'db7093',
  papayawhip: 'ffefd5',
  peachpuff: 'ffdab9',
  peru: 'cd853f',
  pink: 'ffc0cb',
  plum: 'dda0dd',
  powderblue: 'b0e0e6',
  purple: '800080',
  red: 'ff0000',
  rosybrown: 'bc8f8f',
  royalblue: '4169e1',
  saddlebrown: '8b4513',
  salmon: 'fa8072',
  sandybrown: 'f4a460',
  seagreen: '2e8b57',
  seashell: 'fff5ee',
  sienna: 'a0522d',
  silver: 'c0c0c0',
  skyblue: '87ceeb',
  slateblue: '6a5acd',
  slategray: '708090',
  slategrey: '708090',
  snow: 'fffafa',
  springgreen: '00ff7f',
  steelblue: '4682b4',
  tan: 'd2b48c',
  teal: '008080',
  thistle: 'd8bfd8',
  tomato: 'ff6347',
  turquoise: '40e0d0',
  violet: 'ee82ee',
  wheat: 'f5deb3',
  white: 'ffffff',
  whitesmoke: 'f5f5f5',
  yellow: 'ffff00',
  yellowgreen: '9acd32',
  // The hub adds its own brand colour to the CSS list.
  homeassistant: '03a9f4',
};

/** color_name_to_rgb: spaces ignored, case ignored; undefined when unknown. */
export function colorNameToRgb(name: string): RGB | undefined {
  const hex = CSS_COLORS[name.replace(/ /g, '').toLowerCase()];
  if (!hex) return undefined;
  return [Number.parseInt(hex.slice(0, 2), 16), Number.parseInt(hex.slice(2, 4), 16), Number.parseInt(hex.slice(4, 6), 16)];
}

/** The names light.turn_on offers (its select list): the hub's own first, black left out. */
export const COLOR_NAMES: readonly string[] = ['homeassistant', ...Object.keys(CSS_COLORS).filter((n) => n !== 'black' && n !== 'homeassistant')];
