#!/usr/bin/env node
import { runSandboxCli } from '../dist/cli.js';

// runs until Ctrl-C (SIGINT) or SIGTERM
process.exitCode = await runSandboxCli(process.argv.slice(2));
