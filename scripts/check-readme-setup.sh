#!/usr/bin/env bash
# Runs the README's pnpm setup line as written, in a clean HOME with its own npm prefix, then asks
# that pnpm to run inside this workspace. A newcomer's first command must work on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

line="$(grep -o 'No pnpm yet? `[^`]*`' README.md | sed 's/.*`\(.*\)`/\1/')"
if [[ -z "$line" ]]; then
  echo "README.md has no 'No pnpm yet? \`...\`' setup line" >&2
  exit 1
fi

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
echo "README setup line: $line (HOME=$home)"
(export HOME="$home" npm_config_prefix="$home/npm" && cd "$home" && bash -c "$line" >/dev/null)

version="$(HOME="$home" PATH="$home/npm/bin:$PATH" pnpm --version 2>&1)" || {
  echo "the README's pnpm does not run in this workspace: $version" >&2
  exit 1
}
HOME="$home" PATH="$home/npm/bin:$PATH" pnpm ls --depth -1 >/dev/null || {
  echo "the README's pnpm ($version) cannot read this workspace" >&2
  exit 1
}
echo "README setup line works: pnpm $version runs this workspace"
