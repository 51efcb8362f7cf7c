// `docker-acceptance pin [--inventory PATH] [--workspace DIR]`: rewrites the inventory's artifact
// digests from the workspace, for a maintainer who changed a pinned file on purpose.
import { UsageError } from "../errors.js";
import { pinArtifacts } from "../inventory/hashes.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import { parseCommandArgs, printable } from "./verify.js";

export const PIN_USAGE = "usage: docker-acceptance pin [--inventory PATH] [--workspace DIR]";

export async function pinCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, PIN_USAGE, {
    inventory: { type: "string", default: DEFAULT_INVENTORY_PATH },
    workspace: { type: "string", default: "." },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}\n${PIN_USAGE}`);
  const file = values.inventory;
  const changes = await pinArtifacts(file, values.workspace);
  const changed = changes.filter((c) => c.changed);
  for (const c of changes) {
    process.stdout.write(
      c.changed
        ? `pinned    ${printable(c.path)}  ${c.after} (was ${printable(c.before) || "empty"})\n`
        : `unchanged ${printable(c.path)}  ${c.after}\n`,
    );
  }
  process.stdout.write(
    changed.length > 0
      ? `${file}: rewrote ${changed.length} of ${changes.length} pins\n`
      : `${file}: all ${changes.length} pins already match\n`,
  );
  return 0;
}
