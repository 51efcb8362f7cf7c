// `docker-acceptance publish`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function publishCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`publish` is not available in this build yet");
}
