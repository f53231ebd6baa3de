#!/usr/bin/env bash
# Regenerates the app-server protocol bindings from the pinned Codex binary, so wire shapes always
# match the version in package.json instead of hand-written guesses. Run after bumping
# @openai/codex, then fix whatever `pnpm typecheck` reports (src/protocol/methods.ts first).
set -euo pipefail

pkg_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo_root="$(cd "$pkg_dir/../.." && pwd)"
out_dir="$pkg_dir/src/protocol/generated"

# Same resolver as the runtime, so the script and the adapter can never disagree on the binary.
binary="$(cd "$pkg_dir" && "$repo_root/node_modules/.bin/tsx" -e '
import { resolveCodexBinary } from "./src/config/resolve-binary.ts";
console.log(resolveCodexBinary());
')"

rm -rf "$out_dir"
mkdir -p "$out_dir"
"$binary" app-server generate-ts --out "$out_dir" --experimental
echo "generated $(find "$out_dir" -name '*.ts' | wc -l) files with $("$binary" --version)"
