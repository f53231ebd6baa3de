import type { ProjectionQuery } from "@skein/db";
import {
  assemblePendingRequests,
  type PendingRequestView,
  type RuntimeRequest,
} from "@skein/domain";
import { typedRows } from "./rows.ts";

/** P5: pending requests of one thread, or of every thread, oldest first. */
export async function readPendingRequests(
  query: ProjectionQuery,
  threadId?: string,
): Promise<PendingRequestView[]> {
  const rows = await query.list("requests", {
    status: "pending",
    ...(threadId === undefined ? {} : { threadId }),
  });
  return assemblePendingRequests(typedRows<RuntimeRequest>(rows));
}
