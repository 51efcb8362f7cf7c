// Reads and validates the inventory. Every problem names the file, the JSON path, what was
// expected and the fix; nothing here touches the engine.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { type Inventory, inventorySchema } from "./schema.js";

export interface LoadedInventory {
  path: string;
  sha256: string;
  text: string;
  inventory: Inventory;
}

export async function loadInventory(file: string): Promise<LoadedInventory> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new ConfigError(
      [
        {
          path: "",
          message: `cannot read the inventory (${(err as NodeJS.ErrnoException).code ?? "error"})`,
          fix: "create it or pass --inventory PATH",
        },
      ],
      file,
    );
  }
  return parseInventory(file, text);
}

export function parseInventory(file: string, text: string): LoadedInventory {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(
      [{ path: "", message: `not valid JSON: ${(err as Error).message}`, fix: "fix the JSON syntax" }],
      file,
    );
  }
  const parsed = inventorySchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map(toProblem), file);
  return {
    path: file,
    sha256: createHash("sha256").update(text).digest("hex"),
    text,
    inventory: parsed.data,
  };
}

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

function toProblem(issue: z.core.$ZodIssue): ConfigProblem {
  return { path: jsonPath(issue.path), message: issue.message };
}
