// The simulator's entry for tests (@home-mcp-bridge/sim/testing): everything demo mode has, with
// the Simulator that can also play the Supervisor and its ingress proxy, and a raw WebSocket
// client. It has no compiled form and is not in the add-on image.
export * from './index.js';
export { type SimulatorOptions, Simulator, startSimulator } from './supervised.js';
export type { Addon, AddonSpec, AddonState, DiscoveryMessage, IngressSession, SessionUser, SimSupervisor, SupervisorOptions } from './supervisor.js';
export { type ConnectOptions, type EventMessage, type Message, type Result, RawClient } from './raw-client.js';
export { configOf } from './config/index.js';
export { adminOf } from './admin.js';
// The simulator's own spelling of Home Assistant's names, to check against its client's.
export { HA_ERROR, MSG } from './names.js';
export { renderTemplate, type RenderOutcome, type TemplateHub } from './template.js';
