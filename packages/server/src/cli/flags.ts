/** Command-line flags mirror the environment: `--port 4020` or `--port=4020` sets PORT. */
const FLAGS: Record<string, string> = {
  port: 'PORT',
  db: 'FUNDKIT_DB',
  bootstrap: 'FUNDKIT_BOOTSTRAP',
  'operator-key': 'FUNDKIT_OPERATOR_KEY',
  stellar: 'FUNDKIT_STELLAR',
  'horizon-url': 'FUNDKIT_HORIZON_URL',
  'master-key': 'FUNDKIT_MASTER_KEY',
  'quote-ttl-seconds': 'FUNDKIT_QUOTE_TTL_SECONDS',
  'quote-slippage-bps': 'FUNDKIT_QUOTE_SLIPPAGE_BPS',
  'sandbox-rates': 'FUNDKIT_SANDBOX_RATES',
  'webhook-retry-schedule': 'FUNDKIT_WEBHOOK_RETRY_SCHEDULE',
  'rate-limit': 'FUNDKIT_RATE_LIMIT',
  'log-level': 'LOG_LEVEL',
};

export class FlagError extends Error {}

export function flagsToEnv(argv: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]!);
    const name = match && FLAGS[match[1]!];
    if (!match || !name) throw new FlagError(`unknown flag ${argv[i]} (flags: ${Object.keys(FLAGS).map((f) => `--${f}`).join(', ')})`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new FlagError(`--${match[1]} needs a value`);
    env[name] = value;
  }
  return env;
}
