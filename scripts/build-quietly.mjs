#!/usr/bin/env node
// `pnpm start`'s build: every package's build output behind one line (the banner is what a newcomer
// should read first); the whole output is kept in .fundkit/build.log and printed when the build fails.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const started = Date.now();
const dataDir = process.env.FUNDKIT_DATA_DIR || '.fundkit';
const logPath = join(dataDir, 'build.log');
process.stdout.write('Building the packages (pnpm build)… ');
const child = spawn('pnpm', ['build'], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
const chunks = [];
child.stdout.on('data', (d) => chunks.push(d));
child.stderr.on('data', (d) => chunks.push(d));
child.on('close', (code) => {
  const output = Buffer.concat(chunks);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(logPath, output);
  if (code === 0) {
    process.stdout.write(`done in ${Math.round((Date.now() - started) / 1000)} s (output in ${logPath})\n`);
    return;
  }
  process.stdout.write('failed:\n');
  process.stderr.write(output);
  process.exit(code ?? 1);
});
