// The hub simulator's public entry (@home-mcp-bridge/sim): demo mode, as the bridge starts it when no
// hub is configured, the `sim` command, and a home described offline. What only tests use (the
// Supervisor, the ingress proxy, the raw client) is in testing.ts (@home-mcp-bridge/sim/testing).
export {
  type Authenticate,
  type MakeRole,
  type RoleHost,
  type SimulatorOptions,
  type SimulatorRole,
  type StateObject,
  Simulator,
  startSimulator,
} from './server.js';
export type { SimUser } from './commands.js';
export { type Home, type HomeArea, type HomeDevice, type HomeEntity, type HomeFloor, type HomeLabel, HomeError, loadHome, parseHome } from './home.js';
export { demoHome } from './demo-home.js';
export { DEFAULT_TIMING, type Logger, type Timing } from './hub.js';
export type { LoadHandle, LoadOptions } from './load.js';
export { type SimCliOptions, runSimCli } from './cli.js';
export { type HomeSnapshot, snapshotHome } from './snapshot.js';
export type { WireArea, WireDevice, WireEntity, WireField, WireFloor, WireLabel, WireService, WireServices } from './wire.js';
