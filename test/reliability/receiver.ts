/** A webhook receiver whose behaviour can be switched mid-test: answer, hang, reset or fail. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode = 'ok' | 'hang' | 'reset' | 'fail' | 'slow';

export interface FaultyReceiver {
  url: string;
  mode: Mode;
  /** every request, in arrival order: the event id and when it came */
  requests: { eventId: string; at: number }[];
  /** event ids answered 2xx */
  delivered: Set<string>;
  close(): Promise<void>;
}

export async function startFaultyReceiver(mode: Mode = 'ok'): Promise<FaultyReceiver> {
  const hung = new Set<ServerResponse>();
  const receiver: FaultyReceiver = { url: '', mode, requests: [], delivered: new Set(), close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let eventId = '';
      try {
        eventId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      } catch {
        // not an event: still counted as a request
      }
      receiver.requests.push({ eventId, at: Date.now() });
      const ok = () => {
        receiver.delivered.add(eventId);
        res.writeHead(200).end('ok');
      };
      switch (receiver.mode) {
        case 'hang': hung.add(res); return;
        case 'reset': req.socket.destroy(); return;
        case 'fail': res.writeHead(500).end('boom'); return;
        // in flight long enough for a kill -9 to land mid-delivery
        case 'slow': setTimeout(ok, 150 + Math.random() * 150); return;
        default: ok();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => {
    hung.clear();
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return receiver;
}
