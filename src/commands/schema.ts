// `docker-acceptance schema [--report]`: the JSON Schema of the inventory (or of report.json),
// generated from the zod schemas, so the committed acceptance/*.schema.json files cannot drift.
import * as z from "zod";
import { UsageError } from "../errors.js";
import { inventorySchema } from "../inventory/schema.js";
import { reportSchema } from "../report/model.js";
import { parseCommandArgs } from "./verify.js";

export const SCHEMA_USAGE = "usage: docker-acceptance schema [--report]";

/** The JSON Schema text: draft-07 (what most editors complete against), stable key order, newline-terminated. */
export function schemaText(which: "inventory" | "report"): string {
  const schema = z.toJSONSchema(which === "inventory" ? inventorySchema : reportSchema, {
    target: "draft-7",
    // What a person writes: defaulted fields are optional.
    io: "input",
    unrepresentable: "any",
  });
  const title = which === "inventory" ? "docker-acceptance inventory" : "docker-acceptance report";
  const { $schema, ...rest } = schema;
  return `${JSON.stringify({ $schema, title, ...rest }, null, 2)}\n`;
}

export async function schemaCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, SCHEMA_USAGE, { report: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}\n${SCHEMA_USAGE}`);
  process.stdout.write(schemaText(values.report ? "report" : "inventory"));
  return 0;
}
