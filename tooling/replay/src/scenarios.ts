/**
 * The recorded sessions kept as fixtures: small, one behaviour each, provider-neutral. A model
 * reply is scripted in neutral terms and each recorder turns it into its fake server's format.
 */
export type ScriptedReply =
  | {
      kind: "text";
      text: string;
      /**
       * Served only to a request whose conversation holds every `has` marker and no `lacks`
       * one, so the recorded reply itself shows what history the runtime sent (fork, rollback,
       * steer); any other request gets the fake server's default reply instead.
       */
      onlyIf?: { has: string[]; lacks: string[] };
    }
  /** Streamed one piece at a time with a pause between pieces, so a turn can be acted on. */
  | { kind: "slow-text"; pieces: string[]; pauseMs: number }
  /** The provider's own shell tool running `command` (it writes, so approval is asked). */
  | { kind: "command"; command: (cwd: string) => string }
  | { kind: "http-error"; status: number; message: string };

export type ScenarioStep =
  | {
      kind: "turn";
      prompt: string;
      /** Done once, at the turn's first streamed delta: stop it, or add input to it. */
      onFirstDelta?: { interrupt: true } | { steer: string };
    }
  /** Forks the current thread at its first turn; the steps after it run on the fork. */
  | { kind: "fork" }
  /** Drops every turn after the first from the current thread. */
  | { kind: "rollback" };

export type Scenario = {
  name: string;
  steps: ScenarioStep[];
  replies: ScriptedReply[];
  /** How a request opened during a turn is answered. */
  answer: "accept" | "decline";
};

const turn = (prompt: string): ScenarioStep => ({ kind: "turn", prompt });
const SLOW = { kind: "slow-text", pauseMs: 150 } as const;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "plain-reply",
    steps: [turn("Say hello.")],
    replies: [{ kind: "text", text: "Hello from the fake model." }],
    answer: "accept",
  },
  {
    name: "tool-approval",
    steps: [turn("Create the marker file.")],
    replies: [
      { kind: "command", command: (cwd) => `touch ${cwd}/marker.txt` },
      { kind: "text", text: "The marker file exists now." },
    ],
    answer: "accept",
  },
  {
    name: "model-error",
    steps: [turn("This request fails upstream.")],
    replies: [{ kind: "http-error", status: 500, message: "fake upstream failure" }],
    answer: "accept",
  },
  {
    name: "fork",
    steps: [turn("FIRST-ASK"), turn("SECOND-ASK"), { kind: "fork" }, turn("FORK-ASK")],
    replies: [
      { kind: "text", text: "First answer." },
      { kind: "text", text: "Second answer." },
      {
        kind: "text",
        text: "The fork holds the first turn only.",
        onlyIf: { has: ["FIRST-ASK", "FORK-ASK"], lacks: ["SECOND-ASK"] },
      },
    ],
    answer: "accept",
  },
  {
    name: "rollback",
    steps: [turn("FIRST-ASK"), turn("SECOND-ASK"), { kind: "rollback" }, turn("AGAIN-ASK")],
    replies: [
      { kind: "text", text: "First answer." },
      { kind: "text", text: "Second answer." },
      {
        kind: "text",
        text: "The second turn is gone.",
        onlyIf: { has: ["FIRST-ASK", "AGAIN-ASK"], lacks: ["SECOND-ASK"] },
      },
    ],
    answer: "accept",
  },
  {
    name: "steer",
    steps: [
      { kind: "turn", prompt: "Start talking.", onFirstDelta: { steer: "STEER-ASK say more" } },
    ],
    replies: [
      { ...SLOW, pieces: ["Talking ", "slowly ", "now."] },
      {
        kind: "text",
        text: " Steered.",
        onlyIf: { has: ["Start talking.", "STEER-ASK say more"], lacks: [] },
      },
    ],
    answer: "accept",
  },
  {
    name: "interrupt",
    steps: [
      { kind: "turn", prompt: "Talk forever.", onFirstDelta: { interrupt: true } },
      turn("AFTER-STOP-ASK"),
    ],
    replies: [
      { ...SLOW, pieces: ["Words ", "that ", "keep ", "coming ", "and ", "coming ", "on."] },
      {
        kind: "text",
        text: "After the stop.",
        onlyIf: { has: ["AFTER-STOP-ASK"], lacks: [] },
      },
    ],
    answer: "accept",
  },
];

/** What one turn of a scenario came to. */
export type TurnShape = {
  status: "completed" | "interrupted" | "failed";
  /** Completed assistant text of the turn, joined (null: none). */
  text: string | null;
};

/** What a scenario must come to after replay, whatever the wire looks like (B8 regression). */
export type ScenarioShape = {
  turns: TurnShape[];
  /** Item kinds that completed, in order of completion (kinds only: counts vary by runtime). */
  completedKinds: string[];
  requests: string[];
};
