// Home Assistant templates, rendered read-only: `{{ states('sensor.outside') | float * 2 }}`, the
// hub's own template engine, which can read but never act. The bridge answers only what the
// caller may see (with entities hidden from Assist, a template that reads one is refused), within
// a time limit and up to TEMPLATE_MAX_OUTPUT characters.
import { definePlugin, tool, v } from 'home-mcp-bridge/plugin';

export default definePlugin({
  name: 'templates',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: "Render a Home Assistant template (read-only) with the hub's own template engine.",
  needs: ['home'],
  tools: [
    tool({
      name: 'render_template',
      title: 'Render a template',
      description:
        "Render a Home Assistant template once, read-only, e.g. {{ states('sensor.x') | float }}; timeout in seconds (at most 30). Answers what it read.",
      input: v.object({
        template: v.pipe(v.string(), v.nonEmpty()),
        timeout: v.optional(v.number()),
      }),
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
      run: async (args, { home }) => {
        const r = await home.renderTemplate(args.template, { timeout: args.timeout });
        const shown = typeof r.result === 'string' ? r.result : JSON.stringify(r.result);
        const notes = [r.truncated ? '(cut at the bridge’s output limit)' : '', ...r.warnings.map((w) => `warning: ${w}`)].filter(Boolean);
        return {
          content: [{ type: 'text', text: `${shown}${notes.length ? `\n${notes.join('\n')}` : ''}` }],
          structuredContent: { ...r },
        };
      },
    }),
  ],
});
