import { skeinVitestConfig } from "@skein/test-config";

// The unit tier also type-checks the provider interface's *.test-d.ts type tests.
export default skeinVitestConfig({ typecheck: true });
