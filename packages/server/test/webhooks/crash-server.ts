/**
 * A server in its own process, so a test can kill -9 it mid-delivery. Reads FUNDKIT_DB (or FUNDKIT_DATABASE_URL) and
 * FUNDKIT_MASTER_KEY from the environment; prints {"url": …} once listening.
 */
import { pino } from 'pino';
import { createServer } from '../../src/index.js';
import { DEFAULT_BOOTSTRAP } from '../helpers/server.js';

const server = await createServer({
  bootstrap: DEFAULT_BOOTSTRAP,
  logger: pino({ level: 'silent' }),
  // a long timeout keeps the attempt in flight until the kill; a short lease makes the restart
  // quick, unless the test asks for a long one (CRASH_LEASE_MS)
  webhooks: { timeoutMs: 60_000, leaseMs: Number(process.env.CRASH_LEASE_MS ?? 1_500) },
});
const { url } = await server.listen(0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ url })}\n`);
