import type { ClaudeTurn, SdkEnvelope } from "./claude-turn.ts";
import type { ClaudeTurnOutcome } from "./turn-outcome.ts";

/**
 * One Skein turn on Claude (R1): the CLI turn its message started, plus one per steer sent while
 * it ran. Claude Code folds a steer into the running turn between tool rounds (one result then
 * answers both), but while the model is mid-answer it queues the steer and answers it as its own
 * CLI turn right after. Either way the Skein turn lasts until the last of them is answered and
 * ends on that answer, so the reply to a steer is part of the run that carried it.
 */
export class SteeredTurn {
  private readonly turns: ClaudeTurn[] = [];
  private ended = false;
  private refused = false;

  constructor(private readonly onMessage: (envelope: SdkEnvelope) => void) {}

  /** False once the last CLI turn has settled: a steer then has no turn to join. */
  get isOpen(): boolean {
    return !this.ended;
  }

  /**
   * Whether the last CLI turn failed before Claude answered anything (an API error answered its
   * prompt): that prompt is then worth nothing in the conversation, and poisons what follows it.
   */
  get endedRefused(): boolean {
    return this.refused;
  }

  add(turn: ClaudeTurn): void {
    if (this.ended) throw new Error("Cannot steer a turn that has ended");
    this.turns.push(turn);
    turn.onMessage(this.onMessage);
  }

  /**
   * Settles once every CLI turn has, steers added meanwhile included, with the last one's
   * outcome: `interrupted` when the person stopped it, and the last entry any of them wrote (a
   * fork or rollback at this turn keeps the steers too).
   */
  async settle(): Promise<ClaudeTurnOutcome> {
    let last: ClaudeTurnOutcome | null = null;
    let lastEntryUuid: string | null = null;
    let lastAssistantUuid: string | null = null;
    // No await between the loop's last check and `ended`: a steer either joins or is refused.
    for (let i = 0; i < this.turns.length; i++) {
      const outcome = await (this.turns[i] as ClaudeTurn).outcome;
      last = outcome;
      lastEntryUuid = outcome.lastEntryUuid ?? lastEntryUuid;
      lastAssistantUuid = outcome.lastAssistantUuid ?? lastAssistantUuid;
    }
    this.ended = true;
    if (!last) throw new Error("A steered turn needs its first message");
    this.refused = last.status === "failed" && last.result !== null && last.lastEntryUuid === null;
    const interrupted = this.turns.some((t) => t.isInterruptRequested);
    return {
      ...last,
      ...(interrupted ? { status: "interrupted" as const, error: null } : {}),
      lastEntryUuid,
      lastAssistantUuid,
    };
  }
}
