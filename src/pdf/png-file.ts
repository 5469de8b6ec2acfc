import { promisify } from 'node:util';
import { deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

const crcTable = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(parts: readonly Uint8Array[]): number {
  let c = -1;
  for (const part of parts) for (const byte of part) c = crcTable[(c ^ byte) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32([head.subarray(4), data]), 0);
  return Buffer.concat([head, data, tail]);
}

const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/**
 * A PNG (8-bit RGBA, no filter) of `rgba` pixels, `width` × `height`, not
 * premultiplied (or opaque, where the two are the same). Written here rather
 * than by the canvas's own encoder: a page is mostly white, and zlib at a
 * low level on unfiltered rows is several times faster than the canvas's
 * encoder for a file a little larger, which is what a preview of a thousand
 * rows needs. Rows are copied whole (no per-pixel work in JavaScript) and
 * compressed on libuv's thread pool, beside the rendering.
 */
export async function pngOf(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type, 0 (none): Buffer.alloc left it so.
    rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  const data = await deflateAsync(rows, { level: 1 });
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', Buffer.alloc(0))]);
}
