// `docker-acceptance merge`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function mergeCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`merge` is not available in this build yet");
}
