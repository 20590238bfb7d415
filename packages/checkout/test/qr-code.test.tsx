import jsQR from 'jsqr';
import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { QrCode } from '../src/components/qr-code.js';

/** Rasterizes the component's SVG path (one `M x y h1v1h-1z` per dark module) the way a camera sees it. */
function scan(svg: SVGSVGElement): string | null {
  const [minX, , width] = svg.getAttribute('viewBox')!.split(' ').map(Number) as [number, number, number];
  const margin = -minX;
  const scale = 4;
  const side = width * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y] of svg.querySelector('path')!.getAttribute('d')!.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = (((Number(y) + margin) * scale + dy) * side + (Number(x) + margin) * scale + dx) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}

describe('QrCode', () => {
  it('encodes the SEP-7 payment URI so a wallet scanning it reads it back exactly', () => {
    const uri =
      'web+stellar:pay?destination=GCKFBEIYV2U22IO2BJ4KVJOIP7XPWQGQFKKWXR6DOSJBV7STMAQSMTGG&amount=25.0000000' +
      '&asset_code=USDC&asset_issuer=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5' +
      '&network_passphrase=Standalone%20Network%20%3B%20February%202017';
    const host = document.createElement('div');
    render(<QrCode data={uri} label="Scan to pay" />, host);
    const svg = host.querySelector('svg')!;
    expect(svg.getAttribute('aria-label')).toBe('Scan to pay');
    expect(scan(svg)).toBe(uri);
  });
});
