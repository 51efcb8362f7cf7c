// How this action is written wherever people copy it from (README.md, docs/workflows/): one
// placeholder for the release they adopt, explained once in the README's Install section.
export const THIS_ACTION = "docker-acceptance/docker-acceptance";
export const RELEASE_PLACEHOLDER = `${THIS_ACTION}@${"0".repeat(40)} # vX.Y.Z`;

/** Each `uses:` in YAML text, with the comment on its line: `owner/name@ref # comment`. */
export function usesLines(yamlText: string): string[] {
  return [...yamlText.matchAll(/^\s*(?:- )?uses:\s*(\S+)(?:[ \t]+(#.*?))?[ \t]*$/gm)].map((m) =>
    m[2] ? `${m[1]} ${m[2]}` : m[1]!,
  );
}

/** The YAML code blocks of a markdown text, joined. */
export function yamlBlocks(markdown: string): string {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join("\n");
}
