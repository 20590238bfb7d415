import { StrKey } from '@stellar/stellar-sdk';
import type { ApplicationRecord, DepositType } from '../../domain/application.js';
import { ApiError, notFound } from '../../http/api-error.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { ApplicationsRepo } from './repo.js';
import { join } from 'node:path';
import { checkLogo, rasteriseSvg, removeLogo, storeLogo } from './logo.js';

export interface ApplicationInput {
  name?: string;
  settlement_address?: string | null;
  default_deposit_type?: DepositType;
}

/** Who is asking: an account sees its own applications, the operator sees all. */
export type Owner = { accountId: string } | 'operator';

export function presentApplication(app: ApplicationRecord) {
  return {
    id: app.id,
    object: 'application' as const,
    account_id: app.account_id,
    name: app.name,
    settlement_address: app.settlement_address,
    default_deposit_type: app.default_deposit_type,
    status: app.status === 'active' ? ('ACTIVE' as const) : ('INACTIVE' as const),
    logo_url: app.logo_url,
    created_at: app.created_at,
    updated_at: app.updated_at,
  };
}

function checkSettlementAddress(address: string | null | undefined): void {
  if (address && !StrKey.isValidEd25519PublicKey(address)) {
    throw new ApiError('INVALID_DESTINATION', 'settlement_address is not a valid Stellar account (G…)', {
      details: [{ path: 'body.settlement_address', message: 'is not a valid Stellar public key' }],
    });
  }
}

export class ApplicationsService {
  constructor(
    private readonly repo: ApplicationsRepo,
    private readonly logoDir: string,
    private readonly publicBaseUrl: () => string,
  ) {}

  async create(accountId: string | null, input: ApplicationInput & { name: string }): Promise<ApplicationRecord> {
    checkSettlementAddress(input.settlement_address);
    const now = isoNow();
    const app: ApplicationRecord = { id: newId('application'), account_id: accountId, name: input.name, settlement_address: input.settlement_address ?? null, default_deposit_type: input.default_deposit_type ?? 'account', status: 'active', logo_url: null, logo_file: null, logo_content_type: null, created_at: now, updated_at: now };
    await this.repo.insert(app);
    return app;
  }

  async findById(id: string): Promise<ApplicationRecord | undefined> {
    return this.repo.findById(id);
  }

  /** Another account's application is 404, never 403: its existence is not disclosed. */
  async get(owner: Owner, id: string): Promise<ApplicationRecord> {
    const app = await this.repo.findById(id);
    if (!app || (owner !== 'operator' && app.account_id !== owner.accountId)) throw notFound('application');
    return app;
  }

  async list(owner: Owner, page: PageRequest, status?: 'active' | 'inactive') {
    const filter = owner === 'operator' ? { status } : { accountId: owner.accountId };
    return toList(await this.repo.list(filter, page), page, presentApplication);
  }

  async update(owner: Owner, id: string, input: ApplicationInput): Promise<ApplicationRecord> {
    await this.get(owner, id);
    checkSettlementAddress(input.settlement_address);
    await this.repo.update(id, { name: input.name, settlement_address: input.settlement_address, default_deposit_type: input.default_deposit_type }, isoNow());
    return (await this.repo.findById(id))!;
  }

  async setStatus(id: string, status: 'active' | 'inactive'): Promise<ApplicationRecord> {
    await this.get('operator', id);
    await this.repo.update(id, { status }, isoNow());
    return (await this.repo.findById(id))!;
  }

  /** An SVG is stored as the PNG it renders to; the replaced logo's file is deleted. */
  async uploadLogo(owner: Owner, id: string, bytes: Buffer): Promise<ApplicationRecord> {
    const previous = (await this.get(owner, id)).logo_file;
    const checked = checkLogo(bytes);
    const logo = checked.extension === 'svg' ? { bytes: await rasteriseSvg(bytes), extension: 'png', contentType: 'image/png' } : { bytes, ...checked };
    const file = storeLogo(this.logoDir, id, logo.bytes, logo.extension);
    const url = `${this.publicBaseUrl()}/v1/applications/${id}/logo`;
    await this.repo.update(id, { logo_url: url, logo_file: file, logo_content_type: logo.contentType }, isoNow());
    if (previous && previous !== file) removeLogo(this.logoDir, previous);
    return (await this.repo.findById(id))!;
  }

  /** Public (the checkout shows it): the stored image, or 404. */
  async logo(id: string): Promise<{ path: string; file: string; contentType: string }> {
    const app = await this.repo.findById(id);
    if (!app?.logo_file || !app.logo_content_type) throw notFound('logo');
    return { path: join(this.logoDir, app.logo_file), file: app.logo_file, contentType: app.logo_content_type };
  }

  /**
   * The sandbox's development account takes the sandbox application it has none yet: the
   * dashboard's login then shows the quickstart's keys, intents and webhooks. An application owned
   * by an account already stays with it.
   */
  async adopt(id: string, accountId: string): Promise<ApplicationRecord | undefined> {
    const app = await this.repo.findById(id);
    if (!app || app.account_id !== null) return app;
    await this.repo.update(id, { account_id: accountId }, isoNow());
    return this.repo.findById(id);
  }

  /** Bootstrap: the unowned application of that name, created when missing. */
  async ensureUnowned(name: string, settlementAddress: string | null): Promise<ApplicationRecord> {
    const existing = await this.repo.findUnownedByName(name);
    if (!existing) return this.create(null, { name, settlement_address: settlementAddress });
    if (settlementAddress !== existing.settlement_address && settlementAddress !== null) {
      checkSettlementAddress(settlementAddress);
      await this.repo.update(existing.id, { settlement_address: settlementAddress }, isoNow());
    }
    return (await this.repo.findById(existing.id))!;
  }
}
