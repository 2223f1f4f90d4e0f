// The bridge's own command parser, for assistants without a language model of their own (and for
// people typing into a script): a command or question in plain words.
import { commandFields, commandResult, definePlugin, tool, v } from 'home-mcp-bridge/plugin';

const command = tool({
  name: 'command',
  core: true,
  title: 'Run a command in plain words',
  description:
    'Run a plain-language command or question about the home ("turn off the kitchen lights", "is the front door locked?"). context.area is the room the speaker is in ("here", "the lights"). dry_run plans without acting. Unlocking, disarming and opening garage doors need confirm: true. Ambiguous commands act on nothing and list the candidates; commands that say not to, later or only if are refused, saying why. language: a BCP 47 tag (en, de, de-CH).',
  input: v.object(commandFields),
  output: commandResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, { commands }) => {
    const r = await commands.run(args);
    return { content: [{ type: 'text', text: r.message }], structuredContent: { ...r }, ...(r.success ? {} : { isError: true }) };
  },
});

export default definePlugin({
  name: 'commands',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Commands and questions in plain words, planned by the bridge’s own parser.',
  needs: ['commands'],
  tools: [command],
});
