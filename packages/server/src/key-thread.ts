/**
 * The deposit-key thread (started by stellar/key-reserve.ts once its server has handed out many
 * keys): each message is a number of keys wanted, answered with that many sealed keys, so making
 * and sealing them never holds the API's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sealNewKey, type SealedKey } from './stellar/key-reserve.js';

const secretsKey = Buffer.from((workerData as { secretsKey: Uint8Array }).secretsKey);

parentPort!.on('message', (count: number) => {
  const keys: SealedKey[] = [];
  for (let n = 0; n < count; n++) keys.push(sealNewKey(secretsKey));
  parentPort!.postMessage(keys);
});
