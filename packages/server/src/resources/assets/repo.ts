import type { Db } from '../../db/connection.js';

/** Which supported assets the operator disabled (all enabled by default). */
export class AssetsRepo {
  constructor(private readonly db: Db) {}

  disabledCodes(): Set<string> {
    return new Set(this.db.prepare('SELECT code FROM asset_settings WHERE enabled = 0').pluck().all() as string[]);
  }

  setEnabled(code: string, enabled: boolean, at: string): void {
    this.db.prepare(`INSERT INTO asset_settings (code, enabled, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (code) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`).run(code, enabled ? 1 : 0, at);
  }
}
