import type { CommandData, SessionCommand } from "../commands.ts";
import { ConflictError, NotFoundError, type DecideResult, guarded } from "../errors.ts";
import type { SessionEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import { assertNever } from "../assert-never.ts";
import type { SessionState } from "../state/project-state.ts";
import { assertTransition } from "../transitions.ts";

function openProviderSession(
  d: CommandData<"OpenProviderSession">,
  s: SessionState,
  m: CommandMeta,
): SessionEvent[] {
  if (s.session) throw new ConflictError(`provider session ${d.providerSessionId} already exists`);
  return [
    {
      type: "ProviderSessionOpened",
      data: {
        session: {
          id: d.providerSessionId,
          provider: d.provider,
          status: "starting",
          cwd: d.cwd,
          model: d.model ?? null,
          capabilities: d.capabilities,
          createdAt: m.at,
          updatedAt: m.at,
          lastError: null,
          owner: d.owner ?? null,
        },
        at: m.at,
      },
    },
  ];
}

function changeProviderSessionStatus(
  d: CommandData<"ChangeProviderSessionStatus">,
  s: SessionState,
  m: CommandMeta,
): SessionEvent[] {
  const session = s.session;
  if (!session || session.id !== d.providerSessionId) {
    throw new NotFoundError("ProviderSession", d.providerSessionId);
  }
  assertTransition("ProviderSession", session.status, d.status, session.id);
  return [
    {
      type: "ProviderSessionStatusChanged",
      data: {
        providerSessionId: session.id,
        status: d.status,
        // An error keeps its message; any other status clears it unless one is given.
        lastError:
          d.lastError !== undefined ? d.lastError : d.status === "error" ? session.lastError : null,
        at: m.at,
      },
    },
  ];
}

export function decideSession(
  command: SessionCommand,
  state: SessionState,
  meta: CommandMeta,
): DecideResult<SessionEvent> {
  return guarded(() => {
    switch (command.type) {
      case "OpenProviderSession":
        return openProviderSession(command.data, state, meta);
      case "ChangeProviderSessionStatus":
        return changeProviderSessionStatus(command.data, state, meta);
      default:
        return assertNever(command);
    }
  });
}
