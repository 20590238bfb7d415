import { createHmac } from 'node:crypto';
import type { SyncCryptoProvider } from './crypto-provider.js';

/** HMAC-SHA256 through `node:crypto`, synchronously. Only reachable from `@fundkit/webhooks/node`. */
export class NodeCryptoProvider implements SyncCryptoProvider {
  computeHmacSha256HexSync(secret: string, message: Uint8Array): string {
    return createHmac('sha256', secret).update(message).digest('hex');
  }

  async computeHmacSha256Hex(secret: string, message: Uint8Array): Promise<string> {
    return this.computeHmacSha256HexSync(secret, message);
  }
}
