import { loadConfig } from './config.js';
import { startShop } from './shop.js';

try {
  const config = loadConfig();
  const shop = await startShop({ ...config, publicUrl: config.publicUrl });
  console.log(`Demo shop on ${shop.url}  (API ${config.apiBase}; webhook endpoint ${shop.endpoint.id} → ${shop.endpoint.url})`);
  console.log(`Open ${shop.url}, click Buy; the order page shows the command that pays it in the sandbox.`);
} catch (error) {
  console.error(`example-node-backend: ${error.message}`);
  if (error.cause?.code === 'ECONNREFUSED' || /fetch failed|connect/i.test(String(error.message))) console.error('Is the reference server running? Run `pnpm start` at the repository root.');
  process.exit(1);
}
