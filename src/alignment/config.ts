// acceptance/alignment.yml: the repository's own declarations the alignment review judges a diff
// against (RFC registry, principles, protected paths, debug checks). Same error standard as the
// inventory: every problem names the file, the field, what was expected and the fix.
import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import * as z from "zod";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import { jsonPath } from "../jsonpos.js";
import { FINDING_LEVELS } from "../report/model.js";

export const DEFAULT_CONFIG_PATH = "acceptance/alignment.yml";
const DEFAULT_OPEN_STATUSES = ["Draft", "In Review"];
export const DEFAULT_PROTECTED = [
  DEFAULT_INVENTORY_PATH,
  DEFAULT_CONFIG_PATH,
  "acceptance/fixtures/**",
  ".github/workflows/**",
  "action.yml",
];
/** Put this on a line (in a comment) to tell the debug checks the line is intended. */
const DEFAULT_ALLOW_MARKER = "alignment: allow";

const glob = z.string().min(1, "a glob such as src/** (relative to the repository root)");
const globs = z.array(glob);

/** `"console\\.log"` or `"/console\\.log/i"`: a JavaScript regular expression, without g or y. */
const pattern = z
  .string()
  .min(1)
  .superRefine((source, ctx) => {
    try {
      compilePattern(source);
    } catch (err) {
      ctx.addIssue({
        code: "custom",
        message: `not a valid regular expression (${(err as Error).message}); write a JavaScript regex source such as "print\\\\(" or "/todo/i"`,
      });
    }
  });

const ruleId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' or '-' (such as no-shell-exec)");

/** blocking: Tier 1, fails the run; discussion: Tier 2; advisory: a note that never fails. */
const level = z.enum(FINDING_LEVELS, "blocking, discussion or advisory");
type Level = z.infer<typeof level>;

/** What part of a source file a pattern is matched against (by the file's language). */
const TARGETS = ["any", "code", "comments", "strings"] as const;
export type Target = (typeof TARGETS)[number];

const reviewers = z.array(z.string().min(1)).default([]);

const principle = z
  .object({
    id: ruleId,
    title: z.string().min(1),
    paths: globs.min(1).default(["**"]).describe("files the rule applies to"),
    exclude: globs.default([]).describe("files the rule skips even when `paths` match"),
    forbid: z
      .array(pattern)
      .min(1, "at least one regular expression")
      .describe("regular expressions matched against each hunk of added lines"),
    target: z
      .enum(TARGETS, "any, code, comments or strings")
      .default("any")
      .describe("the part of a source file the patterns see"),
    message: z.string().min(1).describe("the concern, shown with the finding"),
    level: level.optional(),
    /** Before levels: 1 = blocking, 2 = discussion. */
    tier: z.union([z.literal(1), z.literal(2)], "1 (fix required) or 2 (alignment discussion)").optional(),
    reviewers,
  })
  .strict();

/** A path rule: changes under `paths` get their own message, level and reviewers. */
const pathRule = z
  .object({
    id: ruleId,
    title: z.string().min(1).optional(),
    paths: globs.min(1),
    exclude: globs.default([]),
    message: z.string().min(1).optional(),
    level: level.default("discussion"),
    reviewers,
  })
  .strict();

/** "A change under `when` needs a change under `require`." */
const coChangeRule = z
  .object({
    id: ruleId,
    title: z.string().min(1).optional(),
    when: globs.min(1).describe("a change to any of these files..."),
    exclude: globs.default([]),
    require: globs.min(1).describe("...needs a change to one of these"),
    message: z.string().min(1).optional(),
    level: level.default("discussion"),
    reviewers,
  })
  .strict();

const metaCheck = { message: z.string().min(1).optional(), level: level.default("discussion") };

/** Rules on the pull request itself (from the event payload in the action, from flags in the CLI). */
const pullRules = z
  .object({
    base: z
      .object({ allow: globs.min(1).describe("base branches a PR may target"), ...metaCheck })
      .strict()
      .optional(),
    stacked: z
      .object({ ...metaCheck })
      .strict()
      .optional()
      .describe("a PR whose base is not the default branch"),
    title: z
      .object({ pattern: pattern.describe("the title must match"), ...metaCheck })
      .strict()
      .optional(),
    body: z
      .object({
        require: z.array(pattern).default([]).describe("each must match somewhere in the body"),
        minLength: z.number().int().nonnegative().default(0),
        ...metaCheck,
      })
      .strict()
      .optional(),
    labels: z
      .object({
        anyOf: z.array(z.string().min(1)).default([]).describe("at least one of these labels"),
        forbid: z.array(z.string().min(1)).default([]).describe("none of these labels"),
        ...metaCheck,
      })
      .strict()
      .optional(),
    size: z
      .object({
        maxFiles: z.number().int().positive().optional(),
        maxAddedLines: z.number().int().positive().optional(),
        ...metaCheck,
      })
      .strict()
      .optional(),
  })
  .strict();

/** A suppression kept in the config: it counts only when the config was read at the base. */
const allowEntry = z
  .object({
    rule: z.string().min(1).describe("a rule id, or a debug check such as print("),
    paths: globs.min(1),
    reason: z.string().min(1),
  })
  .strict();

const rfcs = z
  .object({
    dir: z.string().min(1).default("rfcs/").describe("folder of markdown RFCs"),
    open: z
      .array(z.string().min(1))
      .min(1)
      .default(DEFAULT_OPEN_STATUSES)
      .describe("statuses that mean open"),
    map: z
      .record(z.string().regex(/^\d+$/, "an RFC number such as 0003"), globs)
      .default({})
      .describe("affected paths for RFCs that declare no Affects: list"),
    level: level.default("discussion").describe("of a change to a file an open RFC proposes to change"),
  })
  .strict();

const debugObject = z
  .object({
    enabled: z.boolean().default(true),
    ignore: globs.default([]).describe("files the debug checks skip"),
    marker: z.string().min(1).default(DEFAULT_ALLOW_MARKER).describe("per-line opt-out marker"),
    level: level.default("blocking"),
  })
  .strict();

const alignmentConfigSchema = z
  .object({
    rfcs: rfcs.prefault({}),
    principles: z.array(principle).default([]),
    protected: z.array(z.union([glob, pathRule])).default(DEFAULT_PROTECTED),
    cochange: z.array(coChangeRule).default([]),
    pull: pullRules.prefault({}),
    allow: z.array(allowEntry).default([]),
    debug: z
      .union([z.boolean().transform((enabled) => debugObject.parse({ enabled })), debugObject])
      .prefault({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    const ids = [
      ...c.principles.map((p, i) => [p.id, ["principles", i, "id"]] as const),
      ...c.protected.flatMap((p, i) =>
        typeof p === "string" ? [] : [[p.id, ["protected", i, "id"]] as const],
      ),
      ...c.cochange.map((p, i) => [p.id, ["cochange", i, "id"]] as const),
    ];
    for (const [id, path] of ids) {
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: [...path], message: `duplicate id "${id}"` });
      seen.add(id);
    }
    c.principles.forEach((p, i) => {
      if (p.level !== undefined && p.tier !== undefined && levelOfTier(p.tier) !== p.level) {
        ctx.addIssue({
          code: "custom",
          path: ["principles", i, "tier"],
          message: `tier ${p.tier} contradicts level ${p.level}`,
        });
      }
    });
  });

function levelOfTier(tier: 1 | 2): Level {
  return tier === 1 ? "blocking" : "discussion";
}

/** A principle's level: `level`, else its legacy `tier`, else discussion. */
export function principleLevel(principle: { level?: Level; tier?: 1 | 2 }): Level {
  return principle.level ?? (principle.tier !== undefined ? levelOfTier(principle.tier) : "discussion");
}

export type AlignmentConfig = z.infer<typeof alignmentConfigSchema>;
export type PathRule = Exclude<AlignmentConfig["protected"][number], string>;
export type PullRules = AlignmentConfig["pull"];

/** The config every field at its default: what `rfcs: {}`-style minimal files mean. */
export function defaultAlignmentConfig(): AlignmentConfig {
  return alignmentConfigSchema.parse({});
}

export function compilePattern(source: string): RegExp {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(source);
  const [body, flags] = literal ? [literal[1]!, literal[2]!] : [source, ""];
  if (/[gy]/.test(flags)) throw new Error("flags g and y are not allowed (each line is tested once)");
  return new RegExp(body, flags);
}

export type LoadedConfig =
  | { configured: false; path: string }
  | { configured: true; path: string; config: AlignmentConfig };

/**
 * Reads the config. An absent file means "not configured" (nothing fails) unless `required`
 * (the user named the file explicitly, so absence is a typo worth reporting).
 */
export async function loadAlignmentConfig(file: string, required = false): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !required) return { configured: false, path: file };
    throw new ConfigError(
      [
        {
          path: "",
          message: `cannot read the alignment config (${code ?? "error"})`,
          fix: `create it (see docs/alignment.md) or pass --config PATH`,
        },
      ],
      file,
    );
  }
  return { configured: true, path: file, config: parseAlignmentConfig(file, text) };
}

export function parseAlignmentConfig(file: string, text: string): AlignmentConfig {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => ({
        path: "",
        message: `not valid YAML: ${e.message.split("\n")[0]}`,
        fix: "fix the YAML syntax (indent with spaces, quote values that start with * or contain ': ')",
      })),
      file,
    );
  }
  const parsed = alignmentConfigSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map(toProblem), file);
  return parsed.data;
}

const FIXES: Record<string, string> = {
  unrecognized_keys: "remove the key or check its spelling against docs/alignment.md",
  invalid_type: "see docs/alignment.md for the field's type",
};

function toProblem(issue: z.core.$ZodIssue): ConfigProblem {
  if (issue.code === "invalid_key") {
    return {
      path: jsonPath(issue.path),
      message: "not an RFC number",
      fix: 'key rfcs.map by RFC number, such as "0003": [src/shard/**]',
    };
  }
  const fix =
    issue.code === "unrecognized_keys"
      ? `${FIXES.unrecognized_keys} (known keys are listed there)`
      : issue.path.at(-1) === "forbid"
        ? "list the patterns to forbid, for example forbid: ['console\\.log\\(']"
        : issue.path.at(-2) === "forbid"
          ? 'escape regex metacharacters, for example "print\\\\(" in YAML double quotes'
          : issue.path.includes("tier")
            ? "write level: blocking, discussion or advisory (tier: 1 or 2 still works)"
            : issue.path.at(-1) === "level"
              ? "write level: blocking (fails the run), discussion or advisory (never fails)"
              : FIXES[issue.code];
  return { path: jsonPath(issue.path), message: issue.message, ...(fix ? { fix } : {}) };
}
