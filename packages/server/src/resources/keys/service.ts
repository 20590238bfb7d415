import { randomBytes } from 'node:crypto';
import type { ApplicationRecord } from '../../domain/application.js';
import type { Environment } from '../../domain/environment.js';
import { notFound } from '../../http/api-error.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { ApiKeyRecord, KeyType, KeysRepo } from './repo.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_FORM = /^(sk|pk)_(test|live)_[A-Za-z0-9]{16,128}$/;

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely
  for (const b of bytes) if (b < 248 && out.length < length) out += BASE62[b % 62];
  return out.length === length ? out : out + randomBase62(length - out.length);
}

/** What a key's form says: type and environment follow its prefix. */
export function parseKeyForm(key: string): { type: KeyType; environment: Environment } | null {
  const match = KEY_FORM.exec(key);
  if (!match) return null;
  return { type: match[1] === 'sk' ? 'secret' : 'publishable', environment: match[2] as Environment };
}

/** last_used_at is written at most this often per key (it is not on the request's critical path). */
const TOUCH_EVERY_MS = 60_000;
const MAX_CACHED_KEYS = 10_000;

export class KeysService {
  /**
   * Key rows by hash: every authenticated request needs one. Dropped whenever the database's cache
   * generation moves (a revocation or exposure on any server: at once here, within a second on
   * the others; freshness.ts).
   */
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly touchedAt = new Map<string, number>();
  /**
   * The hash of each key that authenticated (its SHA-256 was ~4% of a small request's CPU). Only
   * keys found in the store are kept, so made-up tokens cannot fill it; a revoked key's entry
   * stays harmless (its hash no longer finds a cached row, and the stored row is revoked).
   */
  private readonly hashOf = new Map<string, string>();

  constructor(private readonly repo: KeysRepo, private readonly now: () => number = Date.now) {
    repo.freshness.onDrop(() => this.byHash.clear());
  }

  /** Stores only the SHA-256 of the key; the plaintext is returned once. */
  async create(applicationId: string, environment: Environment, type: KeyType): Promise<{ record: ApiKeyRecord; plaintext: string }> {
    const plaintext = `${type === 'secret' ? 'sk' : 'pk'}_${environment}_${randomBase62(32)}`;
    return { record: await this.store(applicationId, plaintext), plaintext };
  }

  /** Bootstrap: registers a given key unless it is already known (idempotent across starts). */
  async importKey(applicationId: string, plaintext: string): Promise<ApiKeyRecord> {
    const existing = await this.repo.findByHash(sha256Hex(plaintext));
    if (existing) {
      if (existing.key.application_id !== applicationId) throw new Error(`key …${plaintext.slice(-4)} belongs to another application`);
      return existing.key;
    }
    return this.store(applicationId, plaintext);
  }

  private async store(applicationId: string, plaintext: string): Promise<ApiKeyRecord> {
    const form = parseKeyForm(plaintext);
    if (!form) throw new Error(`"${plaintext.slice(0, 8)}…" is not a sk_/pk_ test/live key`);
    const record: ApiKeyRecord = {
      id: newId('api_key'),
      application_id: applicationId,
      environment: form.environment,
      type: form.type,
      key_hash: sha256Hex(plaintext),
      prefix: plaintext.slice(0, 8),
      last4: plaintext.slice(-4),
      created_at: isoNow(),
      last_used_at: null,
      exposed_at: null,
      revoked_at: null,
    };
    await this.repo.insert(record);
    return record;
  }

  /**
   * The key and its application. The key row is cached until the database's cache generation
   * moves (checked at most every 250 ms, freshness.ts); the application comes from the
   * applications repo's row cache, which follows the same generation.
   */
  /** The application a key belongs to, without counting it as a use (start-up reads its saved keys). */
  async applicationOf(plaintext: string): Promise<ApplicationRecord | undefined> {
    return (await this.repo.findByHash(sha256Hex(plaintext)))?.application;
  }

  async authenticate(plaintext: string): Promise<{ key: ApiKeyRecord; application: ApplicationRecord } | undefined> {
    const freshness = this.repo.freshness;
    const due = freshness.fresh();
    if (due) await due;
    const hash = this.hashOf.get(plaintext) ?? sha256Hex(plaintext);
    let key = this.byHash.get(hash);
    let application: ApplicationRecord | undefined;
    if (!key) {
      const epoch = freshness.epoch;
      const found = await this.repo.findByHash(hash);
      if (!found) return undefined;
      ({ key, application } = found);
      // not when the caches were dropped during the read: the row may be older than the drop
      if (!key.revoked_at && freshness.epoch === epoch) {
        if (this.byHash.size >= MAX_CACHED_KEYS) this.byHash.clear();
        this.byHash.set(hash, key);
        if (this.hashOf.size >= MAX_CACHED_KEYS) this.hashOf.clear();
        this.hashOf.set(plaintext, hash);
      }
    } else {
      application = await this.repo.findApplication(key.application_id);
    }
    await this.touch(key.id);
    return { key, application: application! };
  }

  private async touch(keyId: string): Promise<void> {
    const now = this.now();
    if (now - (this.touchedAt.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touchedAt.set(keyId, now);
    await this.repo.touch(keyId, isoNow(now));
  }

  async markExposed(keyId: string): Promise<void> {
    await this.repo.markExposed(keyId, isoNow());
  }

  async list(applicationId: string, page: PageRequest) {
    return toList(await this.repo.list(applicationId, page), page, (key) => presentKey(key));
  }

  async revoke(applicationId: string, keyId: string) {
    const key = await this.repo.findById(keyId);
    if (!key || key.application_id !== applicationId) throw notFound('api key');
    // revoking twice is a no-op that answers the revoked key (the spec's 200), not an error
    if (!key.revoked_at) await this.repo.revoke(keyId, isoNow());
    return presentKey((await this.repo.findById(keyId))!);
  }
}

/** Masked: the key itself is shown only by `create`, as `key`. */
export function presentKey(key: ApiKeyRecord, plaintext?: string) {
  return {
    id: key.id,
    object: 'api_key' as const,
    application_id: key.application_id,
    type: key.type,
    environment: key.environment,
    masked: `${key.prefix}…${key.last4}`,
    status: key.revoked_at ? ('revoked' as const) : ('active' as const),
    ...(plaintext ? { key: plaintext } : {}),
    exposed_at: key.exposed_at,
    last_used_at: key.last_used_at,
    created_at: key.created_at,
    revoked_at: key.revoked_at,
  };
}
