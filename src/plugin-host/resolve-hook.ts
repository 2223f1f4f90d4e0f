// A module-resolution hook (node:module register) so a user's plugin outside this package can
// import the public API by its name, `home-mcp-bridge/plugin`, as it would an installed package.
// A plugin's TypeScript source (Node strips its types) names its own modules as TypeScript does
// for the build, `./view.js`; when no such file is there, the `.ts` beside it is the one meant.

let api = '';

export function initialize(data: { api: string }): void {
  api = data.api;
}

type Next = (specifier: string, context: { parentURL?: string }) => Promise<unknown>;

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<unknown> {
  if (specifier === 'home-mcp-bridge/plugin') return { url: api, shortCircuit: true };
  if (!(specifier.startsWith('./') || specifier.startsWith('../')) || !/\.js$/.test(specifier) || !/\.m?ts$/.test(context.parentURL ?? ''))
    return next(specifier, context);
  try {
    return await next(specifier, context);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return next(specifier.replace(/\.js$/, '.ts'), context);
  }
}
