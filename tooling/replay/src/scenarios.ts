/**
 * The recorded sessions kept as fixtures: small, one behaviour each, provider-neutral. A model
 * reply is scripted in neutral terms and each recorder turns it into its fake server's format.
 */
export type ScriptedReply =
  | { kind: "text"; text: string }
  /** The provider's own shell tool running `command` (it writes, so approval is asked). */
  | { kind: "command"; command: (cwd: string) => string }
  | { kind: "http-error"; status: number; message: string };

export type Scenario = {
  name: string;
  prompt: string;
  replies: ScriptedReply[];
  /** How a request opened during the turn is answered. */
  answer: "accept" | "decline";
};

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "plain-reply",
    prompt: "Say hello.",
    replies: [{ kind: "text", text: "Hello from the fake model." }],
    answer: "accept",
  },
  {
    name: "tool-approval",
    prompt: "Create the marker file.",
    replies: [
      { kind: "command", command: (cwd) => `touch ${cwd}/marker.txt` },
      { kind: "text", text: "The marker file exists now." },
    ],
    answer: "accept",
  },
  {
    name: "model-error",
    prompt: "This request fails upstream.",
    replies: [{ kind: "http-error", status: 500, message: "fake upstream failure" }],
    answer: "accept",
  },
];

/** What a scenario must come to after replay, whatever the wire looks like (B8 regression). */
export type ScenarioShape = {
  turn: "completed" | "failed";
  /** Item kinds that completed, in order of completion (kinds only: counts vary by runtime). */
  completedKinds: string[];
  requests: string[];
  text: string | null;
};
