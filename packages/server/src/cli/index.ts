/** The `fundkit` CLI (later issues: keys, test helpers). For now it points at the server. */
export function runCli(argv: string[]): number {
  if (argv.includes('--version')) {
    process.stdout.write('fundkit 0.1.0\n');
    return 0;
  }
  process.stdout.write('usage: fundkit-server   (start the reference server; configure with FUNDKIT_* variables)\n');
  return 0;
}
