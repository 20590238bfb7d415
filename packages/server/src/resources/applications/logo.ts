import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderAsync } from '@resvg/resvg-js';
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

/**
 * What a logo is served with, whatever its format: an SVG stored before logos were rasterised
 * runs no script and loads nothing (CSP sandbox), and no browser sniffs one type into another.
 */
export const LOGO_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
} as const;

// an href that may stay in an SVG we render: a fragment of the same document, or inline image data
const INERT_HREF = /^(#|data:image\/)/;
const HREF_ATTRIBUTE = /[\w:-]*href\s*=\s*("[^"]*"|'[^']*')/gi;

/**
 * An SVG logo as a PNG of the same size: the stored logo is pixels, never a document that can run
 * script. The renderer reads any file an `<image>` names from the server's disk, so an SVG whose
 * hrefs point anywhere but inside itself (or that declares entities, which could spell one) is
 * refused before it is rendered.
 */
export async function rasteriseSvg(bytes: Buffer): Promise<Buffer> {
  const text = bytes.toString('utf8');
  const outside = [...text.matchAll(HREF_ATTRIBUTE)].map((m) => m[1]!.slice(1, -1)).find((href) => !INERT_HREF.test(href));
  if (outside !== undefined || /<!(DOCTYPE|ENTITY)/i.test(text)) {
    throw new ApiError('LOGO_FORMAT_UNSUPPORTED', 'an SVG logo may not reference other files or URLs (or declare entities); embed images as data: URIs, or upload a PNG');
  }
  try {
    return (await renderAsync(bytes, { fitTo: { mode: 'original' }, font: { loadSystemFonts: true } })).asPng();
  } catch {
    throw new ApiError('LOGO_FORMAT_UNSUPPORTED', 'the SVG logo could not be read; upload a valid SVG or a PNG');
  }
}

/** Deletes a replaced logo's file; one already gone is no error. */
export function removeLogo(dir: string, name: string): void {
  rmSync(join(dir, name), { force: true });
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
