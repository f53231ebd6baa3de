import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Platform packages `@openai/codex` ships as optional dependencies, keyed by Node platform-arch. */
const PLATFORM_TARGETS: Record<string, { pkg: string; triple: string }> = {
  "linux-x64": { pkg: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { pkg: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x64": { pkg: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-arm64": { pkg: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
  "win32-x64": { pkg: "@openai/codex-win32-x64", triple: "x86_64-pc-windows-msvc" },
  "win32-arm64": { pkg: "@openai/codex-win32-arm64", triple: "aarch64-pc-windows-msvc" },
};

export class CodexBinaryNotFoundError extends Error {
  readonly code = "codex_binary_not_found" as const;
  constructor(detail: string) {
    super(`Codex native binary not found: ${detail}`);
    this.name = "CodexBinaryNotFoundError";
  }
}

/**
 * Finds the native `codex` executable inside the pinned `@openai/codex` install. Spawning it
 * directly skips the Node wrapper, which on Node 20 costs an extra process and 50–400 ms.
 */
export function resolveCodexBinary(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  const target = PLATFORM_TARGETS[`${platform}-${arch}`];
  if (!target) throw new CodexBinaryNotFoundError(`unsupported platform ${platform}-${arch}`);

  const fromHere = createRequire(import.meta.url);
  let codexPackageJson: string;
  try {
    codexPackageJson = fromHere.resolve("@openai/codex/package.json");
  } catch {
    throw new CodexBinaryNotFoundError("@openai/codex is not installed");
  }
  // The platform package is a dependency of @openai/codex, not of this package, so it is only
  // resolvable from there under pnpm's strict layout.
  const fromCodex = createRequire(codexPackageJson);
  const vendorRoots: string[] = [];
  try {
    vendorRoots.push(
      path.join(path.dirname(fromCodex.resolve(`${target.pkg}/package.json`)), "vendor"),
    );
  } catch {
    // Older layouts bundled the vendor directory inside @openai/codex itself.
  }
  vendorRoots.push(path.join(path.dirname(codexPackageJson), "vendor"));

  const exe = platform === "win32" ? "codex.exe" : "codex";
  for (const root of vendorRoots) {
    const candidate = path.join(root, target.triple, "bin", exe);
    if (existsSync(candidate)) return candidate;
  }
  throw new CodexBinaryNotFoundError(`no ${target.pkg} binary under ${vendorRoots.join(", ")}`);
}
