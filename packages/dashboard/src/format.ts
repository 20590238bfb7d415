/** Dates in the browser's locale (Intl picks it up from navigator.language). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Amounts are decimal strings in the API: format without going through a float. */
export function formatAmount(amount: string, asset: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const grouped = new Intl.NumberFormat(undefined).format(BigInt(whole.replace('-', '')));
  const sep = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1 }).format(1.5).charAt(1);
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole.startsWith('-') ? '-' : ''}${grouped}${sep}${trimmed} ${asset}`;
}
