/** GET / and GET /fee_stats: static apart from the ledger number and passphrase. */
import type { Request, Response } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { PROTOCOL_VERSION } from '../ledgers.js';
import { baseUrl, sendHal } from './render.js';

export function root(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const b = baseUrl(req);
    const t = (href: string) => ({ href: `${b}${href}`, templated: true });
    const latest = await ledger.ledgerSequence();
    sendHal(res, {
      // Only what this router serves (and the friendbot the server mounts beside it).
      _links: {
        account: t('/accounts/{account_id}'),
        accounts: t('/accounts{?signer,sponsor,asset,cursor,limit,order}'),
        account_transactions: t('/accounts/{account_id}/transactions{?cursor,limit,order}'),
        effects: t('/effects{?cursor,limit,order}'),
        fee_stats: { href: `${b}/fee_stats` },
        friendbot: t('/friendbot{?addr}'),
        ledger: t('/ledgers/{sequence}'),
        ledgers: t('/ledgers{?cursor,limit,order}'),
        operation: t('/operations/{id}'),
        operations: t('/operations{?cursor,limit,order,include_failed}'),
        payments: t('/payments{?cursor,limit,order,include_failed}'),
        self: { href: `${b}/` },
        strict_receive_paths: t('/paths/strict-receive{?source_assets,source_account,destination_account,destination_asset_type,destination_asset_issuer,destination_asset_code,destination_amount}'),
        strict_send_paths: t('/paths/strict-send{?destination_account,destination_assets,source_asset_type,source_asset_issuer,source_asset_code,source_amount}'),
        transaction: t('/transactions/{hash}'),
        transactions: t('/transactions{?cursor,limit,order}'),
      },
      horizon_version: 'fundkit-sandbox',
      core_version: 'fundkit-sandbox',
      ingest_latest_ledger: latest,
      history_latest_ledger: latest,
      history_latest_ledger_closed_at: (await ledger.getLedger(latest))?.closed_at ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      history_elder_ledger: await ledger.elderLedger(),
      core_latest_ledger: latest,
      network_passphrase: ledger.passphrase,
      current_protocol_version: PROTOCOL_VERSION,
      supported_protocol_version: PROTOCOL_VERSION,
      core_supported_protocol_version: PROTOCOL_VERSION,
    });
  };
}

export function feeStats(ledger: SandboxLedger) {
  return async (_req: Request, res: Response) => {
    const flat = (v: string) => Object.fromEntries(
      ['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99'].map((k) => [k, v]),
    );
    // No congestion in the sandbox: everyone pays the base fee.
    sendHal(res, {
      last_ledger: String(await ledger.ledgerSequence()),
      last_ledger_base_fee: '100',
      ledger_capacity_usage: '0',
      fee_charged: flat('100'),
      max_fee: flat('100'),
    });
  };
}
