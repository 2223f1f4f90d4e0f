// A JPEG's width and height from its frame header, for asking the camera proxy for a smaller one.
import { describe, expect, test } from 'vitest';
import { jpegSize } from '../../src/hub/camera-proxy.js';

/** SOI, an APP0 segment, then a frame header of the given marker, then EOI. */
function jpeg(sof: number, width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46];
  const frame = [0xff, sof, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00];
  return Uint8Array.from([0xff, 0xd8, ...app0, 0xff, 0xff, ...frame, 0xff, 0xd9]);
}

describe('jpegSize', () => {
  test('baseline and progressive frames, after other segments and fill bytes', () => {
    expect(jpegSize(jpeg(0xc0, 1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(jpegSize(jpeg(0xc2, 640, 480))).toEqual({ width: 640, height: 480 });
  });

  test('not a JPEG, a Huffman table (C4) is no frame, and a cut-off file', () => {
    expect(jpegSize(Buffer.from('\x89PNG\r\n\x1a\n', 'binary'))).toBeUndefined();
    expect(jpegSize(jpeg(0xc4, 10, 10))).toBeUndefined();
    expect(jpegSize(jpeg(0xc0, 1920, 1080).subarray(0, 14))).toBeUndefined();
  });
});
