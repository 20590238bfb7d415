/**
 * Horizon effects (protocols/horizon/effects): what an operation did to each account, derived
 * from the operation's record and what it really moved. A failed transaction has none. Effect
 * type numbers and the order within an operation follow Horizon's ingestion (effects.go).
 */
import { fromStroops } from './shared/money.js';
import type { HorizonOperationRecord } from './shared/horizon-types.js';
import type { OpOutcome } from './operations/context.js';
import { setOptionsEffects, signerSponsorshipEffects } from './option-effects.js';

/** An effect before it is numbered: the account it concerns, its type and its fields. */
export interface EffectBody {
  account: string;
  type: string;
  type_i: number;
  [field: string]: unknown;
}

type Fields = Record<string, unknown>;

const TYPE_I = {
  account_created: 0, account_removed: 1, account_credited: 2, account_debited: 3, signer_created: 10,
  trustline_created: 20, trustline_removed: 21, trustline_updated: 22,
  account_sponsorship_created: 60, trustline_sponsorship_created: 63,
} as const;

function effect(account: string, type: keyof typeof TYPE_I, fields: Fields = {}): EffectBody {
  return { account, type, type_i: TYPE_I[type], ...fields };
}

/** asset_type, asset_code and asset_issuer of a record, optionally under a prefix (source_). */
function assetOf(r: Fields, prefix = ''): Fields {
  const out: Fields = { asset_type: r[`${prefix}asset_type`] };
  if (r[`${prefix}asset_code`] !== undefined) out.asset_code = r[`${prefix}asset_code`];
  if (r[`${prefix}asset_issuer`] !== undefined) out.asset_issuer = r[`${prefix}asset_issuer`];
  return out;
}

function createAccountEffects(r: Fields, out: OpOutcome): EffectBody[] {
  const account = r.account as string;
  return [
    effect(account, 'account_created', { starting_balance: r.starting_balance }),
    effect(r.funder as string, 'account_debited', { asset_type: 'native', amount: r.starting_balance }),
    effect(account, 'signer_created', { weight: 1, public_key: account, key: '' }),
    ...(out.sponsor ? [effect(account, 'account_sponsorship_created', { sponsor: out.sponsor })] : []),
  ];
}

function changeTrustEffects(r: Fields, out: OpOutcome): EffectBody[] {
  const trustor = r.trustor as string;
  const asset = assetOf(r);
  const type = `trustline_${out.trustline ?? 'updated'}` as keyof typeof TYPE_I;
  const effects = [effect(trustor, type, { ...asset, limit: r.limit })];
  if (out.trustline === 'created' && out.sponsor) {
    const canonical = `${String(r.asset_code)}:${String(r.asset_issuer)}`;
    effects.push(effect(trustor, 'trustline_sponsorship_created', { asset_type: r.asset_type, asset: canonical, sponsor: out.sponsor }));
  }
  return effects;
}

/** The effects of one applied operation, in Horizon's order. */
export function operationEffects(record: HorizonOperationRecord, out: OpOutcome): EffectBody[] {
  const r = record as unknown as Fields;
  switch (record.type) {
    case 'create_account':
      return createAccountEffects(r, out);
    case 'payment':
      return [
        effect(r.to as string, 'account_credited', { ...assetOf(r), amount: r.amount }),
        effect(r.from as string, 'account_debited', { ...assetOf(r), amount: r.amount }),
      ];
    case 'path_payment_strict_receive':
    case 'path_payment_strict_send':
      return [
        effect(r.to as string, 'account_credited', { ...assetOf(r), amount: r.amount }),
        effect(r.from as string, 'account_debited', { ...assetOf(r, 'source_'), amount: r.source_amount }),
      ];
    case 'account_merge': {
      const amount = fromStroops(out.sourceAmount ?? 0n);
      return [
        effect(r.account as string, 'account_debited', { asset_type: 'native', amount }),
        effect(r.into as string, 'account_credited', { asset_type: 'native', amount }),
        effect(r.account as string, 'account_removed'),
        ...signerSponsorshipEffects(r.account as string, out),
      ];
    }
    case 'set_options':
      return setOptionsEffects(r, out);
    case 'change_trust':
      return changeTrustEffects(r, out);
    case 'invoke_host_function':
      // a SAC transfer between G… accounts debits one and credits the other, as Horizon ingests it
      return ((r.asset_balance_changes ?? []) as Fields[]).flatMap((c) => [
        effect(c.from as string, 'account_debited', { ...assetOf(c), amount: c.amount }),
        effect(c.to as string, 'account_credited', { ...assetOf(c), amount: c.amount }),
      ]);
    default:
      return [];
  }
}

/** Horizon's effect id and paging token: the operation id and the effect's 1-based order. */
export function effectIds(opId: bigint, order: number): { id: string; paging_token: string } {
  return {
    id: `${opId.toString().padStart(19, '0')}-${order.toString().padStart(10, '0')}`,
    paging_token: `${opId}-${order}`,
  };
}
