// A module-resolution hook (node:module register) so a user's plugin outside this package can
// import the public API by its name, `home-mcp-bridge/plugin`, as it would an installed package.

let api = '';

export function initialize(data: { api: string }): void {
  api = data.api;
}

type Next = (specifier: string, context: unknown) => unknown;

export function resolve(specifier: string, context: unknown, next: Next): unknown {
  if (specifier === 'home-mcp-bridge/plugin') return { url: api, shortCircuit: true };
  return next(specifier, context);
}
