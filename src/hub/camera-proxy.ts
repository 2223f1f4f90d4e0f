// Camera snapshots: Home Assistant's camera proxy (GET /api/camera_proxy/<entity_id>, REST, with the
// hub's own token). A read, not an action. The image comes back whole when it fits the cap; a JPEG
// over it is asked for again smaller (the proxy's width/height: Home Assistant scales it when it has
// libturbojpeg), and what still does not fit is refused, saying so. No image library here.
import { AppError } from '../errors.js';
import type { HubRestReader } from './reader.js';

/** What one read of the proxy may hold in memory before it is given up (a camera's raw frame is far less). */
const READ_LIMIT = 32 * 1024 * 1024;

export interface Snapshot {
  entity_id: string;
  mime_type: string;
  data: Buffer;
  bytes: number;
  width?: number;
  height?: number;
  /** Set when Home Assistant was asked for a smaller image because the first was over the cap. */
  scaled_from?: { bytes: number; width: number; height: number };
}

/** A JPEG's width and height from its frame header (SOFn), or undefined when it has none. */
export function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    if (marker === 0xda) return undefined;
    i += 2 + length;
  }
  return undefined;
}

const isJpeg = (type: string) => /jpe?g/i.test(type);

export class CameraSnapshots {
  constructor(
    private readonly rest: HubRestReader | undefined,
    /** CAMERA_SNAPSHOT_MAX_BYTES. */
    readonly maxBytes: number,
  ) {}

  async take(entityId: string): Promise<Snapshot> {
    if (!this.rest) throw new AppError('HUB_ERROR', 501, 'Camera snapshots need Home Assistant’s REST API, which this bridge has no address for');
    const first = await this.get(entityId, '', READ_LIMIT);
    if (!first.bytes) throw this.tooLarge(entityId, first.size, 'more than');
    const size = isJpeg(first.contentType) ? jpegSize(first.bytes) : undefined;
    if (first.bytes.length <= this.maxBytes) return snapshot(entityId, first.contentType, first.bytes, size);
    if (!size) throw this.tooLarge(entityId, first.bytes.length, '', `it is ${first.contentType || 'not a JPEG'}, which is not asked for smaller`);
    // Bytes grow about with the area: aim below the cap; Home Assistant rounds up to its scaling steps.
    const f = Math.sqrt(this.maxBytes / first.bytes.length) * 0.8;
    const width = Math.max(16, Math.floor(size.width * f));
    const height = Math.max(16, Math.floor(size.height * f));
    const second = await this.get(entityId, `?width=${width}&height=${height}`, this.maxBytes);
    if (!second.bytes)
      throw this.tooLarge(
        entityId,
        first.bytes.length,
        '',
        `asked for ${width}×${height}, Home Assistant answered ${second.size > this.maxBytes ? 'more than the cap' : 'no smaller'} (it scales JPEG only when libturbojpeg is installed)`,
      );
    const scaled = snapshot(entityId, second.contentType, second.bytes, jpegSize(second.bytes));
    return { ...scaled, scaled_from: { bytes: first.bytes.length, ...size } };
  }

  private async get(entityId: string, query: string, limit: number) {
    const answer = await this.rest!.getBytes(`/api/camera_proxy/${encodeURIComponent(entityId)}${query}`, limit);
    if (answer.status === 200) {
      if (!/^image\//i.test(answer.contentType))
        throw new AppError(
          'HUB_ERROR',
          502,
          `Home Assistant answered the snapshot of ${entityId} with ${answer.contentType || 'no content type'}, not an image`,
        );
      return answer;
    }
    if (answer.status === 404) throw new AppError('NOT_FOUND', 404, `Home Assistant has no camera ${entityId}`, { entity_id: entityId });
    if (answer.status === 503)
      throw new AppError('CONFLICT', 409, `${entityId} is off: it gives no snapshot until it is turned on`, { entity_id: entityId, camera_off: true });
    if (answer.status === 401 || answer.status === 403)
      throw new AppError('HUB_ERROR', 502, `Home Assistant refused the bridge’s token for the camera proxy (HTTP ${answer.status})`, {
        hub_status: answer.status,
      });
    throw new AppError('HUB_ERROR', 502, `Home Assistant could not get an image from ${entityId} (HTTP ${answer.status})`, {
      entity_id: entityId,
      hub_status: answer.status,
    });
  }

  private tooLarge(entityId: string, bytes: number, qualifier: string, why?: string): AppError {
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      413,
      `The snapshot of ${entityId} is ${qualifier ? `${qualifier} ` : ''}${bytes} bytes, over the cap of ${this.maxBytes} (CAMERA_SNAPSHOT_MAX_BYTES)${why ? `; ${why}` : ''}`,
      { entity_id: entityId, bytes, max_bytes: this.maxBytes },
    );
  }
}

function snapshot(entityId: string, contentType: string, data: Buffer, size: { width: number; height: number } | undefined): Snapshot {
  return { entity_id: entityId, mime_type: contentType.split(';')[0]!.trim().toLowerCase(), data, bytes: data.length, ...(size ?? {}) };
}
