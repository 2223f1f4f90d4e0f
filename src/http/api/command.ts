// Natural-language commands: POST /api/command, and the WebSocket `command`
// message on the general channel; both are thin adapters over the command service.
import * as v from 'valibot';
import { commandFields, commandResult, commandSchema } from '../../nlp/schema.js';
import type { Services } from '../../services.js';
import { socketMessage } from '../../stream/socket-channel.js';
import { jsonRoute, reply, type RouteTable } from '../routes.js';

export function registerCommandRoutes(routes: RouteTable, { commands, sockets }: Services): void {
  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/command',
      summary: 'Run a natural-language command or question {command, context?: {area?}, dry_run?, language?, confirm?, choose?}',
      body: v.pipe(
        commandSchema,
        v.examples([
          { command: 'turn off the kitchen lights' },
          { command: 'is the front door locked?' },
          { command: 'turn on the lights', context: { area: 'Living Room' }, dry_run: true },
        ]),
      ),
      responses: {
        200: { description: "Done, planned (dry_run) or answered (a question: query); message: sentences in the command's language", schema: commandResult },
        207: {
          description: 'Some actions were done and some not: success false, each failed action with its error, the message saying which',
          schema: commandResult,
        },
        400: {
          description:
            'INVALID_PARAMETERS: an empty command, one over COMMAND_MAX_LENGTH, a language the parser has no words for (details.languages), or a value the service refuses; or no action was done (the first failure, e.g. HUB_ERROR, with details.actions)',
        },
        403: { description: 'FORBIDDEN: read-only mode, or an entity kept out by TOOLS_ALLOW / TOOLS_DENY / TOOLS_EXPOSED_ONLY' },
        409: {
          description:
            'CONFIRMATION_REQUIRED: unlocking, disarming or opening a garage door without confirm: true; AMBIGUOUS: the words name several entities where they mean one (details.candidates, details.noun); nothing is done',
        },
        422: {
          description:
            'NOT_UNDERSTOOD: nothing was done, details.reason says why (negation, time, condition, count_of_things, quantity, range, cannot, unknown_words, unsure, no_target, ...); details.closest_names lists known names close to it',
        },
        503: { description: 'CONNECTION_ERROR: the hub is not connected (nothing was run) or was lost under every action' },
      },
      handler: async (req) => {
        const result = await commands.runCommand(req.body, req.principal);
        return reply(result.actions.some((a) => a.status === 'failed') ? 207 : 200, result);
      },
    }),
  );

  // {type: "command", id?, payload: {command, context?, dry_run?}} -> {type: "command_result", id, ...result}
  if (!sockets.types.includes('command')) {
    sockets.add(
      'command',
      socketMessage({
        fields: v.strictObject(
          { payload: v.strictObject(commandFields, 'payload: must be {command, context?, dry_run?, language?, confirm?, choose?}') },
          'only payload may be given',
        ),
        spread: true,
        run: ({ fields, principal }) => commands.runCommand(fields.payload, principal),
      }),
    );
  }
}
