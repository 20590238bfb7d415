/**
 * Horizon's effects of a set_options (effects.go addSetOptionsEffects), and of signers whose
 * reserve a sponsor takes on or gives back (addSignerSponsorshipEffects).
 */
import type { EffectBody } from './effects.js';
import type { OpOutcome } from './operations/context.js';

const TYPE_I = {
  account_thresholds_updated: 4, account_home_domain_updated: 5, account_flags_updated: 6,
  account_inflation_destination_updated: 7, signer_created: 10, signer_removed: 11, signer_updated: 12,
  signer_sponsorship_created: 72, signer_sponsorship_removed: 74,
} as const;

type Fields = Record<string, unknown>;

const effect = (account: string, type: keyof typeof TYPE_I, fields: Fields): EffectBody =>
  ({ account, type, type_i: TYPE_I[type], ...fields });

const FLAG_NAMES = [[1, 'auth_required_flag'], [2, 'auth_revocable_flag'], [4, 'auth_immutable_flag'], [8, 'auth_clawback_enabled_flag']] as const;

/** Each flag the operation set (true) or cleared (false), as Horizon's effect details name them. */
function flagDetails(r: Fields): Fields {
  const out: Fields = {};
  for (const [list, value] of [['set_flags', true], ['clear_flags', false]] as const) {
    const bits = (r[list] as number[] | undefined) ?? [];
    for (const [bit, name] of FLAG_NAMES) if (bits.includes(bit)) out[name] = value;
  }
  return out;
}

/** Horizon renders all three thresholds, 0 for those the operation left alone. */
function thresholds(r: Fields): Fields {
  return { low_threshold: r.low_threshold ?? 0, med_threshold: r.med_threshold ?? 0, high_threshold: r.high_threshold ?? 0 };
}

export function setOptionsEffects(r: Fields, out: OpOutcome): EffectBody[] {
  const source = r.source_account as string;
  const effects: EffectBody[] = [];
  if (r.home_domain !== undefined) effects.push(effect(source, 'account_home_domain_updated', { home_domain: r.home_domain }));
  if (['low_threshold', 'med_threshold', 'high_threshold'].some((k) => r[k] !== undefined)) {
    effects.push(effect(source, 'account_thresholds_updated', thresholds(r)));
  }
  const flags = flagDetails(r);
  if (Object.keys(flags).length > 0) effects.push(effect(source, 'account_flags_updated', flags));
  if (r.inflation_dest !== undefined) {
    effects.push(effect(source, 'account_inflation_destination_updated', { inflation_destination: r.inflation_dest }));
  }
  for (const c of out.signers ?? []) effects.push(effect(source, c.type, { weight: c.weight, public_key: c.key, key: '' }));
  return [...effects, ...signerSponsorshipEffects(source, out)];
}

export function signerSponsorshipEffects(account: string, out: OpOutcome): EffectBody[] {
  return (out.signerSponsorships ?? []).map((s) => (s.sponsor
    ? effect(account, 'signer_sponsorship_created', { sponsor: s.sponsor, signer: s.signer })
    : effect(account, 'signer_sponsorship_removed', { former_sponsor: s.formerSponsor, signer: s.signer })));
}
