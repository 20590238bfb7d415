import type { RouteDef } from '../../packages/server/src/index.js';

export interface QuoteStubState {
  rounds: number;
  accepts: number;
}

const LIFETIME_MS = 3000;

/**
 * Short-lived stand-ins for listFundingOptions and acceptQuote, for the re-quote case only while
 * the real operations are not routed: prices lapse after 3 s and every accept answers the 409
 * quote_expired a late accept gets, so both re-quote paths of the widget run in seconds.
 */
export function quoteStubs(state: QuoteStubState, remaining: (intentId: string) => string): RouteDef[] {
  return [
    {
      operationId: 'listFundingOptions',
      handler: (req, res) => {
        state.rounds += 1;
        const expires = new Date(Date.now() + LIFETIME_MS).toISOString();
        const option = (code: string, amount: string) => ({
          id: `qt_stub_${state.rounds}_${code}`, source: { rail: 'stellar', asset: code },
          pay_amount: { amount, asset: `stellar:${code}` }, receive_amount_min: { amount: remaining(String(req.params.id)), asset: 'stellar:USDC' },
          estimated_duration_seconds: 5, expires_at: expires, fees: [],
        });
        const id = String(req.params.id);
        res.json({ object: 'funding_options', funding_intent_id: id, options: [option('USDC', remaining(id)), option('XLM', `${100 + state.rounds}.5000000`)] });
      },
    },
    {
      operationId: 'acceptQuote',
      handler: (_req, res) => {
        state.accepts += 1;
        res.status(409).json({ error: { type: 'conflict_error', code: 'quote_expired', message: 'this quote has expired', request_id: 'req_stub', retryable: false } });
      },
    },
  ];
}
