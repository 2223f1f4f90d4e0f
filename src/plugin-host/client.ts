// The client channel of a caller that has no client behind it (the REST tool transport): progress
// and client logs have nowhere to go, and questions to the user or the model cannot be asked.
import type { ClientChannel } from '../plugin-sdk/index.js';
import { unsupported } from './asking.js';

const cannot = (what: string) => Promise.reject(unsupported(what));

export const NO_CLIENT: ClientChannel = {
  progress: () => Promise.resolve(),
  log: () => Promise.resolve(),
  can: () => false,
  ask: () => cannot('be asked (input requests)'),
  elicit: () => cannot('ask the user (elicitation)'),
  sample: () => cannot('ask its model (sampling)'),
  roots: () => cannot('list its roots'),
  confirm: () => cannot('ask the user to confirm (elicitation)'),
  choose: () => cannot('ask the user to choose (elicitation)'),
  background: () => false,
  signal: new AbortController().signal,
};
