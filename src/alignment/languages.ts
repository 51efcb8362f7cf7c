// Which characters of a source file are code, comment or string, from Prism's tokenizers (a
// maintained library with grammars for every language we name; ~25 KB for these nine). A rule
// that targets code must never fire on `print(` inside a string literal or a comment, and a
// hand-written regex cannot know where a string starts. Loaded only with the alignment chunk.
import Prism from "prismjs";
import "prismjs/components/prism-clike.js";
import "prismjs/components/prism-javascript.js";
import "prismjs/components/prism-typescript.js";
import "prismjs/components/prism-python.js";
import "prismjs/components/prism-go.js";
import "prismjs/components/prism-rust.js";
import "prismjs/components/prism-bash.js";
import "prismjs/components/prism-yaml.js";
import "prismjs/components/prism-docker.js";

export type Language = "python" | "typescript" | "javascript" | "go" | "rust" | "bash" | "yaml" | "docker";
export const LANGUAGES: readonly Language[] = [
  "python",
  "typescript",
  "javascript",
  "go",
  "rust",
  "bash",
  "yaml",
  "docker",
];

/** What a character is. */
export const CODE = 0;
export const COMMENT = 1;
export const STRING = 2;
export type CharClass = typeof CODE | typeof COMMENT | typeof STRING;

const BY_EXTENSION: Record<string, Language> = {
  ".py": "python",
  ".pyi": "python",
  ".pyw": "python",
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".go": "go",
  ".rs": "rust",
  ".sh": "bash",
  ".bash": "bash",
  ".zsh": "bash",
  ".yml": "yaml",
  ".yaml": "yaml",
  ".dockerfile": "docker",
};

/** The language of a file by its name, or undefined (such files are matched line by line). */
export function languageOf(path: string): Language | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const lower = name.toLowerCase();
  if (lower === "dockerfile" || lower.startsWith("dockerfile.") || lower === "containerfile") return "docker";
  const dot = lower.lastIndexOf(".");
  return dot > 0 ? BY_EXTENSION[lower.slice(dot)] : undefined;
}

const COMMENT_TYPES = new Set(["comment", "shebang"]);
const STRING_TYPES = new Set([
  "string",
  "char",
  "template-string",
  "triple-quoted-string",
  "string-interpolation",
  "regex",
  "heredoc-string",
  "raw-string",
  "byte-string",
]);

function classOf(token: Prism.Token, inherited: CharClass): CharClass {
  // An interpolation (`${x}`, f"{x}") is code again, inside a string.
  if (token.type === "interpolation") return CODE;
  const aliases = token.alias === undefined ? [] : Array.isArray(token.alias) ? token.alias : [token.alias];
  const names = [token.type, ...aliases];
  if (names.some((n) => COMMENT_TYPES.has(n))) return COMMENT;
  if (names.some((n) => STRING_TYPES.has(n))) return STRING;
  return inherited;
}

/** One class per UTF-16 unit of `text`. Prism's tokens always add up to the whole text. */
export function classify(text: string, language: Language): Uint8Array {
  const out = new Uint8Array(text.length);
  let at = 0;
  const walk = (stream: Prism.TokenStream, cls: CharClass): void => {
    if (typeof stream === "string") {
      if (cls !== CODE) out.fill(cls, at, at + stream.length);
      at += stream.length;
      return;
    }
    if (Array.isArray(stream)) {
      for (const s of stream) walk(s, cls);
      return;
    }
    walk(stream.content, classOf(stream, cls));
  };
  walk(Prism.tokenize(text, Prism.languages[language]!), CODE);
  return out;
}

/** `text` with every character not of class `keep` blanked (newlines stay, so lines keep their numbers). */
export function maskText(text: string, classes: Uint8Array, keep: CharClass): string {
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    if (classes[i] === keep || text.charCodeAt(i) === 10) {
      i++;
      continue;
    }
    out += text.slice(from, i);
    let j = i;
    while (j < text.length && classes[j] !== keep && text.charCodeAt(j) !== 10) j++;
    out += " ".repeat(j - i);
    from = i = j;
  }
  return out + text.slice(from);
}
