// The hub simulator's public face.
export { type SimulatorOptions, type StateObject, Simulator, startSimulator } from './server.js';
export { type Home, type HomeArea, type HomeDevice, type HomeEntity, type HomeFloor, type HomeLabel, HomeError, loadHome, parseHome } from './home.js';
export { demoHome } from './demo-home.js';
export { DEFAULT_TIMING, type Logger, type Timing } from './hub.js';
export type { LoadHandle, LoadOptions } from './load.js';
export type { Addon, AddonSpec, AddonState, DiscoveryMessage, IngressSession, SessionUser, SimSupervisor, SupervisorOptions } from './supervisor.js';
