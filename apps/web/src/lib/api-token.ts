/**
 * The API token (`SKEIN_API_TOKEN`) when the API requires one. It is never rendered into the
 * page by the server (anyone who can load the page would get it); the person using the UI types
 * it once and it stays in this tab's sessionStorage.
 */
const KEY = "skein.apiToken";

export function readApiToken(): string | undefined {
  if (typeof window === "undefined") return undefined;
  try {
    return window.sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveApiToken(token: string | null): void {
  try {
    if (token === null || token === "") window.sessionStorage.removeItem(KEY);
    else window.sessionStorage.setItem(KEY, token);
  } catch {
    // Storage disabled: the token lasts until the reload below.
  }
}
