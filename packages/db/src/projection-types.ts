// The projection row contract is owned by the domain (it emits the writes); the store applies it.
export type { ProjectionTable, ProjectionWrite } from "@skein/domain";
