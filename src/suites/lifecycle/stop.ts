// lifecycle.stop: SIGTERM, then the subject exits within its grace; killed after it is a FAIL.
import type { CaseContext, Draft } from "./case.js";

export async function stopSubject(c: CaseContext, containerId: string): Promise<Draft> {
  const { engine, subject } = c;
  const graceSec = Math.ceil(subject.stopTimeoutMs / 1000);
  const before = Date.now();
  await engine.stop(containerId, graceSec);
  const stopMs = Date.now() - before;
  const state = (await engine.inspect(containerId)).State;
  const evidence = {
    exitCode: state.ExitCode,
    stopMs,
    graceMs: subject.stopTimeoutMs,
    oomKilled: state.OOMKilled,
  };
  // Killed after the grace period: 137 (SIGKILL), and the stop took the whole grace.
  if (state.ExitCode === 137 && stopMs >= graceSec * 1000 - 100) {
    return {
      status: "fail",
      message: `ignored SIGTERM: killed after the ${graceSec} s grace period`,
      evidence,
      remediation:
        "handle SIGTERM (exec the server as the command so it receives the signal, or trap TERM and exit), or raise stopTimeoutMs",
    };
  }
  return { status: "pass", message: `exited ${state.ExitCode} after SIGTERM in ${stopMs} ms`, evidence };
}
