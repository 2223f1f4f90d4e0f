// bench/hub's simulator process (forked by run.mjs): runs the hub simulator and its load
// generator, and answers the benchmark over IPC with exact counts of what the hub fired.
// Its own process, so the bridge's CPU and memory are measured without the generator's.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { parseHome, startSimulator } = await import(join(root, 'dist', 'src', 'sim', 'index.js'));

// The clock entity carries the sim's wall time (ms) as its state; the bridge's copy of it, read
// over REST, says how far behind the event stream the bridge is.
const CLOCK = 'sensor.bench_clock';
const CLOCK_MS = 20;

let sim;
let load;
let clock;
let stateChanged = 0;
const problems = [];
const logger = {
  debug() {},
  info() {},
  warn: (m) => problems.push(`warn: ${m}`),
  error: (m) => problems.push(`error: ${m}`),
};

const domains = ['light', 'switch', 'sensor', 'binary_sensor', 'cover', 'climate', 'lock', 'fan', 'media_player'];

/** A home of n entities across domains, areas and devices, as a large real home spreads them. */
function bigHome(n) {
  const areas = Array.from({ length: 40 }, (_, i) => ({ id: `area_${i}`, name: `Area ${i}`, floor: `floor_${i % 4}` }));
  const floors = Array.from({ length: 4 }, (_, i) => ({ id: `floor_${i}`, name: `Floor ${i}`, level: i }));
  const devices = Array.from({ length: Math.ceil(n / 5) }, (_, i) => ({
    id: `device_${i}`,
    name: `Device ${i}`,
    area: `area_${i % areas.length}`,
    manufacturer: 'Bench',
    model: `M${i % 7}`,
  }));
  const attrs = {
    light: () => ({ supported_color_modes: ['color_temp', 'hs'], brightness: 128, color_temp_kelvin: 3000 }),
    sensor: (i) => ({ unit_of_measurement: i % 2 ? '°C' : 'W', device_class: i % 2 ? 'temperature' : 'power', state_class: 'measurement' }),
    binary_sensor: () => ({ device_class: 'motion' }),
  };
  const states = {
    light: 'on',
    switch: 'off',
    sensor: '21.5',
    binary_sensor: 'off',
    cover: 'closed',
    climate: 'heat',
    lock: 'locked',
    fan: 'off',
    media_player: 'off',
  };
  const entities = Array.from({ length: n }, (_, i) => {
    const domain = domains[i % domains.length];
    return {
      entity_id: `${domain}.bench_${i}`,
      name: `Bench ${domain.replace('_', ' ')} ${i}`,
      device: `device_${Math.floor(i / 5)}`,
      state: states[domain],
      ...(attrs[domain] ? { attributes: attrs[domain](i) } : {}),
    };
  });
  return { name: 'Bench Home', time_zone: 'UTC', unit_system: 'metric', floors, areas, devices, entities };
}

function stopClock() {
  clearInterval(clock);
  clock = undefined;
}

const handlers = {
  async start({ home }) {
    sim = await startSimulator({ home: home === 'demo' ? 'demo' : parseHome(bigHome(home), 'bench home'), host: '127.0.0.1', port: 0, logger });
    sim.hub.bus.listen('state_changed', () => stateChanged++);
    return { url: sim.url, token: sim.token, entities: sim.hub.states.size };
  },
  load({ entities, rate, prefix }) {
    load = sim.startLoad({ entities, rate, prefix });
    clock = setInterval(() => sim.setState(CLOCK, String(Date.now())), CLOCK_MS);
    return { started: performance.now() };
  },
  /** Stops the load and returns the last value the hub holds for each load entity. */
  stopLoad() {
    load.stop();
    stopClock();
    const values = {};
    for (const id of load.entityIds) values[id] = sim.getState(id)?.state;
    return { fired: load.fired, stateChanged, values, t: performance.now() };
  },
  removeLoad() {
    load.stop({ remove: true });
    load = undefined;
    return { stateChanged };
  },
  /** Set while the clock is stopped: once the bridge holds it, everything fired before it has arrived. */
  marker({ value }) {
    sim.setState(CLOCK, value);
    return { stateChanged };
  },
  counts() {
    return { stateChanged, connections: sim.connections, problems: problems.splice(0) };
  },
  async stop() {
    stopClock();
    await sim?.stop();
    setImmediate(() => process.exit(0));
    return {};
  },
};

process.on('message', async ({ id, cmd, args }) => {
  try {
    process.send({ id, ok: true, value: await handlers[cmd](args ?? {}) });
  } catch (err) {
    process.send({ id, ok: false, error: err instanceof Error ? err.stack : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
