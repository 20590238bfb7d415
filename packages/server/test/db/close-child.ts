// Started by checkpointer.test.ts: a file-database server started, then closed, with nothing else
// keeping the process alive; it must print and exit 0 (not end early on an await never settled).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'fundkit-close-'));
const path = join(dir, 'fundkit.db');
const server = await createServer({ env: { FUNDKIT_DB: path, FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'cd'.repeat(32), LOG_LEVEL: 'silent' } });
await server.listen(0, '127.0.0.1');
await server.close();
// closing the last connection checkpoints the WAL into the file and removes it
let wal = true;
try { statSync(`${path}-wal`); } catch { wal = false; }
process.stdout.write(JSON.stringify({ closed: true, wal }));
