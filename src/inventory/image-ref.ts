// An image reference as the engine parses it (the distribution project's grammar), checked when the
// inventory loads, so a malformed `image` is an error naming the field and the fix rather than a
// late refusal from the engine. The pull request writes it: its length is bounded before any match,
// and each pattern below is linear or, on a bounded label, at worst quadratic.

/** Docker's limit on a repository name, plus a tag and a digest. */
export const MAX_REFERENCE = 255 + 129 + 72;

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const HOST_LABEL = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;
const IPV6 = /^\[[0-9a-fA-F:.]+\]$/;
const TAG = /^\w[\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;
const IMAGE_ID = /^sha256:[0-9a-f]{64}$/;

/** What is wrong with `ref` as an image reference, or undefined when the engine can read it. */
export function referenceProblem(ref: string): string | undefined {
  if (ref.length > MAX_REFERENCE)
    return `is ${ref.length} characters; a reference has at most ${MAX_REFERENCE}`;
  if (IMAGE_ID.test(ref)) return undefined;
  const at = ref.indexOf("@");
  const digest = at >= 0 ? ref.slice(at + 1) : undefined;
  const named = at >= 0 ? ref.slice(0, at) : ref;
  if (digest !== undefined && !DIGEST.test(digest))
    return `has a digest ${JSON.stringify(digest.slice(0, 80))} that is not algorithm:hex`;
  const slash = named.lastIndexOf("/");
  const colon = named.lastIndexOf(":");
  const tag = colon > slash ? named.slice(colon + 1) : undefined;
  const name = colon > slash ? named.slice(0, colon) : named;
  if (tag !== undefined && !TAG.test(tag))
    return `has a tag ${JSON.stringify(tag.slice(0, 80))}: a tag is letters, digits, '_', '.' or '-', at most 128, not starting with '.' or '-'`;
  if (name.length === 0) return "has no repository name";
  if (name.length > 255) return "has a repository name over 255 characters";
  const parts = name.split("/");
  const first = parts[0]!;
  // As the engine decides: the first part names a registry when it has a '.' or a ':', or is localhost.
  if (parts.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost")) {
    if (!isHost(first))
      return `names a registry ${JSON.stringify(first.slice(0, 80))} that is not host[:port]`;
    parts.shift();
  }
  const bad = parts.find((p) => !COMPONENT.test(p));
  if (bad !== undefined)
    return `has a path component ${JSON.stringify(bad.slice(0, 80))}: lowercase letters and digits, separated by '.', '_', '__' or '-'`;
  return undefined;
}

function isHost(host: string): boolean {
  const colon = host.startsWith("[") ? host.indexOf("]:") + 1 : host.lastIndexOf(":");
  const [name, port] = colon > 0 ? [host.slice(0, colon), host.slice(colon + 1)] : [host, undefined];
  if (port !== undefined && !/^[0-9]{1,5}$/.test(port)) return false;
  return IPV6.test(name) || name.split(".").every((l) => HOST_LABEL.test(l));
}
