import type { PrObservation } from "./observations.ts";

type Comment = Extract<PrObservation, { kind: "comment" }>;
type Check = Extract<PrObservation, { kind: "check" }>;
/** What a message needs of a review comment, wherever it was written (GitHub or Skein). */
type CommentText = Pick<Comment, "path" | "line" | "diffHunk" | "body" | "author">;

/** Review comments as one message to the agent: each with its file, line and diff hunk. */
export function reviewCommentsMessage(
  prNumber: number | null,
  comments: readonly CommentText[],
): string {
  const where = prNumber === null ? "in review" : `on pull request #${prNumber}`;
  const parts = comments.map((c) => {
    const line = c.line === null ? "" : `:${c.line}`;
    return [
      `${c.path}${line} — ${c.author} wrote:`,
      quote(c.body),
      "Diff hunk:",
      "```diff",
      c.diffHunk,
      "```",
    ].join("\n");
  });
  const lead =
    comments.length === 1
      ? `A review comment ${where} asks for a change. Address it in the code:`
      : `${comments.length} review comments ${where} ask for changes. Address each in the code:`;
  return [lead, ...parts].join("\n\n");
}

/** A failing check as a "fix the failing check" message with its bounded log excerpt. */
export function failingCheckMessage(prNumber: number | null, check: Check): string {
  const where = prNumber === null ? "" : ` on pull request #${prNumber}`;
  return [
    `Fix the failing check "${check.name}"${where} (conclusion: ${check.conclusion ?? check.status}, commit ${check.headSha.slice(0, 8)}).`,
    check.excerpt ? `Its output:\n\n\`\`\`\n${check.excerpt}\n\`\`\`` : "It reported no output.",
    ...(check.url ? [`Details: ${check.url}`] : []),
  ].join("\n\n");
}

export function isFailingCheck(check: Check): boolean {
  return (
    check.status === "completed" &&
    (check.conclusion === "failure" ||
      check.conclusion === "timed_out" ||
      check.conclusion === "cancelled" ||
      check.conclusion === "action_required")
  );
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

/** A commit message drafted from the thread's title and its runs' requests (first lines). */
export function draftCommitMessage(title: string, requests: readonly string[]): string {
  const subject = oneLine(title, 72) || "Changes from Skein";
  const bullets = requests
    .map((r) => oneLine(r, 100))
    .filter(Boolean)
    .slice(-10)
    .map((r) => `- ${r}`);
  return bullets.length > 0 ? `${subject}\n\n${bullets.join("\n")}\n` : `${subject}\n`;
}

function oneLine(text: string, max: number): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
