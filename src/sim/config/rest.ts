// The config API's REST views for automations, scripts and scenes (homeassistant/components/config/view.py
// in 2026.11): GET the stored item or 404 "Resource not found"; POST checks the body and the key,
// writes the file, answers {"result": "ok"} and reloads the item right after the answer; DELETE of
// an unknown key is a 400 "Resource not found". Only administrators may use them (401 otherwise).
import type { Hub } from '../hub.js';
import { fail, type Handler, message, parseJson, readBody, sendJson } from '../rest.js';
import { isPlainObject } from '../schema.js';
import { configOf } from './index.js';
import { checkSlug, ConfigInvalid, validateAutomation, validateScript } from './validate.js';

export function configRoutes(hub: Hub): Array<{ re: RegExp; methods: Record<string, Handler> }> {
  const scripted = () => configOf(hub).scripted;
  const admin: (h: Handler) => Handler = (h) => (ctx) => {
    if (!ctx.user.isAdmin) throw fail(401);
    return h(ctx);
  };
  const view = (kind: 'automation' | 'script') => {
    const get = (key: string) => (kind === 'automation' ? scripted().automation(key) : scripted().scripts.get(key));
    // The reload runs after the answer, as the hub's post_write_hook task does.
    const reload = (key: string) =>
      setImmediate(() => {
        if (kind === 'automation') scripted().reloadAutomation(key);
        else scripted().reloadScripts();
      });
    return {
      GET: admin(({ res, params }) => {
        const value = get(params[0] ?? '');
        if (value === undefined) message(res, 404, 'Resource not found');
        else sendJson(res, 200, JSON.stringify(value));
      }),
      POST: admin(async ({ req, res, params }) => {
        const key = params[0] ?? '';
        const parsed = parseJson(await readBody(req));
        if (!parsed.ok) return message(res, 400, 'Invalid JSON specified');
        if (kind === 'script') {
          const bad = checkSlug(key);
          if (bad) return message(res, 400, `Key malformed: ${bad}`);
        }
        // A body that is not an object breaks the hub's validator: a bare 500.
        if (!isPlainObject(parsed.value)) throw fail(500);
        try {
          if (kind === 'automation') validateAutomation(parsed.value);
          else validateScript(parsed.value);
        } catch (err) {
          if (!(err instanceof ConfigInvalid)) throw err;
          return message(res, 400, `Message malformed: ${err.message}`);
        }
        if (kind === 'automation') scripted().writeAutomation(key, parsed.value);
        else scripted().writeScript(key, parsed.value);
        sendJson(res, 200, JSON.stringify({ result: 'ok' }));
        reload(key);
      }),
      DELETE: admin(({ res, params }) => {
        const key = params[0] ?? '';
        if (get(key) === undefined) return message(res, 400, 'Resource not found');
        if (kind === 'automation') scripted().deleteAutomation(key);
        else scripted().deleteScript(key);
        sendJson(res, 200, JSON.stringify({ result: 'ok' }));
        reload(key);
      }),
    };
  };
  const scenes = () => configOf(hub).scenes;
  const sceneView: Record<string, Handler> = {
    GET: admin(({ res, params }) => {
      const value = scenes().get(params[0] ?? '');
      if (value === undefined) message(res, 404, 'Resource not found');
      else sendJson(res, 200, JSON.stringify(value));
    }),
    POST: admin(async ({ req, res, params }) => {
      const parsed = parseJson(await readBody(req));
      if (!parsed.ok) return message(res, 400, 'Invalid JSON specified');
      if (!isPlainObject(parsed.value)) throw fail(500);
      if (parsed.value.entities !== undefined && !isPlainObject(parsed.value.entities))
        return message(res, 400, "Message malformed: expected a dictionary for dictionary value @ data['entities']");
      scenes().write(params[0] ?? '', parsed.value);
      sendJson(res, 200, JSON.stringify({ result: 'ok' }));
      setImmediate(() => scenes().reload());
    }),
    DELETE: admin(({ res, params }) => {
      if (!scenes().delete(params[0] ?? '')) return message(res, 400, 'Resource not found');
      sendJson(res, 200, JSON.stringify({ result: 'ok' }));
      setImmediate(() => scenes().reload());
    }),
  };
  return [
    { re: /^\/api\/config\/scene\/config\/([^/]+)$/, methods: sceneView },
    { re: /^\/api\/config\/automation\/config\/([^/]+)$/, methods: view('automation') },
    { re: /^\/api\/config\/script\/config\/([^/]+)$/, methods: view('script') },
  ];
}
