import { crc32, deflateSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** 32×32 RGBA: a blue disc with a white bar, the mark every page the server serves shows in its tab. */
function pixels(size: number): Buffer {
  const rows: Buffer[] = [];
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const inside = (x - c) ** 2 + (y - c) ** 2 <= (size / 2) ** 2;
      const bar = Math.abs(y - c) < size / 10 && Math.abs(x - c) < size / 4;
      const [r, g, b, a] = !inside ? [0, 0, 0, 0] : bar ? [255, 255, 255, 255] : [43, 89, 195, 255];
      row.set([r!, g!, b!, a!], 1 + x * 4);
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

function png(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels(size))), chunk('IEND', Buffer.alloc(0))]);
}

/** An ICO holding one PNG image (every current browser reads that form). */
function ico(image: Buffer, size: number): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(1, 4);
  head.writeUInt8(size, 6);
  head.writeUInt8(size, 7);
  head.writeUInt16LE(1, 10);
  head.writeUInt16LE(32, 12);
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18);
  return Buffer.concat([head, image]);
}

const FAVICON = ico(png(32), 32);

/** GET /favicon.ico: browsers ask for it on every page (docs, checkout, dashboard); a 404 is noise. */
export function favicon(_req: Request, res: Response): void {
  res.type('image/x-icon').set('cache-control', 'public, max-age=86400').send(FAVICON);
}
