// One-off codemod for the sync → async data layer (issue 16): awaits every call to a function in
// the "flipped" set (the Sql executors, then every function this script made async), makes the
// enclosing function async (return type wrapped in Promise<>), and repeats until nothing changes.
// Prints what it cannot decide (callbacks of array methods, getters, constructors, expect()).
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const keysFile = path.join(root, 'scripts/.asyncify-keys.json');
const flipped = new Set(fs.existsSync(keysFile) ? JSON.parse(fs.readFileSync(keysFile, 'utf8')) : []);
const SEED = ['src/db/transaction.ts#inTransaction', 'src/db/outbox.ts#insertEvent', 'src/db/group-commit.ts#GroupCommit.run',
  ...['Sql', 'SqliteSql', 'PostgresSql'].flatMap((c) => ['all', 'get', 'column', 'arrays', 'run', 'transaction'].map((m) => `src/db/${c === 'PostgresSql' ? 'postgres-sql' : 'sql'}.ts#${c}.${m}`))];
// the executors themselves are written by hand
const SKIP = new Set(['test/db/sql-executors.test.ts', 'src/db/sql.ts', 'src/db/postgres-sql.ts', 'src/db/group-commit.ts']);
const ARRAY_CB = new Set(['forEach', 'map', 'filter', 'some', 'every', 'find', 'findIndex', 'reduce', 'flatMap', 'sort', 'for', 'then']);
const ASYNC_OK = new Set(['transaction', 'inTransaction', 'run', 'it', 'test', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach', 'atomically', 'directWrite']);

function keyOf(decl) {
  const file = path.relative(root, decl.getSourceFile().fileName);
  let name = decl.name && ts.isIdentifier(decl.name) ? decl.name.text : null;
  if (!name && ts.isVariableDeclaration(decl.parent) && ts.isIdentifier(decl.parent.name)) name = decl.parent.name.text;
  if (!name && (ts.isPropertyAssignment(decl.parent) || ts.isPropertySignature(decl.parent) || ts.isPropertyDeclaration(decl.parent))) name = decl.parent.name.getText();
  if (!name) return null;
  let container = '';
  for (let n = decl.parent; n; n = n.parent) {
    if ((ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) && n.name) { container = n.name.text + '.'; break; }
  }
  return `${file}#${container}${name}`;
}
const isFlipped = (key) => key && (flipped.has(key) || SEED.includes(key));

function fnOf(node) {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n) && n.body) return n;
  return null;
}

const report = new Set();
for (let round = 0; round < 30; round++) {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const edits = new Map(); // file -> [{pos, text}] or replace ranges
  const add = (sf, edit) => { if (!edits.has(sf.fileName)) edits.set(sf.fileName, []); edits.get(sf.fileName).push(edit); };
  const asyncified = new Set();
  let changedFns = 0;
  for (const sf of program.getSourceFiles()) {
    const rel = path.relative(root, sf.fileName);
    if (rel.startsWith('..') || rel.includes('node_modules') || sf.isDeclarationFile || SKIP.has(rel)) continue;
    const visit = (node) => {
      if (ts.isCallExpression(node)) check(node, sf, rel);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  function check(call, sf, rel) {
    const sig = checker.getResolvedSignature(call);
    const decl = sig?.declaration;
    if (!decl) return;
    let key = keyOf(decl);
    if (!isFlipped(key)) return;
    const parent = call.parent;
    if (ts.isAwaitExpression(parent) || ts.isVoidExpression(parent)) return;
    // returned as it is: the function returns the promise, so it becomes async (no await needed)
    if (ts.isReturnStatement(parent)) { const fn = fnOf(call); if (fn) makeAsync(fn, sf, rel); return; }
    if (ts.isParenthesizedExpression(parent) && ts.isAwaitExpression(parent.parent)) return;
    if (ts.isArrowFunction(parent) && parent.body === call) {
      const host = parent.parent;
      const callee = ts.isCallExpression(host) ? host.expression.getText() : '';
      if (!/(^|\.)(transaction|inTransaction|run|atomically)$/.test(callee)) report.add(`${rel}:${sf.getLineAndCharacterOfPosition(call.getStart()).line + 1}: concise arrow returns a promise (in ${callee || host.kind})`);
      return;
    }
    if (ts.isArrayLiteralExpression(parent) && ts.isCallExpression(parent.parent) && /Promise\.(all|allSettled|race)/.test(parent.parent.expression.getText())) return;
    if (ts.isPropertyAccessExpression(parent) && /^(then|catch|finally)$/.test(parent.name.text)) return;
    if (ts.isCallExpression(parent) && parent.expression.getText() === 'expect' && ts.isPropertyAccessExpression(parent.parent) && /^(rejects|resolves)$/.test(parent.parent.name.text)) return;
    const fn = fnOf(call);
    if (!fn) { report.add(`${rel}:${sf.getLineAndCharacterOfPosition(call.getStart()).line + 1}: top-level call`); return; }
    const needsParens = ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent) || ts.isNonNullExpression(parent) || (ts.isCallExpression(parent) && parent.expression === call);
    add(sf, { pos: call.getStart(), text: needsParens ? '(await ' : 'await ' });
    if (needsParens) add(sf, { pos: call.getEnd(), text: ')' });
    makeAsync(fn, sf, rel);
  }
  function makeAsync(fn, sf, rel) {
    if (asyncified.has(fn)) return;
    asyncified.add(fn);
    const line = sf.getLineAndCharacterOfPosition(fn.getStart()).line + 1;
    if (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return;
    if (ts.isGetAccessor(fn) || ts.isConstructorDeclaration(fn) || ts.isSetAccessor(fn)) { report.add(`${rel}:${line}: ${ts.SyntaxKind[fn.kind]} needs an await`); return; }
    if (fn.asteriskToken) { report.add(`${rel}:${line}: generator needs an await`); return; }
    // where `async` goes: after the other modifiers, before the name / parameters
    let pos;
    if (ts.isMethodDeclaration(fn)) pos = fn.name.getStart();
    else if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) pos = (fn.modifiers?.length ? fn.modifiers[fn.modifiers.length - 1].getEnd() + 1 : fn.getStart());
    else pos = fn.getStart();
    if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) {
      // `function` keyword start
      pos = fn.getChildren().find((c) => c.kind === ts.SyntaxKind.FunctionKeyword).getStart();
    }
    add(sf, { pos, text: 'async ' });
    changedFns++;
    if (fn.type) {
      const t = fn.type.getText();
      if (!/^Promise</.test(t)) { add(sf, { pos: fn.type.getStart(), text: 'Promise<' }); add(sf, { pos: fn.type.getEnd(), text: '>' }); }
    }
    const k = keyOf(fn);
    if (k) flipped.add(k);
    // a callback made async: fine for transactions and tests, suspicious elsewhere
    if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isCallExpression(fn.parent)) {
      const callee = fn.parent.expression.getText();
      const last = callee.split('.').pop();
      if (!ASYNC_OK.has(last)) report.add(`${rel}:${line}: callback made async, passed to ${callee}`);
    }
  }
  let changed = 0;
  for (const [file, list] of edits) {
    let text = fs.readFileSync(file, 'utf8');
    const uniq = [...new Map(list.map((e) => [`${e.pos}|${e.text}`, e])).values()];
    // inserts from the end; at one position, ')' before '(await '
    uniq.sort((a, b) => b.pos - a.pos || (a.text === ')' ? -1 : 1));
    for (const e of uniq) text = text.slice(0, e.pos) + e.text + text.slice(e.pos);
    fs.writeFileSync(file, text);
    changed += uniq.length;
  }
  fs.writeFileSync(keysFile, JSON.stringify([...flipped].sort(), null, 1));
  console.log(`round ${round}: ${changed} edits in ${edits.size} files`);
  if (!changed) break;
}
console.log([...report].sort().join('\n'));
