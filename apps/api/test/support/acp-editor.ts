import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import {
  type ClientConnection,
  client as acpClient,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { API_DIR, TSX_LOADER } from "./child-server.ts";

/**
 * An editor built on the ACP SDK's client side, running `skein acp` as its agent process (as
 * `pnpm skein acp` runs it, minus pnpm, so the test can kill exactly that process).
 */
export type AcpEditor = {
  connection: ClientConnection;
  child: ChildProcess;
  /** Every `session/update` received, in order. */
  updates: SessionNotification[];
  /** Every permission request received, in order. */
  permissions: RequestPermissionRequest[];
  /** The agent's stderr so far. */
  stderr(): string;
  /** Kills the agent process (no goodbye) and waits for it to be gone. */
  kill(): Promise<void>;
};

export function startAcpEditor(options: {
  url: string;
  token: string;
  name: string;
  env?: Record<string, string>;
  /** How the editor answers each permission request (default: the first option). */
  answer?: (request: RequestPermissionRequest) => RequestPermissionResponse;
}): AcpEditor {
  const child = spawn(
    process.execPath,
    [
      "--import",
      TSX_LOADER,
      path.join(API_DIR, "../../scripts/skein.ts"),
      "acp",
      "--url",
      options.url,
    ],
    {
      cwd: API_DIR,
      env: { ...process.env, SKEIN_API_TOKEN: options.token, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const answer =
    options.answer ??
    ((request: RequestPermissionRequest): RequestPermissionResponse => ({
      outcome: { outcome: "selected", optionId: request.options[0]!.optionId },
    }));
  const app = acpClient({ name: options.name })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return answer(params);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
  return {
    connection,
    child,
    updates,
    permissions,
    stderr: () => stderr,
    async kill() {
      child.kill("SIGKILL");
      await exited;
      connection.close();
    },
  };
}

/** The text of the agent message chunks among `updates`, joined. */
export function agentText(updates: readonly SessionNotification[]): string {
  return updates
    .map((n) => n.update)
    .flatMap((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
        ? [u.content.text]
        : [],
    )
    .join("");
}
