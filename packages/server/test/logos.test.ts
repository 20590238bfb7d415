import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { signedIn } from './helpers/accounts.js';

const logoDir = mkdtempSync(join(tmpdir(), 'fundkit-logos-'));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { FUNDKIT_LOGO_DIR: logoDir } });
});
afterAll(() => t.close());

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" onload="fetch('/v1/auth/session')">
<script>document.title = 'pwned'</script><rect width="128" height="128" fill="#0a7"/></svg>`;

describe('logos are inert', () => {
  it('an SVG with script is stored and served as the PNG it renders to, with a sandboxing CSP, nosniff and a disposition', async () => {
    const session = await signedIn(t, 'svg-logo@example.org');
    const app = (await t.request('POST', '/v1/applications', { key: session, body: { name: 'Svg' } })).body;
    const put = await t.request('PUT', `/v1/applications/${app.id}/logo`, { key: session, body: Buffer.from(HOSTILE_SVG), headers: { 'content-type': 'image/svg+xml' } });
    expect(put.status).toBe(200);
    const served = await fetch(`${t.url}/v1/applications/${app.id}/logo`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="app_[0-9A-Z]+-[0-9a-f]{16}\.png"$/);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(imageSize(new Uint8Array(bytes))).toMatchObject({ type: 'png', width: 128, height: 128 });
    expect(bytes.toString('latin1')).not.toMatch(/script|onload/i);
    expect(readdirSync(logoDir).filter((f) => f.startsWith(app.id)).every((f) => f.endsWith('.png'))).toBe(true);
  });

  it('an SVG that names a file or URL outside itself is refused (the renderer would read the server\'s disk)', async () => {
    const session = await signedIn(t, 'svg-href@example.org');
    const app = (await t.request('POST', '/v1/applications', { key: session, body: { name: 'Href' } })).body;
    const secret = join(logoDir, 'not-a-logo.png');
    writeFileSync(secret, Buffer.from(HOSTILE_SVG));
    for (const href of [secret, `file://${secret}`, 'http://127.0.0.1:1/x.png', '&#47;etc/x.png']) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><image xlink:href="${href}" width="64" height="64"/></svg>`;
      const put = await t.request('PUT', `/v1/applications/${app.id}/logo`, { key: session, body: Buffer.from(svg), headers: { 'content-type': 'image/svg+xml' } });
      expect(put.status, href).toBeGreaterThanOrEqual(400);
      expect(put.body.error.code).toBe('LOGO_FORMAT_UNSUPPORTED');
    }
    const inline = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><defs><rect id="r" width="64" height="64"/></defs><use href="#r"/></svg>`;
    expect((await t.request('PUT', `/v1/applications/${app.id}/logo`, { key: session, body: Buffer.from(inline), headers: { 'content-type': 'image/svg+xml' } })).status).toBe(200);
  });

  it('replacing a logo deletes the old file', async () => {
    const session = await signedIn(t, 'replace-logo@example.org');
    const app = (await t.request('POST', '/v1/applications', { key: session, body: { name: 'Replace' } })).body;
    const files = () => readdirSync(logoDir).filter((f) => f.startsWith(`${app.id}-`));
    const upload = (fill: string) => t.request('PUT', `/v1/applications/${app.id}/logo`, {
      key: session, body: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="${fill}"/></svg>`), headers: { 'content-type': 'image/svg+xml' },
    });
    expect((await upload('red')).status).toBe(200);
    const [first] = files();
    expect(files()).toHaveLength(1);
    expect((await upload('blue')).status).toBe(200);
    expect(files()).toHaveLength(1);
    expect(files()[0]).not.toBe(first);
    expect((await upload('blue')).status).toBe(200); // the same image again keeps its one file
    expect(files()).toHaveLength(1);
  });
});
