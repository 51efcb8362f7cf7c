// `docker-acceptance init [--inventory PATH] [--workspace DIR] [--update | --force]`: writes a first
// inventory from the repository as it is (./init/draft.ts), beside the JSON Schema its "$schema"
// names; it never replaces an inventory without --force. With --update it adds to an existing one
// what it lacks (pins of current cases, subjects found since) in the file's own layout, and
// nothing else: a pin or a subject is never removed, and every other byte stays as it was.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError, readUserFile, UsageError } from "../errors.js";
import { formatJson } from "../inventory/json-layout.js";
import { parseInventory } from "../inventory/validate.js";
import type { RequestOf } from "../request/parse.js";
import { type Draft, draftInventory, draftSubjects } from "./init/draft.js";
import { planUpdate } from "./init/update.js";
import { schemaText } from "./schema.js";
import { printable } from "./verify.js";

/** What `init` takes: its flags, parsed into the one request. */
type InitRequest = RequestOf<"inventory" | "workspace" | "update" | "force">;

const SCHEMA_FILE = "inventory.schema.json";

export async function init(
  request: InitRequest,
  _positionals: string[] = [],
  write = stdoutWriter,
): Promise<number> {
  if (request.update && request.force)
    throw new UsageError("--update adds to the inventory and --force replaces it: give one");
  const workspace = path.resolve(request.workspace);
  const file = path.resolve(workspace, request.inventory);
  const shown = printable(path.relative(process.cwd(), file) || file);
  const draft = await draftSubjects(workspace);
  if (request.update) {
    const text = await readUserFile(
      file,
      "the inventory",
      "run `docker-acceptance init` without --update to write one",
    );
    const plan = planUpdate(file, text, draft, workspace);
    if (plan.text !== text) await writeFile(file, plan.text);
    write(
      plan.insertions.length === 0
        ? `${shown}: pins every current case and declares every subject found: nothing to add\n`
        : `${shown}: added\n${plan.summary}`,
    );
  } else {
    if (existsSync(file) && !request.force) {
      throw new ConfigError(
        [
          {
            path: "",
            message: "exists already; init never replaces an inventory",
            fix: "run `docker-acceptance init --update` to add what it lacks, or `init --force` to replace it",
          },
        ],
        file,
      );
    }
    if (draft.subjects.length === 0) {
      throw new ConfigError(
        [
          {
            path: "",
            message: `found no Dockerfile (nor a compose service with a build) in ${workspace}`,
            fix: "run init at the repository's root, or pass --workspace DIR",
          },
        ],
        file,
      );
    }
    const text = `${formatJson(draftInventory(draft, `./${SCHEMA_FILE}`))}\n`;
    parseInventory(file, text, { workspace }); // never write an inventory that would not load
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    write(summary(shown, draft));
  }
  write(await schemaBeside(file, { create: !request.update, replace: request.force }));
  for (const note of draft.notes) write(`note: ${printable(note)}\n`);
  if (!request.update)
    write(
      `next: docker-acceptance run${request.inventory === "acceptance/inventory.json" ? "" : ` --inventory ${printable(request.inventory)}`}\n`,
    );
  return 0;
}

function stdoutWriter(text: string): void {
  process.stdout.write(text);
}

function summary(shown: string, draft: Draft): string {
  const lines = [`wrote ${shown}: ${draft.subjects.length} subject(s), every current case pinned`];
  for (const s of draft.subjects) lines.push(`  ${s.name}: ${printable(String(s.description))}`);
  return `${lines.join("\n")}\n`;
}

/** The JSON Schema a new inventory's "$schema" names, written beside it unless one is there. */
async function schemaBeside(file: string, may: { create: boolean; replace: boolean }): Promise<string> {
  const schemaFile = path.join(path.dirname(file), SCHEMA_FILE);
  const shown = printable(path.relative(process.cwd(), schemaFile) || schemaFile);
  const text = schemaText("inventory");
  const current = await readFile(schemaFile, "utf8").catch(() => undefined);
  if (current === text || (current === undefined && !may.create)) return "";
  if (current === undefined || may.replace) {
    await writeFile(schemaFile, text);
    return `wrote ${shown} (the JSON Schema "$schema" names, for editors)\n`;
  }
  return `note: ${shown} is not this version's schema; \`docker-acceptance schema > ${shown}\` refreshes it\n`;
}
