import type { SkeinTool } from "../tool-kit.ts";
import { bringBack, compareForks, fanOut, forkThread } from "./parallel-tools.ts";
import { pendingRequests, respondRequest, reviewDiff } from "./review-tools.ts";
import { sendMessage, waitRun } from "./run-tools.ts";
import { createThread, listProjects, listThreads, readThread } from "./thread-tools.ts";

/** Every tool the MCP server offers, in the order `tools/list` shows them. */
export const SKEIN_TOOLS: readonly SkeinTool[] = [
  listProjects,
  listThreads,
  readThread,
  createThread,
  sendMessage,
  waitRun,
  forkThread,
  fanOut,
  compareForks,
  bringBack,
  reviewDiff,
  pendingRequests,
  respondRequest,
];
