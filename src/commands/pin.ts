// `docker-acceptance pin`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function pinCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`pin` is not available in this build yet");
}
