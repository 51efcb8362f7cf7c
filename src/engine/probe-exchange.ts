// One TCP exchange from inside a trusted probe, with busybox nc (every busybox has it; wget is
// absent or broken in some static builds): the shell function every probe that asks over the
// network uses, and the parser of what it prints. Used by the in-namespace checks of a subject on
// network "none" (src/checks/netns.ts) and by the subject probe's engine-reach asks
// (src/suites/containment/probe.ts).
//
// Busybox nc half-closes the connection at its input's end (it sends FIN once stdin is done), and a
// server that hangs up on FIN (Node's default, many others) then never sends an answer that comes
// later than the request's last byte: `printf req | nc host port` races the server. So nc's input
// stays open after the request, held by a background `sleep` that never writes (nothing is added
// to what the server reads), until nc ends: the server closed, or the bound passed. The bound is a
// killer of nc's own (busybox nc's -w bounds only the connect), never busybox `timeout`: its
// watcher polls once a second and holds nc's output open until it notices nc gone, so every
// exchange through it took a second more than its answer. The exchange takes as long as the
// answer; the sleeps it leaves hold no output of anyone's and end by themselves (or with the probe).

/** The marker line `xchg` prints when the connection was refused (nothing answered). */
export const REFUSED = "@@refused";

/**
 * `xchg SECONDS HOST PORT REQUEST`: connects to HOST:PORT (nc -w bounds the connect, a killer the
 * whole exchange), sends REQUEST as it is (printf '%s': no escapes), keeps the connection's input
 * open while the answer comes, and prints the answer on stdout as it came; `@@refused` and a newline
 * (alone: nc printed nothing) when the connection was refused. fd 3 is its own (the caller's
 * stdout, while nc's stderr is read). The killer is stopped once nc has ended, so it never signals
 * a pid that has since been reused.
 */
export const EXCHANGE_SH = `
xchg() {
  { { { printf '%s' "$4"; sleep "$1" 3>&- & } | nc -w "$1" "$2" "$3" 2>&1 1>&3 & n=$!
      ( exec >/dev/null 2>&1 3>&-; sleep "$1"; kill "$n" ) & k=$!
      wait "$n"; kill "$k"
    } | grep -q "can.t connect" && echo "${REFUSED}"; } 3>&1 2>/dev/null
}
`;

export interface Exchange {
  /** Whether the connection was made (false: refused, or no output at all from the exchange). */
  connected: boolean;
  /** What the server sent, as it came (empty when it sent nothing or was not reached). */
  answer: string;
}

/** What `xchg` printed, read back: undefined (no output was found at all) is no connection. */
export function parseExchange(out: string | undefined): Exchange {
  if (out === undefined || out === `${REFUSED}\n`) return { connected: false, answer: "" };
  return { connected: true, answer: out };
}
