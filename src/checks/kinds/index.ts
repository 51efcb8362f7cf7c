// The check kinds, in the order the inventory's schema lists them: a new kind is one module in
// this folder (its test beside the others in tests/checks/) and one entry here.
import { delayKind } from "./delay.js";
import { healthcheckKind } from "./healthcheck.js";
import { httpKind } from "./http.js";
import { logKind } from "./log.js";
import { tcpKind } from "./tcp.js";

export const CHECK_KINDS = [httpKind, tcpKind, healthcheckKind, logKind, delayKind] as const;
