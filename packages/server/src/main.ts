import { startBanner } from './banner.js';
import { FlagError, flagsToEnv } from './cli/flags.js';
import { ConfigError } from './config.js';
import { createServer, isWildcardHost } from './index.js';
import { exitIfTaken } from './start-errors.js';

/** The `fundkit-server` process: configuration from the environment, graceful shutdown. */
async function main(): Promise<void> {
  let server;
  try {
    server = await createServer({ env: { ...process.env, ...flagsToEnv(process.argv.slice(2)) } });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof FlagError) {
      process.stderr.write(`fundkit-server: ${error.message}\n`);
      process.exit(2);
    }
    await exitIfTaken(error, Number(process.env.PORT) || 4010);
    throw error;
  }
  const listening = server;
  const { url, host, port } = await server.listen().catch(async (error: unknown) => {
    await exitIfTaken(error, listening.config.port);
    throw error;
  });
  server.logger.info({ url, host, stellar: server.config.stellar, db: server.config.dbPath }, 'fundkit-server listening');
  // outside the sandbox the default stays every interface (a server behind a load balancer): say so
  if (server.config.stellar !== 'sandbox') {
    const where = isWildcardHost(host) ? `every interface (${host}:${port}${server.config.host === null ? ', the default outside the sandbox' : ''}); HOST=127.0.0.1 keeps it to this machine` : `${host}:${port} (HOST)`;
    process.stdout.write(`fundkit-server listening on ${where}\n`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    // in-flight requests finish; a stuck one cannot hold the process forever
    setTimeout(() => process.exit(1), 10_000).unref();
    void server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // after the handlers: the banner creates a demo intent (a ledger round trip), and a SIGTERM
  // during it must still shut down gracefully
  process.stdout.write(await startBanner(server, url, host));
}

void main().catch((error: unknown) => {
  process.stderr.write(`fundkit-server: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
