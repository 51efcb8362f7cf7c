// `docker-acceptance verify`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function verifyCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`verify` is not available in this build yet");
}
