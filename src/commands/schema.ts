// `docker-acceptance schema [--report]`: the JSON Schema of the inventory (or of report.json),
// generated from the zod schemas, so the committed acceptance/*.schema.json files cannot drift.
import * as z from "zod";
import { inventorySchema } from "../inventory/schema.js";
import { reportSchema } from "../report/model.js";
import type { RequestOf } from "../request/parse.js";

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

/** What `schema` takes: its flag, parsed into the one request. */
type SchemaRequest = RequestOf<"reportSchema">;

export async function schema(request: SchemaRequest): Promise<number> {
  process.stdout.write(schemaText(request.reportSchema ? "report" : "inventory"));
  return 0;
}
