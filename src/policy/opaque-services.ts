// Services whose effects the bridge cannot know from the call: they act through something that
// decides for itself what to touch (a sentence for Assist, a shell command, a Python script, an
// HTTP request, an add-on's input). The effect model marks them unresolved, so the checkpoint
// refuses them whenever any rule could apply (read-only, scope, exposure, the lists,
// confirmation): otherwise "conversation.process: unlock the front door" would unlock a door
// TOOLS_DENY keeps out. One list, each with why.

const OPAQUE: Record<string, string> = {
  'conversation.process': 'Assist decides from the sentence what to act on',
  'conversation.*': 'Assist decides from the sentence what to act on',
  'shell_command.*': 'a shell command does whatever it runs',
  'python_script.*': 'a Python script acts on whatever it names when it runs',
  'pyscript.*': 'a Python script acts on whatever it names when it runs',
  'rest_command.*': 'an HTTP request does whatever the receiving side does',
  'hassio.addon_stdin': "an add-on's input does whatever the add-on does with it",
  'mqtt.publish': 'an MQTT message does whatever its subscribers do',
  'intent_script.*': 'an intent script acts on whatever it names',
};

/** Why what this service does cannot be known from the call, or undefined. */
export function opaqueService(domain: string, service: string): string | undefined {
  const why = OPAQUE[`${domain}.${service}`] ?? OPAQUE[`${domain}.*`];
  return why ? `${domain}.${service}: ${why}` : undefined;
}
