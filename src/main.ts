// The action's main step (action.yml `runs.main`); the step itself is src/action/main.ts.
import { runAction } from "./action/main.js";

await runAction();
