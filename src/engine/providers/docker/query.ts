// The tool's owned-objects query as the Docker Engine API's listing filters (Podman's compatible
// API reads the same), and the part of it a filter cannot say exactly, checked on what the engine
// lists. Pure.
import { OWNER_LABEL, ROLE_LABEL, SUBJECT_LABEL } from "../../ownership.js";
import type { ContainerQuery, ImageQuery, LabelMatch, OwnedContainer } from "../../provider.js";

/** Docker's listing filters: key -> values (labels all hold, other keys any one value). */
type DockerFilters = Record<string, string[]>;

function labelsOf(query: ContainerQuery | ImageQuery): string[] {
  const own: LabelMatch[] = [
    ...(query.owner === undefined
      ? []
      : [query.owner === true ? { key: OWNER_LABEL } : { key: OWNER_LABEL, value: query.owner }]),
    ...(query.role ? [{ key: ROLE_LABEL, value: query.role }] : []),
    ...(query.subject ? [{ key: SUBJECT_LABEL, value: query.subject }] : []),
  ];
  return [...own, ...(query.labels ?? [])].map((l) =>
    l.value === undefined ? l.key : `${l.key}=${l.value}`,
  );
}

/** A name's text as the engine's name filter reads it (a regular expression): literally. */
const literally = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");

function filters(entries: [string, string[] | undefined][]): DockerFilters {
  return Object.fromEntries(entries.filter((e): e is [string, string[]] => !!e[1]?.length));
}

export function containerFilters(query: ContainerQuery): DockerFilters {
  return filters([
    ["label", labelsOf(query)],
    ["status", query.status],
    ["name", query.names?.map(literally)],
    // The engines read an ID filter as a part of the ID (Docker) or its beginning (Podman): what
    // the query means, the beginning, is checked on the listing (matchesExactly).
    ["id", query.ids],
  ]);
}

/** What the filters cannot say exactly: an ID's beginning, a name's part (after the engine's own match). */
export function matchesExactly(query: ContainerQuery, container: OwnedContainer): boolean {
  if (query.ids?.length && !query.ids.some((id) => container.id.startsWith(id))) return false;
  if (query.names?.length && !query.names.some((n) => container.names.some((name) => name.includes(n))))
    return false;
  return true;
}

/**
 * Images: a tag as a `reference` (its prefix with the wildcard; neither a tag of ours nor a
 * subject's name holds another wildcard character), labels as for containers.
 */
export function imageFilters(query: ImageQuery): DockerFilters {
  const tag =
    query.tag === undefined ? undefined : typeof query.tag === "string" ? query.tag : `${query.tag.prefix}*`;
  return filters([
    ["label", labelsOf(query)],
    ["reference", tag === undefined ? undefined : [tag]],
  ]);
}
