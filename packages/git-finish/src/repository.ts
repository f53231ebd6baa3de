/** A GitHub repository, `owner/name`. */
export type RepositoryRef = { owner: string; name: string };

const NAME = /^[A-Za-z0-9_.-]+$/;

/** `owner/name` as a project setting gives it; null when it is not one. */
export function parseRepositorySetting(text: string): RepositoryRef | null {
  const [owner, name, ...rest] = text.trim().split("/");
  if (rest.length > 0 || !owner || !name || !NAME.test(owner) || !NAME.test(name)) return null;
  return { owner, name: name.replace(/\.git$/, "") };
}

/**
 * The repository a remote URL names, in any form git accepts for GitHub (and GitHub Enterprise
 * hosts): https://host/owner/name(.git), ssh://git@host(:port)/owner/name, git@host:owner/name,
 * git://host/owner/name, with or without a trailing slash. Null for anything else (a local path).
 */
export function parseRemoteUrl(url: string): RepositoryRef | null {
  const text = url.trim();
  const scp = /^[\w.-]+@[\w.-]+:(?!\/)(.+)$/.exec(text);
  let pathPart: string | null = scp ? (scp[1] as string) : null;
  if (!pathPart) {
    try {
      const parsed = new URL(text);
      if (!["https:", "http:", "ssh:", "git:", "git+ssh:", "ssh+git:"].includes(parsed.protocol)) {
        return null;
      }
      pathPart = decodeURIComponent(parsed.pathname);
    } catch {
      return null;
    }
  }
  const parts = pathPart.replace(/^\/+|\/+$/g, "").split("/");
  if (parts.length !== 2) return null;
  return parseRepositorySetting(`${parts[0]}/${(parts[1] as string).replace(/\.git$/, "")}`);
}
