// A third of the API benches' smoke (the rest: the other bench-smoke-*.int.test.ts files).
import { describeBenchSmoke } from "./support/bench-smoke.ts";

describeBenchSmoke(1, 3);
