// A lock that wants a code (its `code_format`) and was given none: a client that can ask (an MCP
// elicitation, or input-required in the 2026 era) asks the person for it, and nothing runs before
// the answer; a caller that cannot be asked gets the refusal that names the field to add
// (INVALID_PARAMETERS, details.field "code", made from the hub's answer in src/hub/client.ts).
import { AppError } from '../errors.js';
import type { CommandInput, CommandResult } from '../nlp/service.js';
import type { ClientChannel } from '../plugin-sdk/types.js';
import type { HomeView } from '../policy/home-view.js';

/** The lock's code pattern, when it wants a code. */
function codeFormat(home: HomeView, entityId: string): string | undefined {
  const format = entityId.startsWith('lock.') ? home.state(entityId)?.attributes.code_format : undefined;
  return typeof format === 'string' && format !== '' ? format : undefined;
}

/** Asks the person for the code; no code given is a refusal, with nothing done. */
async function askCode(client: ClientChannel, names: readonly string[], format: string | null | undefined): Promise<string> {
  const what = names.join(', ');
  const requestedSchema = {
    type: 'object',
    properties: { code: { type: 'string', title: 'Code', minLength: 1, maxLength: 32, ...(format ? { description: `It must match ${format}` } : {}) } },
    required: ['code'],
  };
  const r = await client.elicit({ message: `${what} wants a code. Enter it to go on; nothing has been done yet.`, requestedSchema }, 'code');
  const code = r.action === 'accept' ? r.content?.code : undefined;
  if (typeof code !== 'string' || !code)
    throw new AppError('INVALID_PARAMETERS', 400, `No code was given for ${what}; nothing was done`, { field: 'code', declined: true });
  return code;
}

/** A run that the hub refused for want of a code: asked and run again with it, where the client can ask. */
export async function withCode<T>(client: ClientChannel, given: unknown, run: (code?: string) => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError) || err.details.field !== 'code' || err.details.declined || given !== undefined || !client.can('elicitation')) throw err;
    const entity = typeof err.details.entity_id === 'string' ? err.details.entity_id : 'The lock';
    return run(await askCode(client, [entity], err.details.code_format as string | null | undefined));
  }
}

/**
 * A command that would act on locks wanting a code, with none in its words or its `code`: the
 * person is asked before any part of it runs (a dry run says what it would do), so nothing is
 * left half done.
 */
export async function commandWithCode(
  client: ClientChannel,
  home: HomeView,
  input: CommandInput,
  run: (extra: Pick<CommandInput, 'code' | 'dry_run'>) => Promise<CommandResult>,
): Promise<CommandResult> {
  if (input.code !== undefined || input.dry_run || !client.can('elicitation')) return run({});
  let planned: CommandResult;
  try {
    planned = await run({ dry_run: true });
  } catch {
    return run({}); // the real run says the same refusal, or asks what it asks
  }
  const wanting = planned.actions.filter((a) => a.parameters.code === undefined && codeFormat(home, a.entity_id) !== undefined);
  if (!wanting.length) return run({});
  const names = [...new Set(wanting.map((a) => (home.state(a.entity_id)?.attributes.friendly_name as string | undefined) ?? a.entity_id))];
  return run({ code: await askCode(client, names, codeFormat(home, wanting[0]!.entity_id)) });
}
