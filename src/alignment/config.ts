// acceptance/alignment.yml: the repository's own declarations the alignment review judges a diff
// against (RFC registry, principles, protected paths, debug checks). Same error standard as the
// inventory: every problem names the file, the field, what was expected and the fix.
import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { z } from "zod";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { jsonPath } from "../inventory/load.js";

export const DEFAULT_CONFIG_PATH = "acceptance/alignment.yml";
export const DEFAULT_OPEN_STATUSES = ["Draft", "In Review"];
export const DEFAULT_PROTECTED = [
  "acceptance/inventory.json",
  DEFAULT_CONFIG_PATH,
  "acceptance/fixtures/**",
  ".github/workflows/**",
  "action.yml",
];
/** Put this on a line (in a comment) to tell the debug checks the line is intended. */
export const DEFAULT_ALLOW_MARKER = "alignment: allow";

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

const principle = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' or '-' (such as no-shell-exec)"),
    title: z.string().min(1),
    paths: globs.min(1).default(["**"]).describe("files the rule applies to"),
    exclude: globs.default([]).describe("files the rule skips even when `paths` match"),
    forbid: z
      .array(pattern)
      .min(1, "at least one regular expression")
      .describe("regular expressions matched against added lines only"),
    message: z.string().min(1).describe("the concern, shown with each hit"),
    tier: z.union([z.literal(1), z.literal(2)], "1 (fix required) or 2 (alignment discussion)"),
    reviewers: z.array(z.string().min(1)).default([]),
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
  })
  .strict();

const debugObject = z
  .object({
    enabled: z.boolean().default(true),
    ignore: globs.default([]).describe("files the debug checks skip"),
    marker: z.string().min(1).default(DEFAULT_ALLOW_MARKER).describe("per-line opt-out marker"),
  })
  .strict();

export const alignmentConfigSchema = z
  .object({
    rfcs: rfcs.prefault({}),
    principles: z.array(principle).default([]),
    protected: globs.default(DEFAULT_PROTECTED),
    debug: z
      .union([z.boolean().transform((enabled) => debugObject.parse({ enabled })), debugObject])
      .prefault({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.principles.forEach((p, i) => {
      if (seen.has(p.id)) {
        ctx.addIssue({ code: "custom", path: ["principles", i, "id"], message: `duplicate id "${p.id}"` });
      }
      seen.add(p.id);
    });
  });

export type AlignmentConfig = z.infer<typeof alignmentConfigSchema>;
export type Principle = AlignmentConfig["principles"][number];

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
            ? "write tier: 1 or tier: 2"
            : FIXES[issue.code];
  return { path: jsonPath(issue.path), message: issue.message, ...(fix ? { fix } : {}) };
}
