import type { RouterInputs as Inputs } from "@skein/contract";
import { COMMAND, defineTool, inputOf, READ } from "../tool-kit.ts";

/** Reviewing changes and answering the requests runs wait on (B10, E15). */

export const reviewDiff = defineTool<Inputs["review"]["diff"]>({
  name: "skein_review_diff",
  description:
    "Unified diffs per file of a thread's changes: runId for one run's changes, sinceRunId for everything after that run, neither for the whole thread since it started.",
  input: inputOf("review.diff"),
  annotations: READ,
  run: (args, { api }) => api.review.diff(args),
});

export const pendingRequests = defineTool<Inputs["request"]["pending"]>({
  name: "skein_pending_requests",
  description:
    "Requests runs are waiting on (approvals of commands and file changes, questions), oldest first, across threads or for one threadId; answerable says whether it can still be answered.",
  input: inputOf("request.pending"),
  annotations: READ,
  run: (args, { api }) => api.request.pending(args),
});

export const respondRequest = defineTool<Inputs["request"]["respond"]>({
  name: "skein_respond_request",
  description:
    "Answers a pending request: decision accept, accept_for_session, decline or cancel; for a question, answers by question id. Pass a commandId (cmd_…) to make a retry safe.",
  input: inputOf("request.respond"),
  annotations: COMMAND,
  run: (args, { api }) => api.request.respond(args),
});
