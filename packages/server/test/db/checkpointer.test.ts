import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('WAL checkpoints on their own thread', () => {
  it('lets a server over a file database close cleanly in a process with nothing else to do', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'close-child.ts')], {
      cwd: join(import.meta.dirname, '..', '..', '..', '..'), timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ closed: true, wal: false });
  });
});
