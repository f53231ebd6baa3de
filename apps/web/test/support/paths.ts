import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const REPO_DIR = path.resolve(WEB_DIR, "../..");
export const API_DIR = path.join(REPO_DIR, "apps/api");
export const ARTIFACTS_DIR = path.join(WEB_DIR, "test-artifacts");
export const CHROMIUM_PATH = process.env.SKEIN_CHROMIUM ?? "/usr/bin/chromium";

/** The API package's own tsx, so `node --import` runs apps/api/src/main.ts as `pnpm start` does. */
export const TSX_LOADER = pathToFileURL(
  path.join(API_DIR, "node_modules/tsx/dist/loader.mjs"),
).href;
