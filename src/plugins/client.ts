// The client channel of a caller that has no client behind it (the REST tool transport): progress
// and client logs have nowhere to go, and questions to the user or the model cannot be asked.
import { AppError } from '../errors.js';
import type { ClientChannel } from '../plugin/index.js';

const cannot = (what: string) =>
  Promise.reject(new AppError('UNSUPPORTED_BY_CLIENT', 400, `This caller cannot ${what}; call the tool from an MCP client that supports it`));

export const NO_CLIENT: ClientChannel = {
  progress: () => Promise.resolve(),
  log: () => Promise.resolve(),
  elicit: () => cannot('ask the user (elicitation)'),
  sample: () => cannot("ask its model (sampling)"),
};
