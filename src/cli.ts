#!/usr/bin/env node
// The CLI's entry (the door itself is src/cli/main.ts). The commands' code is compiled once and
// reused by later runs (Node >= 22.1; Node 20 has no cache, NODE_DISABLE_COMPILE_CACHE turns it
// off); not for the action, whose every job starts on a fresh runner.
import module from "node:module";
import { main } from "./cli/main.js";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
process.exitCode = await main(process.argv.slice(2));
