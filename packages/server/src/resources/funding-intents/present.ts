import { fromStroops } from '../../lib/money.js';
import { Networks } from '@stellar/stellar-sdk';
import { findAsset, type AssetInfo, type StellarNetworkName } from '../assets/registry.js';
import { asPayable, payable, type IntentSource } from '../../records/quote-intent-link.js';
import type { DepositAccountRecord, FundingIntentRecord } from '../../records/funding-intents.js';

/**
 * An account still PROVISIONING does not exist on chain: nothing could be paid to it (or, with a
 * createAccount, it would break its provisioning), so its address is not published yet, neither
 * here nor in the funding instructions: both show it from the moment it takes payments.
 */
const publishedAddress = (account: DepositAccountRecord) => (account.status === 'PROVISIONING' ? null : account.address);

function presentDepositAccount(account: DepositAccountRecord) {
  return {
    id: account.id,
    object: 'deposit_account' as const,
    type: account.deposit_type,
    network: account.network,
    address: publishedAddress(account),
    collection_address: account.collection_address,
    asset: account.asset,
    status: account.status,
    created_at: account.created_at,
    activated_at: account.activated_at,
    retired_at: account.retired_at,
  };
}

/** SEP-7 `web+stellar:pay` URI, so wallets and QR codes carry the exact payment. */
function paymentUri(address: string, amount: string, asset: AssetInfo): string {
  const params = new URLSearchParams({ destination: address, amount });
  if (asset.issuer) {
    params.set('asset_code', asset.code);
    params.set('asset_issuer', asset.issuer);
  }
  if (asset.stellar_network !== 'pubnet') {
    params.set('network_passphrase', asset.stellar_network === 'sandbox' ? Networks.STANDALONE : Networks.TESTNET);
  }
  return `web+stellar:pay?${params.toString().replace(/\+/g, '%20')}`;
}

export function fundingInstructions(intent: FundingIntentRecord, account: DepositAccountRecord) {
  const asset = findAsset(intent.requirement_asset, account.stellar_network as StellarNetworkName)!;
  const remaining = intent.requirement_amount - intent.received_amount;
  const amount = fromStroops(remaining > 0n ? remaining : 0n);
  const address = publishedAddress(account);
  return {
    network: 'stellar',
    stellar_network: asset.stellar_network,
    deposit: { address, type: account.deposit_type },
    asset: { id: asset.id, symbol: asset.symbol, stellar_asset: asset.stellar_asset, code: asset.code, issuer: asset.issuer, contract: asset.contract, decimals: asset.decimals },
    amount,
    required_amount: fromStroops(intent.requirement_amount),
    received_amount: fromStroops(intent.received_amount),
    expires_at: intent.expires_at,
    payment_uri: address ? paymentUri(address, amount, asset) : null,
  };
}

/** Everything besides the intent's own row that its wire shape shows (loaded in batches by the read model). */
export interface IntentRelations {
  account: DepositAccountRecord;
  payment: unknown;
  settlement: unknown;
  protocol: unknown;
  failure: { code: string; message: string } | null;
  /** the accepted quote (present only when the intent has one) */
  quote: unknown;
}

/** The wire shape of a funding intent (spec: FundingIntent), from its row and its relations. */
/** hostedFundingUrl: the intent's payer-facing link, with its secret (resources/funding-intents/checkout-link.ts). */
export function presentFundingIntent(intent: FundingIntentRecord, related: IntentRelations, hostedFundingUrl: string) {
  const { account } = related;
  const amount = fromStroops(intent.requirement_amount);
  const linked = intent as Partial<IntentSource> & FundingIntentRecord;
  const quoted = Boolean(linked.quote_id);
  // an accepted quote: the payer sends its source asset and amount, along its route
  const target = quoted ? payable(intent) : null;
  return {
    id: intent.id,
    object: 'funding_intent' as const,
    application_id: intent.application_id,
    requirement: { amount, asset: intent.requirement_asset },
    destination: { network: intent.destination_network, asset: intent.destination_asset, address: intent.destination_address },
    source: target ? { network: 'stellar', asset: target.asset, amount: fromStroops(target.amount) } : { network: 'stellar', asset: intent.requirement_asset, amount },
    quote: quoted ? related.quote : null,
    route: quoted ? { type: linked.route_type, provider: 'stellar' } : { type: 'DIRECT_STELLAR', provider: 'stellar' },
    status: intent.status,
    received_amount: fromStroops(intent.received_amount),
    deposit_account: presentDepositAccount(account),
    reference: intent.reference,
    metadata: JSON.parse(intent.metadata) as Record<string, unknown>,
    protocol: related.protocol,
    funding_instructions: fundingInstructions(quoted ? asPayable(intent) : intent, account),
    payment: related.payment,
    settlement: related.settlement,
    failure: related.failure,
    hosted_funding_url: hostedFundingUrl,
    livemode: intent.environment === 'live',
    expires_at: intent.expires_at,
    created_at: intent.created_at,
    updated_at: intent.updated_at,
  };
}
