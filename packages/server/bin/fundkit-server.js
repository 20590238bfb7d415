#!/usr/bin/env node
// The reference server; configuration comes from the environment (see README).
import '../dist/main.js';
