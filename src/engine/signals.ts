// Stop signals as images write them (`STOPSIGNAL SIGINT`, `INT`, `2`, `SIGRTMIN+3`): one reading
// for the launch spec, the report and the engines that want a number (Podman's own API).
import { constants } from "node:os";

/** Linux's first real-time signal as the C library sees it (glibc and musl reserve 32 and 33). */
const SIGRTMIN = 34;
const SIGRTMAX = 64;

/** Names the engines' signal table has (moby/sys/signal) and Node's does not. */
const ALIASES: Record<string, number> = { SIGCLD: 17, SIGUNUSED: 31 };

/** The signal's number, or undefined when it is not a Linux signal. */
export function signalNumber(raw: string): number | undefined {
  const s = raw.trim().toUpperCase();
  if (/^\d+$/.test(s)) return Number(s) >= 1 && Number(s) <= SIGRTMAX ? Number(s) : undefined;
  const name = s.startsWith("SIG") ? s : `SIG${s}`;
  const rt = /^SIGRTMIN(?:\+(\d+))?$/.exec(name) ?? /^SIGRTMAX(?:-(\d+))?$/.exec(name);
  if (rt) {
    const n = name.startsWith("SIGRTMIN") ? SIGRTMIN + Number(rt[1] ?? 0) : SIGRTMAX - Number(rt[1] ?? 0);
    return n >= SIGRTMIN && n <= SIGRTMAX ? n : undefined;
  }
  return (constants.signals as Record<string, number>)[name] ?? ALIASES[name];
}

/** The signal as people name it ("SIGINT"), or undefined when it is not a Linux signal. */
export function signalName(raw: string): string | undefined {
  const n = signalNumber(raw);
  if (n === undefined) return undefined;
  if (n >= SIGRTMIN) return n === SIGRTMIN ? "SIGRTMIN" : `SIGRTMIN+${n - SIGRTMIN}`;
  const names = Object.entries(constants.signals as Record<string, number>).filter(([, v]) => v === n);
  // SIGIOT and SIGABRT, SIGPOLL and SIGIO share numbers: the one written wins, else the first.
  const written = `SIG${raw.trim().toUpperCase().replace(/^SIG/, "")}`;
  return names.find(([k]) => k === written)?.[0] ?? names[0]?.[0];
}
