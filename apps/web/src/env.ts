/**
 * The one place the web app reads `process.env`. It runs on the server at request time (the root
 * layout opts out of prerendering), so one `next build` serves any API address: the browser gets
 * the URL through the rendered page instead of a value frozen into the bundle.
 */
export type WebEnv = {
  /** Base URL of the Skein API as the browser must reach it, e.g. `http://127.0.0.1:4317`. */
  apiUrl: string;
};

const DEFAULT_API_PORT = 4317;

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** Wildcard binds are not addresses a browser can call; loopback is what such a server answers on. */
function browserHost(host: string | undefined): string {
  if (host === undefined || host === "0.0.0.0" || host === "::" || host === "[::]") {
    return "127.0.0.1";
  }
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export function parseWebEnv(source: Readonly<Record<string, string | undefined>>): WebEnv {
  const explicit = text(source.SKEIN_API_URL) ?? text(source.NEXT_PUBLIC_SKEIN_API_URL);
  if (explicit !== undefined) {
    const url = new URL(explicit);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(`SKEIN_API_URL must be an http(s) URL, got ${explicit}`);
    }
    return { apiUrl: explicit.replace(/\/+$/, "") };
  }
  const portText = text(source.SKEIN_API_PORT);
  const port = portText === undefined ? DEFAULT_API_PORT : Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`SKEIN_API_PORT must be a port number, got ${portText}`);
  }
  return { apiUrl: `http://${browserHost(text(source.SKEIN_HOST))}:${port}` };
}

export function loadWebEnv(): WebEnv {
  return parseWebEnv(process.env);
}
