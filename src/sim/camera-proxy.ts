// Home Assistant's camera proxy (camera/__init__.py CameraImageView, 2026.11): GET
// /api/camera_proxy/<entity_id> answers the camera's picture with its content type; an entity that
// is no camera is aiohttp's 404, a camera turned off 503, and a width or height that is not a whole
// number 500. Home Assistant scales a JPEG to the width and height asked only when libturbojpeg is
// installed; the simulator has none, so it answers the picture as it is, as such a hub does.
import { cameraIsOn } from './domains/camera.js';
import { CAMERA_JPEG } from './camera-image.js';
import type { Hub } from './hub.js';
import { fail, type Handler } from './rest.js';

export function cameraRoutes(hub: Hub): Array<{ re: RegExp; methods: Record<string, Handler> }> {
  const image: Handler = ({ res, params, url }) => {
    const id = params[0] ?? '';
    if (!id.startsWith('camera.') || !hub.states.get(id)) throw fail(404);
    if (!cameraIsOn(hub, id)) {
      const text = '503: Service Unavailable';
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    for (const key of ['width', 'height']) {
      const given = url.searchParams.get(key);
      if (given && !/^\s*[+-]?\d+\s*$/.test(given)) throw fail(500);
    }
    res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': CAMERA_JPEG.length });
    res.end(CAMERA_JPEG);
  };
  return [{ re: /^\/api\/camera_proxy\/([^/]+)$/, methods: { GET: image } }];
}
