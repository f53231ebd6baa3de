// @skein/fake-models is not (yet) a dependency of this package; import its source directly.
export * from "../../../../tooling/fake-models/src/index.ts";
