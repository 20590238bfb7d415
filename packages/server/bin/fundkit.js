#!/usr/bin/env node
import { runCli } from '../dist/cli/index.js';

// listen runs until Ctrl-C; the others end on their own
process.exitCode = await runCli(process.argv.slice(2));
