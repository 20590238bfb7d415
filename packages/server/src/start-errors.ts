/**
 * What `pnpm start` says when it cannot start because something is already there: a taken port
 * (who answers on it, and how to start a second server) or a sandbox file another server holds
 * (a server is already running from this folder). Other failures keep their own message.
 */

/** Who answers HTTP on the port: a Fundkit server (its name, version, network) or something else; null when nothing answers. */
export async function whoAnswers(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1`, { signal: AbortSignal.timeout(2000) });
    const body = await res.json().catch(() => null) as { object?: string; name?: string; version?: string; network?: string } | null;
    if (res.ok && body?.object === 'api' && body.name) return `a Fundkit server (${body.name} ${body.version ?? ''}, ${body.network ?? 'unknown'} network)`.replace(' ,', ',');
    return `a server that is not Fundkit (GET /v1 answered HTTP ${res.status})`;
  } catch {
    return null;
  }
}

const SANDBOX_IN_USE = /sandbox file .* is in use by another sandbox/;

function secondServer(port: number): string {
  return `To run a second server beside it, give it its own port and data folder: PORT=${port + 10} FUNDKIT_DATA_DIR=.fundkit-${port + 10} pnpm start`;
}

/** The message for a start that failed because the port or the sandbox is taken; null for any other failure. */
export async function explainStartFailure(error: unknown, port: number): Promise<string | null> {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'EADDRINUSE') {
    const who = await whoAnswers(port);
    return `port ${port} is taken: ${who ? `${who} already answers at http://localhost:${port}` : 'another program listens there (it does not answer HTTP)'}. `
      + `Use it or stop it. ${secondServer(port)}`;
  }
  if (SANDBOX_IN_USE.test(message)) {
    const who = await whoAnswers(port);
    return 'a server is already running from this folder: its sandbox ledger file is in use'
      + `${who ? ` (${who} answers at http://localhost:${port})` : ''}. Use it, or stop it (Ctrl-C in its terminal). ${secondServer(port)}\n  (${message})`;
  }
  return null;
}

/** Ends the process with the explanation when there is one (exit 1); returns otherwise. */
export async function exitIfTaken(error: unknown, port: number): Promise<void> {
  const explained = await explainStartFailure(error, port);
  if (explained === null) return;
  process.stderr.write(`fundkit-server: ${explained}\n`);
  process.exit(1);
}
