// `docker-acceptance schema`: placeholder while the feature lands.
import { UsageError } from "../errors.js";

export async function schemaCommand(_argv: string[]): Promise<number> {
  throw new UsageError("`schema` is not available in this build yet");
}
