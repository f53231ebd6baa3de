/**
 * What watching a pull request saw, one fact each. `key` names the fact itself (a comment's id,
 * a check run's id with its status and conclusion): the thread records each key once, so the
 * same fact seen by a later poll, another instance or a webhook is dropped.
 */
export type PrObservation =
  | {
      kind: "state";
      key: string;
      state: "open" | "closed" | "merged";
      headSha: string;
      title: string;
    }
  | {
      kind: "check";
      key: string;
      id: number;
      name: string;
      headSha: string;
      status: string;
      conclusion: string | null;
      /** The check's output (title, summary, text), bounded: the log excerpt a fix message quotes. */
      excerpt: string;
      url: string | null;
    }
  | {
      kind: "status";
      key: string;
      id: number;
      context: string;
      headSha: string;
      state: string;
      description: string | null;
      url: string | null;
    }
  | {
      kind: "comment";
      key: string;
      id: number;
      path: string;
      line: number | null;
      diffHunk: string;
      body: string;
      author: string;
    }
  | {
      kind: "review";
      key: string;
      id: number;
      state: string;
      body: string;
      author: string;
    };

/** The most of a check's output a fix message quotes (its tail: failures print last). */
export const CHECK_EXCERPT_MAX_CHARS = 4_000;
const BODY_MAX_CHARS = 8_000;

export function boundedTail(text: string, max = CHECK_EXCERPT_MAX_CHARS): string {
  if (text.length <= max) return text;
  return `… (${text.length - max} earlier characters left out)\n${text.slice(-max)}`;
}

export function boundedBody(text: string | null | undefined): string {
  const value = text ?? "";
  return value.length <= BODY_MAX_CHARS ? value : `${value.slice(0, BODY_MAX_CHARS)} …`;
}

type CheckRunJson = {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url?: string | null;
  html_url?: string | null;
  output?: { title?: string | null; summary?: string | null; text?: string | null };
};

export function checkObservation(run: CheckRunJson): PrObservation {
  const output = run.output ?? {};
  const excerpt = boundedTail(
    [output.title, output.summary, output.text].filter((t): t is string => Boolean(t)).join("\n\n"),
  );
  return {
    kind: "check",
    key: `check:${run.id}:${run.status}:${run.conclusion ?? "none"}`,
    id: run.id,
    name: run.name,
    headSha: run.head_sha,
    status: run.status,
    conclusion: run.conclusion,
    excerpt,
    url: run.details_url ?? run.html_url ?? null,
  };
}

type CommentJson = {
  id: number;
  path: string;
  line?: number | null;
  original_line?: number | null;
  diff_hunk: string;
  body: string;
  user: { login: string } | null;
};

export function commentObservation(comment: CommentJson): PrObservation {
  return {
    kind: "comment",
    key: `comment:${comment.id}`,
    id: comment.id,
    path: comment.path,
    line: comment.line ?? comment.original_line ?? null,
    diffHunk: boundedTail(comment.diff_hunk, 2_000),
    body: boundedBody(comment.body),
    author: comment.user?.login ?? "someone",
  };
}
