import { skeinVitestConfig } from "@skein/test-config";

// Property and concurrency suites run real SQLite and PostgreSQL: give them room on a loaded
// 2-core CI machine instead of failing on the clock.
export default skeinVitestConfig({ testTimeout: 180_000 });
