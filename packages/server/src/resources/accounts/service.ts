import type { Logger } from 'pino';
import { ApiError } from '../../http/api-error.js';
import { checkPassword, hashPassword, sha256Hex } from '../../lib/crypto.js';
import { newId, randomToken, ulid } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { HashSlots } from './hash-slots.js';
import type { AuthLimits } from './limits.js';
import type { AccountRecord, AccountsRepo, SessionRecord } from './repo.js';

const SESSION_TTL_MS = 12 * 3_600_000;
const VERIFICATION_TTL_MS = 24 * 3_600_000;
/** scrypt of a fixed password, so an unknown email costs as much time as a wrong password */
let dummyHash: Promise<string> | null = null;

export function presentAccount(account: AccountRecord) {
  return {
    id: account.id,
    object: 'account' as const,
    email: account.email,
    email_verified: account.email_verified_at !== null,
    created_at: account.created_at,
  };
}

/** The token appears only in the sign-in response. */
export function presentSession(session: SessionRecord, account: AccountRecord, token: string | null) {
  return { object: 'account_session' as const, token, expires_at: session.expires_at, account: presentAccount(account) };
}

export class AccountsService {
  constructor(
    private readonly repo: AccountsRepo,
    private readonly logger: Logger,
    private readonly publicUrl: () => string,
    /** on the sandbox ledger the sign-up answer carries the verification link (DESIGN §9) */
    private readonly sandbox: boolean,
    /** sign-in, sign-up and verification limits (limits.ts) */
    private readonly limits: AuthLimits,
    /** the bound on password hashes at once (hash-slots.ts) */
    private readonly hashes: HashSlots,
  ) {}

  /** scrypt of a fixed password, so an unknown email costs as much time as a wrong password */
  private dummyHash(): Promise<string> {
    dummyHash ??= this.hashes.run(() => hashPassword('fundkit-timing-equaliser'));
    // a refused first try (every slot busy) must not be kept
    dummyHash.catch(() => { dummyHash = null; });
    return dummyHash;
  }

  /**
   * Creates the account and prints the verification link (the reference server has no mailer).
   * `client` is the caller's address for the per-client limit (null: a call from this server).
   */
  async signUp(email: string, password: string, client: string | null = null): Promise<{ account: ReturnType<typeof presentAccount>; verificationToken: string; sandboxVerifyUrl: string | null }> {
    await this.limits.beforeSignUp(client);
    const normalized = email.trim().toLowerCase();
    if (await this.repo.findByEmail(normalized)) throw new ApiError('EMAIL_ALREADY_REGISTERED', 'an account with this email already exists');
    const passwordHash = await this.hashes.run(() => hashPassword(password));
    const account: AccountRecord = { id: newId('account'), email: normalized, password_hash: passwordHash, email_verified_at: null, created_at: isoNow() };
    // re-check after the await: two sign-ups may have raced
    if (await this.repo.findByEmail(normalized)) throw new ApiError('EMAIL_ALREADY_REGISTERED', 'an account with this email already exists');
    await this.repo.insertAccount(account);
    const token = `emv_${randomToken(24)}`;
    await this.repo.insertVerification(sha256Hex(token), account.id, isoNow(Date.now() + VERIFICATION_TTL_MS));
    const dashboardUrl = `${this.publicUrl()}/dashboard/#/verify?token=${token}`;
    this.logger.info({ email: normalized, verify_url: `${this.publicUrl()}/v1/auth/verify-email?token=${token}`, dashboard_url: dashboardUrl }, 'verification link (open dashboard_url, or POST the token to /v1/auth/verify-email)');
    // DESIGN §9: the person running the server sees the link whatever the log level
    if (!this.logger.isLevelEnabled('info')) process.stderr.write(`Fundkit: verify ${normalized} at ${dashboardUrl}\n`);
    return { account: presentAccount(account), verificationToken: token, sandboxVerifyUrl: this.sandbox ? dashboardUrl : null };
  }

  async verifyEmail(token: string, client: string | null = null) {
    await this.limits.beforeVerifyEmail(client);
    const hash = sha256Hex(token);
    const verification = await this.repo.findVerification(hash);
    if (!verification || verification.used_at) throw new ApiError('INVALID_TOKEN', 'this verification token is invalid or already used');
    if (verification.expires_at < isoNow()) throw new ApiError('INVALID_TOKEN', 'this verification token has expired; sign up again');
    await this.repo.useVerification(hash, verification.account_id, isoNow());
    return presentAccount((await this.repo.findById(verification.account_id))!);
  }

  /** The id of a verified account with this email, or null: no password checked (the server's own sandbox account). */
  async verifiedAccountId(email: string): Promise<string | null> {
    const account = await this.repo.findByEmail(email.trim().toLowerCase());
    return account?.email_verified_at ? account.id : null;
  }

  /**
   * Checks the password (refused first while the account or client is in backoff), counts a
   * failure, and rehashes a hash of older parameters now that the password is known.
   */
  async signIn(email: string, password: string, client: string | null = null) {
    const normalized = email.trim().toLowerCase();
    await this.limits.beforeSignIn(normalized, client);
    const account = await this.repo.findByEmail(normalized);
    const stored = account?.password_hash ?? (await this.dummyHash());
    const check = await this.hashes.run(() => checkPassword(password, stored));
    if (!account || !check.valid) {
      await this.limits.signInFailed(normalized, client);
      throw new ApiError('INVALID_CREDENTIALS', 'email or password is incorrect');
    }
    await this.limits.signInSucceeded(normalized);
    if (check.outdated) await this.repo.updatePasswordHash(account.id, await this.hashes.run(() => hashPassword(password)));
    if (!account.email_verified_at) throw new ApiError('EMAIL_NOT_VERIFIED', 'verify your email address before signing in');
    const token = `acs_${randomToken(32)}`;
    const session: SessionRecord = { id: `ses_${ulid()}`, token_hash: sha256Hex(token), account_id: account.id, created_at: isoNow(), expires_at: isoNow(Date.now() + SESSION_TTL_MS), revoked_at: null };
    await this.repo.insertSession(session);
    return presentSession(session, account, token);
  }

  /** Counters of the limits that ended (maintenance). */
  purgeExpiredLimits(): Promise<number> {
    return this.limits.purgeExpired();
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repo.revokeSession(sessionId, isoNow());
  }

  /** For the auth middleware: the session behind an acs_ token, or why it is refused. */
  async authenticate(token: string): Promise<{ ok: true; session: SessionRecord } | { ok: false; code: 'UNAUTHORIZED' | 'SESSION_EXPIRED' }> {
    const session = await this.repo.findSessionByHash(sha256Hex(token));
    if (!session || session.revoked_at) return { ok: false, code: 'UNAUTHORIZED' };
    if (session.expires_at < isoNow()) return { ok: false, code: 'SESSION_EXPIRED' };
    return { ok: true, session };
  }

  /** The session behind the request, without its token. */
  async currentSession(sessionId: string) {
    const session = (await this.repo.findSessionById(sessionId))!;
    const account = (await this.repo.findById(session.account_id))!;
    return presentSession(session, account, null);
  }
}
