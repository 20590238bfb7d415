import type { Db } from '../../db/connection.js';

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

export class AccountsRepo {
  constructor(private readonly db: Db) {}

  insertAccount(account: AccountRecord): void {
    this.db.prepare('INSERT INTO accounts (id, email, password_hash, email_verified_at, created_at) VALUES (@id, @email, @password_hash, @email_verified_at, @created_at)').run(account);
  }

  findByEmail(email: string): AccountRecord | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRecord | undefined;
  }

  findById(id: string): AccountRecord | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRecord | undefined;
  }

  insertVerification(tokenHash: string, accountId: string, expiresAt: string): void {
    this.db.prepare('INSERT INTO email_verifications (token_hash, account_id, expires_at) VALUES (?, ?, ?)').run(tokenHash, accountId, expiresAt);
  }

  findVerification(tokenHash: string): { account_id: string; expires_at: string; used_at: string | null } | undefined {
    return this.db.prepare('SELECT account_id, expires_at, used_at FROM email_verifications WHERE token_hash = ?').get(tokenHash) as never;
  }

  /** Marks the token used and the account verified together. */
  useVerification(tokenHash: string, accountId: string, at: string): void {
    this.db.transaction(() => {
      this.db.prepare('UPDATE email_verifications SET used_at = ? WHERE token_hash = ?').run(at, tokenHash);
      this.db.prepare('UPDATE accounts SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?').run(at, accountId);
    })();
  }

  insertSession(session: SessionRecord): void {
    this.db.prepare('INSERT INTO account_sessions (id, token_hash, account_id, created_at, expires_at, revoked_at) VALUES (@id, @token_hash, @account_id, @created_at, @expires_at, @revoked_at)').run(session);
  }

  findSessionByHash(tokenHash: string): SessionRecord | undefined {
    return this.db.prepare('SELECT * FROM account_sessions WHERE token_hash = ?').get(tokenHash) as SessionRecord | undefined;
  }

  findSessionById(id: string): SessionRecord | undefined {
    return this.db.prepare('SELECT * FROM account_sessions WHERE id = ?').get(id) as SessionRecord | undefined;
  }

  revokeSession(id: string, at: string): void {
    this.db.prepare('UPDATE account_sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(at, id);
  }
}
