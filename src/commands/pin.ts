// `docker-acceptance pin [--inventory PATH] [--workspace DIR]`: rewrites the inventory's artifact
// digests from the workspace, for a maintainer who changed a pinned file on purpose.
import { pinArtifacts } from "../inventory/hashes.js";
import type { RequestOf } from "../request/parse.js";
import { printable } from "./verify.js";

/** What `pin` takes: its flags, parsed into the one request. */
type PinRequest = RequestOf<"inventory" | "workspace">;

export async function pin(request: PinRequest): Promise<number> {
  const file = request.inventory;
  const changes = await pinArtifacts(file, request.workspace);
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
