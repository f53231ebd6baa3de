import { z } from "zod";
import {
  NodeId,
  ProviderSessionId,
  ProviderTurnId,
  RunId,
  RuntimeRequestId,
  ThreadId,
} from "../ids.ts";
import { IsoTimestamp, NativeRef } from "./common.ts";

export const RuntimeRequestKind = z.enum([
  "command",
  "file-read",
  "file-change",
  "dynamic_tool_call",
  "user_input",
  "auth_refresh",
]);
export type RuntimeRequestKind = z.infer<typeof RuntimeRequestKind>;

export const RuntimeRequestStatus = z.enum(["pending", "resolved", "expired", "cancelled"]);
export type RuntimeRequestStatus = z.infer<typeof RuntimeRequestStatus>;

/** Answerable only while `live`; after a restart a request stays visible as `not_resumable`. */
export const ResponseCapability = z.discriminatedUnion("type", [
  z.object({ type: z.literal("live"), providerSessionId: ProviderSessionId }),
  z.object({ type: z.literal("not_resumable"), reason: z.string().min(1) }),
]);
export type ResponseCapability = z.infer<typeof ResponseCapability>;

export const RequestDecision = z.enum(["accept", "accept_for_session", "decline", "cancel"]);
export type RequestDecision = z.infer<typeof RequestDecision>;

/** Answers to a user_input request, by question id. */
export const RequestAnswers = z.record(
  z.string().min(1),
  z.union([z.string(), z.array(z.string())]),
);
export type RequestAnswers = z.infer<typeof RequestAnswers>;

/**
 * E15: a provider callback awaiting an app/user answer. Beyond SPEC: `threadId`/`runId` for the
 * pending-requests projection, `title`/`detail` to show, and the recorded `decision`/`answers`.
 */
export const RuntimeRequest = z.object({
  id: RuntimeRequestId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  nodeId: NodeId,
  providerTurnId: ProviderTurnId.nullable(),
  nativeRequestRef: NativeRef.nullable(),
  kind: RuntimeRequestKind,
  status: RuntimeRequestStatus,
  responseCapability: ResponseCapability,
  title: z.string(),
  detail: z.string().nullable(),
  decision: RequestDecision.nullable(),
  answers: RequestAnswers.nullable(),
  createdAt: IsoTimestamp,
  resolvedAt: IsoTimestamp.nullable(),
});
export type RuntimeRequest = z.infer<typeof RuntimeRequest>;
