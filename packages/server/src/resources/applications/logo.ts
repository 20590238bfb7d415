import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { ApiError } from '../../http/api-error.js';

const FORMATS: Record<string, { extension: string; contentType: string }> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpg: { extension: 'jpg', contentType: 'image/jpeg' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  svg: { extension: 'svg', contentType: 'image/svg+xml' },
};
export const MAX_LOGO_BYTES = 512 * 1024;
const MIN_PX = 64;
const MAX_PX = 1024;

/** Checks a logo: PNG, JPEG, WebP or SVG; square; 64–1024 px; at most 512 KiB. */
export function checkLogo(bytes: Buffer): { extension: string; contentType: string } {
  if (bytes.length > MAX_LOGO_BYTES) {
    throw new ApiError('LOGO_DIMENSIONS_INVALID', `logo is ${bytes.length} bytes; the limit is 512 KiB`);
  }
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(new Uint8Array(bytes));
  } catch {
    throw new ApiError('LOGO_FORMAT_UNSUPPORTED', 'logo must be a PNG, JPEG, WebP or SVG image');
  }
  const format = FORMATS[size.type ?? ''];
  if (!format) throw new ApiError('LOGO_FORMAT_UNSUPPORTED', `logo format ${size.type ?? 'unknown'} is not supported; use PNG, JPEG, WebP or SVG`);
  const { width = 0, height = 0 } = size;
  if (width !== height || width < MIN_PX || width > MAX_PX) {
    throw new ApiError('LOGO_DIMENSIONS_INVALID', `logo is ${width}×${height} px; it must be square, 64 to 1024 px`);
  }
  return format;
}

/** Writes the logo under a content-addressed name; a storage failure is the server's, not the client's. */
export function storeLogo(dir: string, applicationId: string, bytes: Buffer, extension: string): string {
  const name = `${applicationId}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${extension}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), bytes);
  } catch {
    throw new ApiError('LOGO_STORAGE_UNAVAILABLE', 'logo storage is unavailable; retry later');
  }
  return name;
}
