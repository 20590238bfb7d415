import type { Db } from '../../db/connection.js';

/**
 * Which supported assets the operator disabled (all enabled by default). Every asset read and
 * every intent creation asks, and only `setEnabled` writes the table, so the set is read once
 * and kept until the next `setEnabled`.
 */
export class AssetsRepo {
  private disabled: ReadonlySet<string> | null = null;

  constructor(private readonly db: Db) {}

  disabledCodes(): ReadonlySet<string> {
    this.disabled ??= new Set(this.db.prepare('SELECT code FROM asset_settings WHERE enabled = 0').pluck().all() as string[]);
    return this.disabled;
  }

  setEnabled(code: string, enabled: boolean, at: string): void {
    this.disabled = null;
    this.db.prepare(`INSERT INTO asset_settings (code, enabled, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (code) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`).run(code, enabled ? 1 : 0, at);
    this.disabled = null;
  }
}
