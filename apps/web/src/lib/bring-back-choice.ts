/**
 * Issue 26: what a bring-back from the composer takes from the fork: its conversation and its
 * code (B9's default), its conversation only, or its code only. A fork that worked in this very
 * folder has no code of its own to bring: only its conversation is offered.
 */
export type BringBackWhat = "both" | "conversation" | "code";

export const BRING_BACK_CHOICES: ReadonlyArray<{ value: BringBackWhat; label: string }> = [
  { value: "both", label: "its conversation and its code" },
  { value: "conversation", label: "its conversation only (code stays on its branch)" },
  { value: "code", label: "its code only (no message, no run)" },
];

/**
 * How the choice reaches the API: the conversation rides on the next message
 * (`thread.sendMessage` with `bringBackFrom`, its files too with `code: "squash"`); code only is
 * `thread.bringBackCode`, with no message, run or handoff.
 */
export type BringBackRequest =
  | { via: "message"; code: "squash" | "none" }
  | { via: "bringBackCode" };

export function bringBackRequest(what: BringBackWhat, forkHasCode: boolean): BringBackRequest {
  if (!forkHasCode) return { via: "message", code: "none" };
  if (what === "code") return { via: "bringBackCode" };
  return { via: "message", code: what === "both" ? "squash" : "none" };
}
