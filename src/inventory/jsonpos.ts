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

export function locateJson(text: string): LocatedJson {
  const spans = new Map<string, Span>();
  const duplicates: LocatedJson["duplicates"] = [];
  // Line starts, for offset -> line in O(log n).
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const fail = (message: string, at: number): never => {
    const line = lineOf(at);
    throw new JsonSyntaxError(message, line, at - lineStarts[line - 1]! + 1);
  };

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const describe = (at: number) => (at >= text.length ? "end of file" : JSON.stringify(text[at]));

  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("control character in a string", i);
      i++;
    }
    if (i >= text.length) fail("unterminated string", start);
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail("invalid escape in a string", start);
    }
  };

  const readValue = (path: JsonPath, keyLine?: number): unknown => {
    ws();
    const start = i;
    let value: unknown;
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Map<string, number>();
      ws();
      if (text[i] === "}") i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') fail(`expected a double-quoted key, found ${describe(i)}`, i);
          const line = lineOf(i);
          const key = readString();
          ws();
          if (text[i] !== ":") fail(`expected ":" after a key, found ${describe(i)}`, i);
          i++;
          const first = seen.get(key);
          if (first !== undefined) duplicates.push({ path: [...path, key], line, firstLine: first });
          else seen.set(key, line);
          // Own property even for "__proto__": JSON.parse semantics, no prototype pollution.
          Object.defineProperty(obj, key, {
            value: readValue([...path, key], line),
            enumerable: true,
            writable: true,
            configurable: true,
          });
          ws();
          if (text[i] === ",") i++;
          else if (text[i] === "}") {
            i++;
            break;
          } else fail(`expected "," or "}" after a value, found ${describe(i)}`, i);
        }
      }
      value = obj;
    } else if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") i++;
      else {
        for (;;) {
          arr.push(readValue([...path, arr.length]));
          ws();
          if (text[i] === ",") i++;
          else if (text[i] === "]") {
            i++;
            break;
          } else fail(`expected "," or "]" after a value, found ${describe(i)}`, i);
        }
      }
      value = arr;
    } else if (c === '"') {
      value = readString();
    } else {
      const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
        text.slice(i, i + 400),
      );
      if (!m) fail(`expected a value, found ${describe(i)}`, i);
      i += m![0].length;
      value = JSON.parse(m![0]);
    }
    spans.set(jsonPath(path), { start, end: i, line: keyLine ?? lineOf(start) });
    return value;
  };

  const value = readValue([]);
  ws();
  if (i < text.length) fail(`unexpected ${describe(i)} after the document`, i);
  return { value, spans, duplicates };
}
