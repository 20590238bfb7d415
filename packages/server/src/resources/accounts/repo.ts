import { bindAll, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';

export interface AccountRecord {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: string | null;
  created_at: string;
}

export interface SessionRecord {
  id: string;
  token_hash: string;
  account_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

type Verification = { account_id: string; expires_at: string; used_at: string | null };

const INSERT_ACCOUNT = prepared<never, AccountRecord>((k, p) =>
  k.insertInto('accounts').values(bindAll(p, ['id', 'email', 'password_hash', 'email_verified_at', 'created_at'])));

const BY_EMAIL = prepared<AccountRecord, { email: string }>((k, p) => k.selectFrom('accounts').selectAll().where('email', '=', p('email')));

const BY_ID = prepared<AccountRecord, { id: string }>((k, p) => k.selectFrom('accounts').selectAll().where('id', '=', p('id')));

const UPDATE_PASSWORD_HASH = prepared<never, { id: string; passwordHash: string }>((k, p) =>
  k.updateTable('accounts').set({ password_hash: p('passwordHash') }).where('id', '=', p('id')));

const INSERT_VERIFICATION = prepared<never, { token_hash: string; account_id: string; expires_at: string }>((k, p) =>
  k.insertInto('email_verifications').values(bindAll(p, ['token_hash', 'account_id', 'expires_at'])));

const VERIFICATION = prepared<Verification, { tokenHash: string }>((k, p) =>
  k.selectFrom('email_verifications').select(['account_id', 'expires_at', 'used_at']).where('token_hash', '=', p('tokenHash')));

const USE_VERIFICATION = prepared<never, { tokenHash: string; at: string }>((k, p) =>
  k.updateTable('email_verifications').set({ used_at: p('at') }).where('token_hash', '=', p('tokenHash')));

const VERIFY_ACCOUNT = prepared<never, { accountId: string; at: string }>((k, p) =>
  k.updateTable('accounts').set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(p('at'))) })).where('id', '=', p('accountId')));

const INSERT_SESSION = prepared<never, SessionRecord>((k, p) =>
  k.insertInto('account_sessions').values(bindAll(p, ['id', 'token_hash', 'account_id', 'created_at', 'expires_at', 'revoked_at'])));

const SESSION_BY_HASH = prepared<SessionRecord, { tokenHash: string }>((k, p) =>
  k.selectFrom('account_sessions').selectAll().where('token_hash', '=', p('tokenHash')));

const SESSION_BY_ID = prepared<SessionRecord, { id: string }>((k, p) => k.selectFrom('account_sessions').selectAll().where('id', '=', p('id')));

const REVOKE_SESSION = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('account_sessions').set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(p('at'))) })).where('id', '=', p('id')));

export class AccountsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async insertAccount(account: AccountRecord): Promise<void> {
    await this.sql.run(INSERT_ACCOUNT, account);
  }

  async findByEmail(email: string): Promise<AccountRecord | undefined> {
    return this.sql.get(BY_EMAIL, { email });
  }

  async findById(id: string): Promise<AccountRecord | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.sql.run(UPDATE_PASSWORD_HASH, { id, passwordHash });
  }

  async insertVerification(tokenHash: string, accountId: string, expiresAt: string): Promise<void> {
    await this.sql.run(INSERT_VERIFICATION, { token_hash: tokenHash, account_id: accountId, expires_at: expiresAt });
  }

  async findVerification(tokenHash: string): Promise<Verification | undefined> {
    return this.sql.get(VERIFICATION, { tokenHash });
  }

  /** Marks the token used and the account verified together. */
  async useVerification(tokenHash: string, accountId: string, at: string): Promise<void> {
    await this.sql.transaction(async () => {
      await this.sql.run(USE_VERIFICATION, { tokenHash, at });
      await this.sql.run(VERIFY_ACCOUNT, { accountId, at });
    });
  }

  async insertSession(session: SessionRecord): Promise<void> {
    await this.sql.run(INSERT_SESSION, session);
  }

  async findSessionByHash(tokenHash: string): Promise<SessionRecord | undefined> {
    return this.sql.get(SESSION_BY_HASH, { tokenHash });
  }

  async findSessionById(id: string): Promise<SessionRecord | undefined> {
    return this.sql.get(SESSION_BY_ID, { id });
  }

  async revokeSession(id: string, at: string): Promise<void> {
    await this.sql.run(REVOKE_SESSION, { id, at });
  }
}
