import type { FakeReply, ReplyMatcher } from "@skein/fake-models";

/** The working directory Codex reports in a model request's latest environment context. */
export function requestCwd(request: unknown): string | null {
  // A forked conversation carries its source's context first: the latest one is this run's.
  const matches = [...JSON.stringify(request).matchAll(/<cwd>([^<]+)<\/cwd>/g)];
  return matches.at(-1)?.[1] ?? null;
}

/**
 * Scripts for Codex runs that call the model at the same time in different worktrees: each script
 * (tag) is claimed by the first worktree whose request reaches it, and from then on answers only
 * requests from that worktree. `owner(tag)` tells which worktree a script went to.
 */
export function cwdScripts(claimable: (cwd: string) => boolean) {
  const ownerOf = new Map<string, string>();
  const tagOf = new Map<string, string>();
  const matcher =
    (tag: string): ReplyMatcher =>
    (request) => {
      const cwd = requestCwd(request);
      if (cwd === null) return false;
      const owner = ownerOf.get(tag);
      if (owner !== undefined) return owner === cwd;
      if (tagOf.has(cwd) || !claimable(cwd)) return false;
      ownerOf.set(tag, cwd);
      tagOf.set(cwd, tag);
      return true;
    };
  return {
    script: (tag: string, ...replies: FakeReply[]): FakeReply[] =>
      replies.map((reply) => ({ ...reply, when: matcher(tag) })),
    owner: (tag: string) => ownerOf.get(tag),
  };
}
