/** A state as a badge: the words of the API, lower-cased for reading. */
export function Status({ value }: { value: string }) {
  const tone = /CREDITED|SETTLED|SUCCEEDED|COMPLETED|CONFIRMED/.test(value) ? 'ok' : /FAILED|EXPIRED|CANCELLED/.test(value) ? 'bad' : 'wait';
  return <span class={`status ${tone}`}>{value}</span>;
}
