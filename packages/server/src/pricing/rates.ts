/**
 * The sandbox market maker's rate table from configuration: `XLM/USDC=0.1,EURC/USDC=1.08`
 * ("BASE/QUOTE=how many QUOTE one BASE buys"). Parsed strictly so a typo stops start-up with one
 * line instead of silently seeding a book nobody can use.
 */
const PAIR = /^(USDC|EURC|XLM)\/(USDC|EURC|XLM)$/;
const RATE = /^(0|[1-9]\d{0,11})(\.\d{1,7})?$/;

export class RatesError extends Error {}

export function parseRates(raw: string | undefined): Record<string, string> | null {
  if (raw === undefined || raw.trim() === '') return null;
  const rates: Record<string, string> = {};
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [pair = '', rate = ''] = part.split('=').map((s) => s.trim());
    const m = PAIR.exec(pair);
    if (!m || m[1] === m[2]) throw new RatesError(`FUNDKIT_SANDBOX_RATES: "${pair}" is not a pair of two of USDC, EURC, XLM`);
    if (!RATE.test(rate) || /^0(\.0*)?$/.test(rate)) throw new RatesError(`FUNDKIT_SANDBOX_RATES: rate of ${pair} must be a positive decimal, got "${rate}"`);
    rates[pair] = rate;
  }
  return rates;
}
