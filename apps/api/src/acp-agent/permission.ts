import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type {
  RequestAnswers,
  RequestDecision,
  RuntimeRequest,
  UserInputQuestion,
} from "@skein/domain";

/**
 * E15 over ACP: a request a run waits on is put to the editor as `session/request_permission`,
 * and its choice is Skein's answer. Approvals offer allow once / allow for the session / reject;
 * a single question with choices offers its choices; anything else can only be declined here.
 */

const KIND: Record<RuntimeRequest["kind"], ToolKind> = {
  command: "execute",
  "file-read": "read",
  "file-change": "edit",
  dynamic_tool_call: "other",
  user_input: "other",
  auth_refresh: "other",
};

const APPROVAL_OPTIONS: PermissionOption[] = [
  { optionId: "accept", name: "Allow", kind: "allow_once" },
  { optionId: "accept_for_session", name: "Allow for this session", kind: "allow_always" },
  { optionId: "decline", name: "Reject", kind: "reject_once" },
];

/** A question the editor can show as a choice: one, single-select, with options. */
function askableQuestion(questions: readonly UserInputQuestion[]): UserInputQuestion | null {
  const [question, ...more] = questions;
  if (!question || more.length > 0 || question.multiSelect || question.options.length === 0) {
    return null;
  }
  return question;
}

export type PermissionAsk = {
  params: RequestPermissionRequest;
  /** Skein's answer for the editor's response. */
  answer(response: RequestPermissionResponse): {
    decision: RequestDecision;
    answers?: RequestAnswers;
  };
};

/** What to ask the editor for `request`; null when it cannot be asked there (then declined). */
export function permissionAsk(
  sessionId: string,
  request: RuntimeRequest,
  questions: readonly UserInputQuestion[],
): PermissionAsk | null {
  const toolCall = {
    toolCallId: request.id,
    title: request.title,
    kind: KIND[request.kind],
    status: "pending" as const,
    ...(request.detail
      ? {
          content: [
            { type: "content" as const, content: { type: "text" as const, text: request.detail } },
          ],
        }
      : {}),
  };
  if (request.kind === "user_input") {
    const question = askableQuestion(questions);
    if (question === null) return null;
    const options: PermissionOption[] = question.options.map((option, index) => ({
      optionId: `answer_${index}`,
      name: option.label,
      kind: "allow_once",
    }));
    options.push({ optionId: "decline", name: "Do not answer", kind: "reject_once" });
    return {
      params: { sessionId, toolCall: { ...toolCall, title: question.question }, options },
      answer: ({ outcome }) => {
        if (outcome.outcome !== "selected") return { decision: "cancel" };
        const chosen = /^answer_(\d+)$/.exec(outcome.optionId);
        const label = chosen ? question.options[Number(chosen[1])]?.label : undefined;
        return label === undefined
          ? { decision: "decline" }
          : { decision: "accept", answers: { [question.id]: label } };
      },
    };
  }
  if (request.kind === "auth_refresh") return null;
  return {
    params: { sessionId, toolCall, options: APPROVAL_OPTIONS },
    answer: ({ outcome }) => {
      if (outcome.outcome !== "selected") return { decision: "cancel" };
      const id = outcome.optionId;
      return { decision: id === "accept" || id === "accept_for_session" ? id : "decline" };
    },
  };
}
