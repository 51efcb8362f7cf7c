// The action's main step (action.yml `runs.main`); the step itself is src/action/main.ts.
import { installLastResort } from "./action/last-resort.js";
import { runAction } from "./action/main.js";

installLastResort("main");
await runAction();
