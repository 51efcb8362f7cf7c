// Minimal values from GitHub's OpenAPI schemas: the API double's answers and the webhook payloads
// the bot tests send are both built from the description itself, not shaped by hand.
export type Schema = { [k: string]: unknown };

export interface Sampler {
  /** Follows `#/components/schemas/...` references (a few levels). */
  resolve(schema: Schema | undefined): Schema | undefined;
  /** The smallest value the schema accepts: required fields only, first enum value, null where allowed. */
  sample(schema: Schema | undefined, depth?: number): unknown;
}

export function schemaSampler(schemas: Record<string, Schema>): Sampler {
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    let s = schema;
    for (let i = 0; i < 10 && s && typeof s.$ref === "string"; i++) {
      s = schemas[(s.$ref as string).replace("#/components/schemas/", "")];
    }
    return s;
  };
  const sample = (schema: Schema | undefined, depth = 0): unknown => {
    const s = resolve(schema);
    if (!s || depth > 20) return null;
    if (s.nullable) return null;
    if (Array.isArray(s.enum)) return s.enum[0];
    if (Array.isArray(s.allOf)) {
      const parts = (s.allOf as Schema[]).map((x) => sample(x, depth + 1));
      return Object.assign({}, ...parts.filter((p) => p !== null && typeof p === "object"));
    }
    if (Array.isArray(s.oneOf)) return sample((s.oneOf as Schema[])[0], depth + 1);
    if (Array.isArray(s.anyOf)) return sample((s.anyOf as Schema[])[0], depth + 1);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case "string":
        return s.format === "date-time"
          ? "2025-01-01T00:00:00Z"
          : s.format === "uri"
            ? "https://double.test/x"
            : "x";
      case "integer":
      case "number":
        return 1;
      case "boolean":
        return false;
      case "array":
        return [];
      case "null":
        return null;
      default: {
        const out: Record<string, unknown> = {};
        const props = (s.properties ?? {}) as Record<string, Schema>;
        for (const k of (s.required as string[] | undefined) ?? []) out[k] = sample(props[k], depth + 1);
        return out;
      }
    }
  };
  return { resolve, sample };
}
