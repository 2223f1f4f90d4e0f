// A small two-line chart in SVG: events per second and open streams, each scaled to its own peak.
const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 160;
const PAD = 8;

/** One series as a polyline scaled to its own peak; the peak goes to the legend (SVG text would stretch). */
function line(samples, key, cls) {
  const peak = Math.max(1, ...samples.map((s) => s[key]));
  const step = samples.length > 1 ? (W - 2 * PAD) / (samples.length - 1) : 0;
  const points = samples.map((s, i) => `${(PAD + i * step).toFixed(1)},${(H - PAD - (s[key] / peak) * (H - 2 * PAD)).toFixed(1)}`).join(' ');
  const path = document.createElementNS(NS, 'polyline');
  path.setAttribute('points', points);
  path.setAttribute('class', cls);
  return path;
}

const peakOf = (samples, key) => Math.max(0, ...samples.map((s) => s[key]));

/** Draws both series; answers their peaks for the legend. */
export function drawChart(svg, samples) {
  const grid = document.createElementNS(NS, 'line');
  grid.setAttribute('x1', '0');
  grid.setAttribute('x2', String(W));
  grid.setAttribute('y1', String(H - PAD));
  grid.setAttribute('y2', String(H - PAD));
  grid.setAttribute('class', 'axis');
  svg.replaceChildren(grid, ...(samples.length ? [line(samples, 'rate', 'rate'), line(samples, 'conn', 'conn')] : []));
  return { rate: peakOf(samples, 'rate'), conn: peakOf(samples, 'conn') };
}
