// What judges a pull request comes from its base, never from the pull request itself
// (docs/security.md). The inventory is a file in the PR, so its trust-bearing parts (required
// cases, severities, artifact pins, the probe image field, each subject's allowances, build
// secrets and image ID pin) are read
// at the PR's base commit when the checkout holds it, as the alignment rules are. The PR's own
// copy still describes the subjects (how to build and start them); a change to a trust-bearing
// part does not judge this PR, it is a Tier 1 item for a maintainer. Without the base, the
// report says so under its headline.
import path from "node:path";
import type { Finding, TrustReport } from "../report/model.js";
import { type EnvironmentAccess, READ_ENVIRONMENT } from "./environment.js";
import { type LoadedInventory, parseInventoryText } from "./load.js";
import type { Inventory, Subject } from "./schema.js";

/** Where the judging parts are read: the base commit, or why it is not available. */
export type JudgeAt = { base: string } | { unavailable: string };

/** Per-subject fields that widen what a subject may do: allowances, taken from the base. */
const TRUST_BEARING_SUBJECT_FIELDS = [
  "capabilities",
  "allowedHostPaths",
] as const satisfies readonly (keyof Subject)[];

const TRUST_BEARING_PARTS = {
  suites: "required cases",
  severity: "severities",
  artifacts: "artifact pins",
  probeImage: "probe image field",
} as const satisfies Partial<Record<keyof Inventory, string>>;

export interface JudgedInventory {
  /** The PR's subjects with the base's trust-bearing parts. */
  inventory: Inventory;
  /** The text the artifact pins' line numbers refer to. */
  pinsText: string;
  trust: Pick<TrustReport, "inventoryFrom" | "notes" | "findings">;
  /** Subjects of the base's inventory that the change removed: they still owe their cases. */
  removed: string[];
  /**
   * Whether the build secrets and `env:` pins it names are read from the environment: only when
   * a maintainer declared them (at the base, or outside a pull request), never from the change.
   */
  environment: EnvironmentAccess;
}

export async function judgeAtBase(
  workspace: string,
  head: LoadedInventory,
  judgeAt: JudgeAt | undefined,
): Promise<JudgedInventory> {
  const asIs = (notes: string[], findings: Finding[] = [], fromChange?: string) =>
    fromTheChange(head, notes, findings, fromChange);
  if (!judgeAt) return asIs([]);
  const unavailable =
    "unavailable" in judgeAt ? judgeAt.unavailable : await missingCommit(workspace, judgeAt.base);
  if (unavailable !== undefined) {
    return asIs(
      [baseUnavailableNote(unavailable)],
      [],
      "the inventory could only be read from the pull request itself (its base is not available)",
    );
  }
  const ref = (judgeAt as { base: string }).base;
  let atBase: { rel: string; text: string | undefined } | undefined;
  try {
    atBase = await inventoryAtBase(workspace, head.path, ref);
  } catch (err) {
    return judgeAtBase(workspace, head, { unavailable: (err as Error).message.split("\n")[0]! });
  }
  // An inventory outside the repository is not a file of the pull request.
  if (!atBase) return asIs([]);
  const { rel, text } = atBase;
  const short = ref.slice(0, 12);
  if (text === undefined) {
    const finding = trustFinding(rel, "the inventory", `is new in this change (absent at the base ${short})`);
    return asIs(
      [
        `${rel} is new in this change: what judges this run was read from the change itself, and no environment variable it names was read.`,
      ],
      [finding],
      `${rel} is new in this pull request, so no maintainer declared the variables it names`,
    );
  }
  let base: Inventory;
  try {
    base = (await parseInventoryText(`${rel}@${short}`, text)).inventory;
  } catch (err) {
    // A base inventory this version cannot read cannot judge: the change's is used, visibly.
    const why = (err as Error).message.split("\n")[0];
    return asIs(
      [
        `${rel} at the base ${short} does not load (${why}): what judges this run was read from the change itself, and no environment variable it names was read.`,
      ],
      [trustFinding(rel, "the inventory", `cannot be read at the base ${short}`)],
      `${rel} does not load at the base ${short}, so no maintainer's declaration of the variables it names could be read`,
    );
  }
  return {
    inventory: withBaseParts(head.inventory, base),
    pinsText: text,
    trust: { inventoryFrom: ref, notes: [], findings: changedParts(rel, head.inventory, base, short) },
    removed: removedSubjects(head.inventory, base),
    // Both fields that name variables were just taken from the base: a maintainer's names.
    environment: READ_ENVIRONMENT,
  };
}

/** The change's own inventory judges the run (the base cannot): said in `notes`, and why no variable it names is read. */
function fromTheChange(
  head: LoadedInventory,
  notes: string[],
  findings: Finding[],
  fromChange?: string,
): JudgedInventory {
  return {
    inventory: head.inventory,
    pinsText: head.text,
    trust: { notes, findings },
    removed: [],
    environment: fromChange ? { read: false, why: fromChange } : READ_ENVIRONMENT,
  };
}

function baseUnavailableNote(why: string): string {
  return `The pull request's base is not available (${why}), so the inventory's required cases, severities, artifact pins and allowances were read from the pull request itself, which may have weakened them, and no environment variable it names (build secrets, an env: image ID) was read (fix: actions/checkout with fetch-depth: 0).`;
}

/**
 * The inventory file's path in the repository and its text at the base (undefined: absent there);
 * undefined when the file is not in the repository. Throws when git cannot say.
 */
async function inventoryAtBase(
  workspace: string,
  file: string,
  ref: string,
): Promise<{ rel: string; text: string | undefined } | undefined> {
  const { gitTopLevel, gitTree } = await loadGit();
  const top = await gitTopLevel(workspace);
  const rel = path.relative(top, path.resolve(file)).split(path.sep).join("/");
  if (rel.startsWith("../") || path.isAbsolute(rel)) return undefined;
  return { rel, text: (await gitTree(workspace, ref).readMany([rel])).get(rel) };
}

function withBaseParts(head: Inventory, base: Inventory): Inventory {
  const byName = new Map(base.subjects.map((s) => [s.name, s]));
  return {
    ...head,
    suites: base.suites,
    severity: base.severity,
    artifacts: base.artifacts,
    probeImage: base.probeImage,
    subjects: head.subjects.map((s) => {
      const b = byName.get(s.name);
      const allowances = Object.fromEntries(
        // A subject new in this change is allowed nothing the base did not declare.
        TRUST_BEARING_SUBJECT_FIELDS.map((f) => [f, b ? b[f] : []]),
      );
      return { ...s, ...allowances, ...buildTrust(s, b) };
    }),
  };
}

/**
 * Which environment variables a build may read as secrets, and the image ID a prebuilt image must
 * have, are the base's: a change naming another variable could hand the runner's environment to
 * its own Dockerfile, and one dropping a pin could swap the image.
 */
function buildTrust(s: Subject, b: Subject | undefined): Partial<Subject> {
  return {
    imageId: b?.imageId,
    ...(s.build ? { build: { ...s.build, secrets: b?.build?.secrets ?? {} } } : {}),
  };
}

/** The base's subjects the change no longer declares (removed or renamed). */
function removedSubjects(head: Inventory, base: Inventory): string[] {
  const names = new Set(head.subjects.map((s) => s.name));
  return base.subjects.map((s) => s.name).filter((n) => !names.has(n));
}

function changedParts(rel: string, head: Inventory, base: Inventory, short: string): Finding[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const findings: Finding[] = removedSubjects(head, base).map((name) =>
    trustFinding(
      rel,
      `subject ${name}`,
      `is removed (declared at the base ${short}); its required cases count as missing`,
    ),
  );
  for (const [key, words] of Object.entries(TRUST_BEARING_PARTS) as [
    keyof typeof TRUST_BEARING_PARTS,
    string,
  ][]) {
    if (!same(head[key], base[key]))
      findings.push(trustFinding(rel, `the ${words}`, `differ from the base ${short}`));
  }
  const byName = new Map(base.subjects.map((s) => [s.name, s]));
  for (const s of head.subjects) {
    for (const f of TRUST_BEARING_SUBJECT_FIELDS) {
      const was = byName.get(s.name)?.[f] ?? [];
      if (!same(s[f], was)) {
        findings.push(trustFinding(rel, `subject ${s.name}'s ${f}`, `differ from the base ${short}`));
      }
    }
    const b = byName.get(s.name);
    if (!same(s.build?.secrets ?? {}, b?.build?.secrets ?? {}))
      findings.push(trustFinding(rel, `subject ${s.name}'s build secrets`, `differ from the base ${short}`));
    if (s.imageId !== b?.imageId)
      findings.push(trustFinding(rel, `subject ${s.name}'s imageId pin`, `differs from the base ${short}`));
  }
  return findings;
}

function trustFinding(rel: string, what: string, how: string): Finding {
  return {
    tier: 1,
    kind: "trust-bearing-change",
    title: `This change edits what judges it: ${what}`,
    concern: `${what} ${how}. This run was judged by the base's; a maintainer must review the change, which takes effect once merged.`,
    path: rel,
    reviewers: [],
    locations: [],
  };
}

/** Why `ref` cannot be read in the checkout, or undefined when it can. */
async function missingCommit(workspace: string, ref: string): Promise<string | undefined> {
  if (ref === "" || ref.startsWith("-") || /[\0\n]/.test(ref))
    return `${JSON.stringify(ref)} is not a git revision`;
  try {
    const { execFileAsync } = await loadGit();
    await execFileAsync("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], {
      cwd: workspace,
    });
    return undefined;
  } catch {
    return `the checkout does not hold ${ref.slice(0, 40)}`;
  }
}

/**
 * Git (and with it Node's child_process, several ms of start-up) is loaded only when a pull
 * request's base is read: a run outside one never needs it before its first engine call.
 */
const loadGit = () => import("../git.js");
