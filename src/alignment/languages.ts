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

/** What a character is. */
export const CODE = 0;
export const COMMENT = 1;
export const STRING = 2;
/** A string's quotes (and prefix, `f"`): a code match may start there (`"sh", "-c"`); strings rules do not see them. */
const DELIMITER = 3;
/**
 * Both code and a string: a YAML value (quoted, plain or block scalar) is configuration
 * (`network_mode: "host"` is `network_mode: host`, a workflow's `run: |` script is what runs), and
 * so are the arguments of a Dockerfile's exec-form `CMD ["sh", "-c", "..."]`.
 */
export const VALUE = 4;
type CharClass = typeof CODE | typeof COMMENT | typeof STRING | typeof DELIMITER | typeof VALUE;

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

function classOf(token: Prism.Token, inherited: CharClass, language: Language): CharClass {
  // An interpolation (`${x}`, f"{x}") is code again, inside a string; so is a shell's `$(cmd)`,
  // `` `cmd` `` or `$VAR` inside double quotes (`OUT="$(docker run --privileged x)"` runs it).
  if (token.type === "interpolation") return CODE;
  if (language === "bash" && token.type === "variable" && inherited === STRING) return CODE;
  const aliases = token.alias === undefined ? [] : Array.isArray(token.alias) ? token.alias : [token.alias];
  const names = [token.type, ...aliases];
  if (names.some((n) => COMMENT_TYPES.has(n))) return COMMENT;
  if (language === "yaml") return YAML_SYNTAX.has(token.type) ? CODE : VALUE;
  if (names.some((n) => STRING_TYPES.has(n))) return STRING;
  return inherited;
}

/** YAML's own syntax; every other token (strings, block scalars, numbers, booleans) is a value. */
const YAML_SYNTAX = new Set(["key", "punctuation", "directive", "tag", "important"]);

/** Commands whose heredoc is a script they run. */
const HEREDOC_RUNNERS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ssh"]);

const EXEC_FORM = /^(?:RUN|CMD|ENTRYPOINT|SHELL|HEALTHCHECK)$/i;

/** `CMD ["sh", "-c", "..."]`: an instruction running a command whose arguments follow as a JSON array. */
function isExecForm(instruction: Prism.Token): boolean {
  const parts = Array.isArray(instruction.content) ? instruction.content : [instruction.content];
  const [keyword, rest] = parts;
  const word = typeof keyword === "string" ? "" : String(keyword?.content ?? "");
  if (!EXEC_FORM.test(word)) return false;
  // HEALTHCHECK [OPTIONS] CMD [...]: the array follows its CMD.
  const after = parts.slice(1).map((p) => (typeof p === "string" ? p : String(p.content)));
  return typeof rest === "string" ? /^\s*(?:(?:--\S+\s+)*CMD\s*)?\[/.test(after.join("")) : false;
}

/** One class per UTF-16 unit of `text`. Prism's tokens always add up to the whole text. */
export function classify(text: string, language: Language): Uint8Array {
  // YAML text outside any token is a plain scalar value (or the space around one).
  const plain: CharClass = language === "yaml" ? VALUE : CODE;
  const classes = new TokenClasses(text.length, language);
  classes.walk(Prism.tokenize(text, Prism.languages[language]!), plain);
  return classes.out;
}

/** Prism's token stream walked in order, each unit of text given the class of the token holding it. */
class TokenClasses {
  readonly out: Uint8Array;
  private at = 0;
  /**
   * Inside a Dockerfile's exec-form RUN/CMD/ENTRYPOINT (`CMD ["sh", "-c", "curl x | sh"]`) the
   * strings are the command: code sees them, as it sees YAML values.
   */
  private execForm = false;

  constructor(
    length: number,
    private readonly language: Language,
  ) {
    this.out = new Uint8Array(length);
  }

  walk(stream: Prism.TokenStream, cls: CharClass): void {
    if (typeof stream === "string") {
      if (cls !== CODE) this.out.fill(cls, this.at, this.at + stream.length);
      this.at += stream.length;
      return;
    }
    if (Array.isArray(stream)) {
      if (this.language === "bash") this.walkShell(stream as (string | Prism.Token)[], cls);
      else for (const s of stream) this.walk(s, cls);
      return;
    }
    if (this.language === "docker" && stream.type === "instruction") {
      this.execForm = isExecForm(stream);
      this.walk(stream.content, cls);
      this.execForm = false;
      return;
    }
    const kind = classOf(stream, cls, this.language);
    const own = this.execForm && kind === STRING ? VALUE : kind;
    if (stream.type === "template-punctuation") {
      this.out.fill(DELIMITER, this.at, this.at + String(stream.content).length);
      this.at += String(stream.content).length;
      return;
    }
    const from = this.at;
    this.walk(stream.content, own);
    if (own === STRING && cls !== STRING && typeof stream.content === "string")
      this.markQuotes(stream.content, from);
  }

  /**
   * A heredoc fed to a shell (`bash <<EOF`, `ssh host <<'EOF'`) is a script that runs: code. Fed
   * to anything else (`cat <<EOF > file`) it is text.
   */
  private walkShell(stream: (string | Prism.Token)[], cls: CharClass): void {
    let command = "";
    let heredoc = false;
    for (const s of stream) {
      if (typeof s !== "string" && s.type === "function") command = String(s.content);
      if (typeof s !== "string" && s.type === "string" && heredoc && HEREDOC_RUNNERS.has(command)) {
        this.walk(s.content, cls);
      } else this.walk(s, cls);
      if (typeof s !== "string") heredoc = s.type === "operator" && /^<<-?$/.test(String(s.content));
      else if (s.trim() !== "") heredoc = false;
    }
  }

  private markQuotes(text: string, from: number): void {
    const open = /^[A-Za-z]{0,2}(["'`]{1,3})/.exec(text);
    const close = /(["'`]{1,3})$/.exec(text);
    if (!open || !close || text.length < 2) return;
    this.out.fill(DELIMITER, from, from + open[0].length);
    this.out.fill(DELIMITER, from + text.length - close[1]!.length, from + text.length);
  }
}

/** Which classes a target sees: code sees everything but comments (string literals too, see startsInCode). */
export function seenBy(
  keep: typeof CODE | typeof COMMENT | typeof STRING,
): (c: number | undefined) => boolean {
  if (keep === CODE) return (c) => c !== COMMENT;
  if (keep === STRING) return (c) => c === STRING || c === VALUE;
  return (c) => c === COMMENT;
}

/**
 * A code rule's match counts when it starts in code: its first letter or digit is code (or a
 * VALUE, or a string's prefix). It may go on into a string literal (`exec.Command("sh", "-c"` is seen), never into a
 * comment (blanked); `print(` inside a string starts there and does not count.
 */
export function startsInCode(text: string, classes: Uint8Array, start: number, length: number): boolean {
  let i = start;
  while (i < start + length && !/[\p{L}\p{N}_]/u.test(text[i]!)) i++;
  const c = classes[i < start + length ? i : start];
  return c === CODE || c === VALUE || c === DELIMITER;
}

/** `text` with every character the target does not see blanked (newlines stay, so lines keep their numbers). */
export function maskText(
  text: string,
  classes: Uint8Array,
  kept: (c: number | undefined) => boolean,
): string {
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    if (kept(classes[i]) || text.charCodeAt(i) === 10) {
      i++;
      continue;
    }
    out += text.slice(from, i);
    let j = i;
    while (j < text.length && !kept(classes[j]) && text.charCodeAt(j) !== 10) j++;
    out += " ".repeat(j - i);
    from = i = j;
  }
  return out + text.slice(from);
}
