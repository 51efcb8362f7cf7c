// A small JSON reader that remembers where every value sits in the text. JSON.parse forgets
// positions and silently keeps the last of two duplicate keys; we need positions for error lines,
// for the line of an artifact pin, and for `pin`'s in-place edit that preserves the file's layout.

export type JsonPath = (string | number)[];

export interface Span {
  /** Offsets of the value's text: text.slice(start, end) is its JSON source. */
  start: number;
  end: number;
  /** 1-based line of the value, or of its key when it has one (where a reader looks). */
  line: number;
}

export interface LocatedJson {
  value: unknown;
  /** jsonPath(path) -> span, for every value in the document. */
  spans: Map<string, Span>;
  duplicates: { path: JsonPath; line: number; firstLine: number }[];
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

/** A document nested deeper than the reader accepts: refused where the limit was crossed. */
export class JsonDepthError extends JsonSyntaxError {
  constructor(
    readonly maxDepth: number,
    line: number,
    column: number,
  ) {
    super(`nested deeper than ${maxDepth} levels of arrays and objects`, line, column);
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `subjects[0].build.context`; keys that are not identifiers are quoted: `severity["lifecycle.build"]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENT.test(String(seg))) out += out ? `.${String(seg)}` : String(seg);
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/**
 * How deep arrays and objects may nest. The reader recurses once per level, so a document nested
 * thousands deep would end in a stack overflow (a crash, not an error naming the line); an
 * inventory needs 7 levels, and 64 leaves room for any hand-written file.
 */
export const JSON_MAX_DEPTH = 64;

export function locateJson(text: string, maxDepth = JSON_MAX_DEPTH): LocatedJson {
  const reader = new Reader(text, maxDepth);
  const value = reader.readValue([]);
  reader.ws();
  if (reader.i < text.length)
    reader.fail(`unexpected ${reader.describe(reader.i)} after the document`, reader.i);
  return { value, spans: reader.spans, duplicates: reader.duplicates };
}

/** A recursive-descent reader over one text, recording each value's span as it goes. */
class Reader {
  readonly spans = new Map<string, Span>();
  readonly duplicates: LocatedJson["duplicates"] = [];
  /** Line starts, for offset -> line in O(log n). */
  private readonly lineStarts = [0];
  i: number;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) this.lineStarts.push(k + 1);
    this.i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  fail(message: string, at: number): never {
    const line = this.lineOf(at);
    throw new JsonSyntaxError(message, line, at - this.lineStarts[line - 1]! + 1);
  }

  ws(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i]!)) this.i++;
  }

  describe(at: number): string {
    return at >= this.text.length ? "end of file" : JSON.stringify(this.text[at]);
  }

  readValue(path: JsonPath, keyLine?: number): unknown {
    this.ws();
    const start = this.i;
    const c = this.text[this.i];
    // The path's length is the nesting depth: refused before the recursion that would overflow.
    if ((c === "{" || c === "[") && path.length >= this.maxDepth) {
      const line = this.lineOf(start);
      throw new JsonDepthError(this.maxDepth, line, start - this.lineStarts[line - 1]! + 1);
    }
    const value =
      c === "{"
        ? this.readObject(path)
        : c === "["
          ? this.readArray(path)
          : c === '"'
            ? this.readString()
            : this.readScalar();
    this.spans.set(jsonPath(path), { start, end: this.i, line: keyLine ?? this.lineOf(start) });
    return value;
  }

  private readString(): string {
    const { text } = this;
    const start = this.i;
    this.i++; // opening quote
    while (this.i < text.length && text[this.i] !== '"') {
      if (text[this.i] === "\\") this.i++;
      else if (text.charCodeAt(this.i) < 0x20) this.fail("control character in a string", this.i);
      this.i++;
    }
    if (this.i >= text.length) this.fail("unterminated string", start);
    this.i++;
    try {
      return JSON.parse(text.slice(start, this.i)) as string;
    } catch {
      return this.fail("invalid escape in a string", start);
    }
  }

  private readObject(path: JsonPath): Record<string, unknown> {
    const { text } = this;
    this.i++;
    const obj: Record<string, unknown> = {};
    const seen = new Map<string, number>();
    this.ws();
    if (text[this.i] === "}") {
      this.i++;
      return obj;
    }
    for (;;) {
      this.ws();
      if (text[this.i] !== '"')
        this.fail(`expected a double-quoted key, found ${this.describe(this.i)}`, this.i);
      const line = this.lineOf(this.i);
      const key = this.readString();
      this.ws();
      if (text[this.i] !== ":") this.fail(`expected ":" after a key, found ${this.describe(this.i)}`, this.i);
      this.i++;
      const first = seen.get(key);
      if (first !== undefined) this.duplicates.push({ path: [...path, key], line, firstLine: first });
      else seen.set(key, line);
      // Own property even for "__proto__": JSON.parse semantics, no prototype pollution.
      Object.defineProperty(obj, key, {
        value: this.readValue([...path, key], line),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (this.endOf("}")) return obj;
    }
  }

  private readArray(path: JsonPath): unknown[] {
    this.i++;
    const arr: unknown[] = [];
    this.ws();
    if (this.text[this.i] === "]") {
      this.i++;
      return arr;
    }
    for (;;) {
      arr.push(this.readValue([...path, arr.length]));
      if (this.endOf("]")) return arr;
    }
  }

  /** After a member: true past the closing bracket, false past a comma, else a syntax error. */
  private endOf(close: "}" | "]"): boolean {
    this.ws();
    const c = this.text[this.i];
    if (c === "," || c === close) {
      this.i++;
      return c === close;
    }
    return this.fail(`expected "," or "${close}" after a value, found ${this.describe(this.i)}`, this.i);
  }

  private readScalar(): unknown {
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.text.slice(this.i, this.i + 400),
    );
    if (!m) this.fail(`expected a value, found ${this.describe(this.i)}`, this.i);
    this.i += m![0].length;
    return JSON.parse(m![0]);
  }
}

/** The value at `path` in a parsed document (own properties only), or undefined. */
export function valueAt(root: unknown, p: readonly PropertyKey[]): unknown {
  let v = root;
  for (const seg of p) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/** The line of the value at `path`, or of its nearest ancestor the text has. */
export function nearestLine(spans: Map<string, Span>, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const span = spans.get(jsonPath(path.slice(0, n)));
    if (span) return span.line;
  }
  return undefined;
}
