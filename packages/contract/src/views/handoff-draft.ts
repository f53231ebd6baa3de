import type { ContextHandoff, ContextTransfer } from "@skein/domain";

/** What `handoff.draft` answers: the handoff a message would send, or that none is needed. */
export type HandoffDraft =
  | { needed: false }
  | {
      needed: true;
      transferType: ContextTransfer["type"];
      kind: ContextHandoff["kind"];
      strategy: ContextHandoff["strategy"];
      text: string;
      coveredRunOrdinals: { from: number; to: number } | null;
      /** The structured handoff (issue 25): its sections, budget used and what was left out. */
      payload: ContextHandoff["payload"];
    };
