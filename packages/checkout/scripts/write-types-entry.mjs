// tsc mirrors the repository layout under dist/esm/types (the spec's generated types come along,
// so the published d.ts is self-contained); this file gives it the advertised entry point.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/esm/index.d.ts', import.meta.url), "export * from './types/packages/checkout/src/entries/esm.js';\n");
