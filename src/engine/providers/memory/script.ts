// What a container of the in-memory engine does: its command read as a tiny subset of sh, enough
// for fixtures and the contract tests (echo, echo -n, to stdout or stderr; sleep, exit, trap on TERM).

export interface Program {
  stdout: string;
  stderr: string;
  /** Exits by itself with this code (after `afterMs`); absent: runs until stopped. */
  exit?: { code: number; afterMs: number };
  /** Exits with 0 on the stop signal (a TERM handler); otherwise PID 1 ignores it. */
  handlesTerm: boolean;
}

/** `sh -c SCRIPT` (or a bare command) as a program; anything else runs until stopped. */
export function interpret(argv: readonly string[]): Program {
  const script =
    argv[0] === "sh" || argv[0] === "/bin/sh" ? (argv[argv.indexOf("-c") + 1] ?? "") : argv.join(" ");
  const p: Program = { stdout: "", stderr: "", handlesTerm: false };
  let elapsed = 0;
  let sleeping = false;
  for (const raw of script.split(/[;\n]/)) {
    const cmd = raw.trim();
    const echo = /^echo\s+(-n\s+)?(.*?)(\s*>&2)?$/.exec(cmd);
    if (echo) {
      const text = `${echo[2]!.replace(/^(["'])(.*)\1$/, "$2")}${echo[1] ? "" : "\n"}`;
      if (echo[3]) p.stderr += text;
      else p.stdout += text;
      continue;
    }
    const sleep = /^sleep\s+(\d+(?:\.\d+)?)$/.exec(cmd);
    if (sleep) {
      // A long sleep is a service: it runs until stopped.
      if (Number(sleep[1]) >= 60) sleeping = true;
      else elapsed += Number(sleep[1]) * 1000;
      continue;
    }
    if (/^trap\s/.test(cmd)) p.handlesTerm = true;
    const exit = /^exit\s+(\d+)$/.exec(cmd);
    if (exit && !sleeping) return { ...p, exit: { code: Number(exit[1]), afterMs: elapsed } };
  }
  if (sleeping || script.trim() === "" || /\b(serve|httpd|sleep|tail -f)\b/.test(script)) return p;
  return { ...p, exit: { code: 0, afterMs: elapsed } };
}
