/** Handoff fidelity (issue 25, B13): the seeded generator, its transfer inputs and the scorer. */
export {
  type FactKind,
  type GenCommand,
  type GeneratedThread,
  type GenFile,
  type GenRun,
  generateThread,
  type PlantedFact,
} from "./generate.ts";
export {
  currentLines,
  type FidelityScore,
  SCRIPTED_HISTORY_CALLS,
  scoreFidelity,
} from "./score.ts";
export { toTransferInputs } from "./to-inputs.ts";
