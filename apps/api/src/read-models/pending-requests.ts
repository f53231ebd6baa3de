import type { ProjectionQuery } from "@skein/db";
import {
  assemblePendingRequests,
  type PendingRequestView,
  type PlanArtifact,
  type RuntimeRequest,
} from "@skein/domain";
import { typedRows } from "./rows.ts";

/** P5: pending requests of one thread, or of every thread, oldest first, with their questions. */
export async function readPendingRequests(
  query: ProjectionQuery,
  threadId?: string,
): Promise<PendingRequestView[]> {
  const byThread = threadId === undefined ? {} : { threadId };
  const rows = await query.list("requests", { status: "pending", ...byThread });
  // Questions live on the request's `questions` plan, active while the request is pending.
  const asks = rows.some((row) => (row.data as RuntimeRequest).kind === "user_input");
  const plans = asks ? await query.list("plans", { status: "active", ...byThread }) : [];
  return assemblePendingRequests(typedRows<RuntimeRequest>(rows), typedRows<PlanArtifact>(plans));
}
