// Lists promises nobody waits for: every call whose type is a Promise and whose parent is an
// ExpressionStatement (not awaited, not returned, not `void`ed), and every async callback given
// to an array method that ignores what it returns (forEach, filter, some, …), or to `map` whose
// result is not handed to Promise.all, and every promise-returning function passed where a
// void-returning one is expected (an event listener, a `() => void` dependency). A deliberate fire-and-forget gets `void` and a comment.
// Usage: node scripts/floating-promises.mjs [dir with tsconfig.json] [path prefix, default src/]
import ts from 'typescript';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const prefix = process.argv[3] ?? 'src/';
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const CALLBACK_IGNORED = new Set(['forEach', 'filter', 'some', 'every', 'find', 'findIndex', 'findLast', 'reduce', 'flatMap', 'sort', 'map']);

const isPromise = (type) => {
  if (type.isUnion()) return type.types.some(isPromise);
  const name = type.getSymbol()?.getName();
  return name === 'Promise' || name === 'PromiseLike';
};

const hits = [];
for (const sf of program.getSourceFiles()) {
  const rel = path.relative(root, sf.fileName);
  if (!rel.startsWith(prefix) || sf.isDeclarationFile) continue;
  const at = (node) => `${rel}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      if (ts.isExpressionStatement(node.parent) && isPromise(checker.getTypeAtLocation(node))) {
        hits.push(`${at(node)}: floating: ${node.getText().split('\n')[0].slice(0, 100)}`);
      }
      // tests: expect(promise) without .resolves/.rejects compares the Promise object itself
      if (node.expression.getText() === 'expect' && node.arguments[0] && isPromise(checker.getTypeAtLocation(node.arguments[0]))
        && !(ts.isPropertyAccessExpression(node.parent) && /^(resolves|rejects)$/.test(node.parent.name.text))) {
        hits.push(`${at(node)}: expect() of a promise: ${node.getText().split('\n')[0].slice(0, 100)}`);
      }
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && CALLBACK_IGNORED.has(callee.name.text)) {
        for (const arg of node.arguments) {
          if (!(ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) continue;
          const sig = checker.getSignatureFromDeclaration(arg);
          if (!sig || !isPromise(checker.getReturnTypeOfSignature(sig))) continue;
          // `Promise.all(xs.map(async …))` waits for them all
          const waited = callee.name.text === 'map' && ts.isCallExpression(node.parent) && /^Promise\.(all|allSettled)$/.test(node.parent.expression.getText());
          if (!waited) hits.push(`${at(arg)}: async callback of ${callee.name.text}: ${node.getText().split('\n')[0].slice(0, 100)}`);
        }
      }
    }
    // a promise-returning function where a void-returning one is expected (an argument, a property,
    // a variable): whoever calls it through that type drops the promise
    const handed = node.parent !== undefined && ((ts.isCallExpression(node.parent) && node.parent.arguments.includes(node))
      || (ts.isPropertyAssignment(node.parent) && node.parent.initializer === node)
      || (ts.isVariableDeclaration(node.parent) && node.parent.initializer === node));
    const ignoredCallback = handed && ts.isCallExpression(node.parent) && ts.isPropertyAccessExpression(node.parent.expression) && CALLBACK_IGNORED.has(node.parent.expression.name.text);
    if (handed && !ignoredCallback && ts.isExpression(node)) {
      const own = checker.getTypeAtLocation(node).getCallSignatures()[0];
      const expected = checker.getContextualType(node)?.getNonNullableType().getCallSignatures()[0];
      if (own && expected && isPromise(checker.getReturnTypeOfSignature(own)) && (checker.getReturnTypeOfSignature(expected).flags & ts.TypeFlags.Void)) {
        hits.push(`${at(node)}: promise given where void is expected: ${node.parent.getText().split('\n')[0].slice(0, 100)}`);
      }
    }
    for (const prop of ts.isShorthandPropertyAssignment(node) ? [node] : []) {
      const own = checker.getTypeAtLocation(prop.name).getCallSignatures()[0];
      const expected = checker.getContextualType(prop.name)?.getNonNullableType().getCallSignatures()[0];
      if (own && expected && isPromise(checker.getReturnTypeOfSignature(own)) && (checker.getReturnTypeOfSignature(expected).flags & ts.TypeFlags.Void)) {
        hits.push(`${at(prop)}: promise given where void is expected: ${prop.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
console.log(hits.join('\n'));
console.log(`${hits.length} found`);
