import { skeinVitestConfig } from "@skein/test-config";

export default skeinVitestConfig();
