// Everything read from the list of check kinds (./kinds/index.ts): the inventory's `readiness`
// and `probes` schemas with their descriptions, their types, and the kind that runs a value.
import * as z from "zod";
import type { CheckKind, ProbeSide, ReadinessSide } from "./kind.js";
import { CHECK_KINDS } from "./kinds/index.js";

type Kinds = (typeof CHECK_KINDS)[number];
type ReadinessSchemaOf<K> = K extends { readiness?: ReadinessSide<infer S> } ? S : never;
type ProbeSchemaOf<K> = K extends { probe?: ProbeSide<infer S> } ? S : never;

/** A subject's readiness strategy, one of the kinds' (as parsed: defaults filled in). */
export type Readiness = z.output<ReadinessSchemaOf<Kinds>>;
/** One of a subject's probes, as parsed. */
export type Probe = z.output<ProbeSchemaOf<Kinds>>;

// Read at load, so a kind added to the list (or, in a test, to a mocked list) is in the schema.
const kinds: readonly CheckKind[] = CHECK_KINDS;
const readinessKinds = kinds.filter((k) => k.readiness);
const probeKinds = kinds.filter((k) => k.probe);

/** "a, b, c or d" */
function listed(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

type Options = [z.ZodObject, ...z.ZodObject[]];

/** How lifecycle.ready decides the subject is ready: one strategy, as a value. */
export const readinessSchema = z
  .discriminatedUnion("type", readinessKinds.map((k) => k.readiness!.schema) as unknown as Options)
  .describe(
    `readiness strategy: ${listed(readinessKinds.map((k) => k.readiness!.listed))}`,
  ) as unknown as z.ZodType<Readiness, z.input<ReadinessSchemaOf<Kinds>>>;

/** A check that must hold once the subject is ready. */
export const probeSchema = z
  .union(probeKinds.map((k) => k.probe!.schema) as unknown as Options)
  .describe(
    `a check that must hold once ready: ${listed(probeKinds.map((k) => k.probe!.listed))}`,
  ) as unknown as z.ZodType<Probe, z.input<ProbeSchemaOf<Kinds>>>;

function byType<S>(side: (k: CheckKind) => S | undefined, type: string | undefined, what: string): S {
  const kind = kinds.find((k) => k.type === type && side(k));
  if (!kind) throw new Error(`no ${what} check kind "${type}"`); // the schema admits only listed kinds
  return side(kind)!;
}

/** The readiness side of the kind a strategy names. */
export function readinessKind(readiness: { type: string }): ReadinessSide<z.ZodType<{ type?: string }>> {
  return byType((k) => k.readiness, readiness.type, "readiness");
}

const defaultProbeType = probeKinds.find((k) => k.probe!.isDefault)?.type;

/** The probe side of the kind a probe names (the default kind when it names none). */
export function probeKind(probe: { type?: string }): ProbeSide<z.ZodType<{ type?: string }>> {
  return byType((k) => k.probe, probe.type ?? defaultProbeType, "probe");
}

/** The kinds that can be a readiness strategy, by name ("http, tcp, healthcheck, log, delay"). */
export const READINESS_TYPES = readinessKinds.map((k) => k.type);
