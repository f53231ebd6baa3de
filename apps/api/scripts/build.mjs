// Bundles the API server (src/main.ts and the workspace packages it imports, all TypeScript
// source) into dist/main.js, which plain `node` runs with no TypeScript loader. Plain JavaScript
// itself so that building needs nothing but node and esbuild.
//
// Third-party packages stay outside the bundle, imported from where pnpm installed them: they
// carry native code (better-sqlite3), engines found next to their own files (Prisma) or spawn
// their own binaries (Codex, Claude Code). Each bare import a workspace file makes is resolved
// from that file and written into the bundle as an absolute path, because apps/api's own
// node_modules holds only its direct dependencies. dist/ is therefore a local build, not a
// relocatable artifact.
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO_DIR = path.resolve(API_DIR, "../..");
const inWorkspaceSource = (file) =>
  file.startsWith(REPO_DIR + path.sep) && !file.split(path.sep).includes("node_modules");

/** Bare imports of third-party packages stay imports, of the file pnpm installed. */
const externalPackages = {
  name: "external-packages",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("node:") || args.pluginData?.resolving) return undefined;
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (inWorkspaceSource(resolved.path) || resolved.external) return resolved;
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * Workspace code that finds files next to itself (migrations, `createRequire` for provider
 * binaries) keeps its own `import.meta.url`, not the bundle's.
 */
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!inWorkspaceSource(args.path)) return undefined;
      const source = await readFile(args.path, "utf8");
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

const OUTDIR = path.join(API_DIR, "dist");
const OUTFILE = path.join(OUTDIR, "main.js");

/** Everything the bundle is made of: the API, the workspace packages, the installed versions. */
const INPUTS = [
  path.join(API_DIR, "src"),
  path.join(API_DIR, "package.json"),
  fileURLToPath(import.meta.url),
  path.join(REPO_DIR, "packages"),
  path.join(REPO_DIR, "pnpm-lock.yaml"),
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === "node_modules" || entry === "dist") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

// `--if-stale` (pnpm start): only when a source is newer than the bundle.
if (process.argv.includes("--if-stale") && existsSync(OUTFILE)) {
  const builtAt = statSync(OUTFILE).mtimeMs;
  if (INPUTS.every((input) => newestMtime(input) <= builtAt)) process.exit(0);
}

const started = Date.now();
await build({
  entryPoints: { main: path.join(API_DIR, "src/main.ts") },
  outdir: OUTDIR,
  // Code imported dynamically becomes a chunk of its own, loaded when first imported: the
  // Prisma client (packages/db/src/prisma) and its runtime load with the first cold read, not
  // at startup.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // Workspace packages that ship built JavaScript (@skein/client) are bundled from source.
  conditions: ["source"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  plugins: [externalPackages, ownImportMetaUrl],
});
process.stderr.write(`skein api: built dist/main.js in ${Date.now() - started} ms\n`);
