// The input rules (B4) on their own, for clients that need them without the rest of the domain
// (the web UI's forms): `@skein/domain/inputs`.
export {
  AnswersInput,
  NameText,
  nameProblem,
  PathText,
  textProblem,
  UserText,
  WellFormedText,
} from "./text.ts";
export {
  MAX_WORKSPACE_PATH_LENGTH,
  WorkspacePath,
  workspacePathProblem,
} from "./workspace-path.ts";
