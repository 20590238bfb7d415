/**
 * A payer's status stream (GET /v1/public/funding-intents/{id}/status as text/event-stream), read
 * the way the checkout reads it: every `status` event's view, in order, until the server ends it.
 */
export interface StatusStream {
  /** the status of each view received so far */
  statuses: string[];
  /** each view received so far, as sent */
  views: string[];
  /** settles when the server has ended the stream */
  ended: Promise<void>;
  /** the payer leaves */
  close(): void;
}

export async function openStatusStream(baseUrl: string, intentId: string, token: string): Promise<StatusStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/v1/public/funding-intents/${intentId}/status`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: abort.signal,
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw new Error(`no event stream: ${response.status} ${await response.text()}`);
  const statuses: string[] = [];
  const views: string[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event.split('\n').find((line) => line.startsWith('data: '));
        if (!event.includes('event: status') || !data) continue;
        views.push(data.slice(6));
        statuses.push(JSON.parse(data.slice(6)).status);
      }
    }
  })();
  return { statuses, views, ended, close: () => abort.abort() };
}
