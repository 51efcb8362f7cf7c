// `docker-acceptance align`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function alignCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`align` is not available in this build yet");
}
