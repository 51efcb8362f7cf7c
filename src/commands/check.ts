// `docker-acceptance check`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function checkCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`check` is not available in this build yet");
}
