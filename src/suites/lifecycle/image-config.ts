// The image as it will run: every runtime field of its configuration, and for each where the value
// the subject runs with comes from (the inventory, the image, or the engine's default when neither
// says). A plain run on any engine, and compose, take USER, ENTRYPOINT, CMD, WORKDIR, ENV,
// STOPSIGNAL, HEALTHCHECK, EXPOSE and VOLUME from the image; the launch does too, unless the
// inventory says otherwise, and lifecycle.create reports the whole table.
import { posix } from "node:path";
import type { ImageView } from "../../engine/provider.js";
import { signalName } from "../../engine/signals.js";
import type { Subject } from "../../inventory/schema.js";

/** What the image itself says about how it runs (its config, read by inspect before create). */
export type ImageConfig = Partial<
  Pick<
    ImageView,
    | "user"
    | "volumes"
    | "entrypoint"
    | "cmd"
    | "workingDir"
    | "envNames"
    | "stopSignal"
    | "exposedPorts"
    | "healthcheck"
  >
> & {
  /** The user as numbers, when it was given by name and resolved in the image's /etc/passwd. */
  ids?: { uid: number; gid?: number };
};

type ConfigSource = "inventory" | "image" | "engine default";

interface RuntimeField {
  value: string;
  from: ConfigSource;
}

/** Each runtime field the subject runs with, and where it comes from (env: names only). */
export interface RuntimeConfig {
  user: RuntimeField;
  entrypoint: RuntimeField;
  command: RuntimeField;
  workingDir: RuntimeField;
  env: Record<string, ConfigSource>;
  stopSignal: RuntimeField;
  healthcheck: RuntimeField;
  port: RuntimeField;
  volumes: Record<string, string>;
  /** Image ENV names and VOLUME paths past SHOWN_ITEMS each: counted, not listed. */
  omitted?: { env?: number; volumes?: number };
}

/** The signal the engine sends to stop the subject: the image's STOPSIGNAL, else SIGTERM. */
export const ENGINE_STOP_SIGNAL = "SIGTERM";

// The image's config is the pull request's text, and an image can hold a great deal of it
// (`EXPOSE 1-65535` is 65,535 ports: 740 KB of report.json): each field is shown to a bound.
const SHOWN_ITEMS = 64;
const SHOWN_CHARS = 2048;

function clip(text: string): string {
  return text.length <= SHOWN_CHARS
    ? text
    : `${text.slice(0, SHOWN_CHARS)}… (${text.length - SHOWN_CHARS} more characters)`;
}

function someOf(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN_ITEMS).join(", ");
  return clip(items.length > SHOWN_ITEMS ? `${shown} and ${items.length - SHOWN_ITEMS} more` : shown);
}

const argv = (words: readonly string[]) => clip(JSON.stringify(words));

/**
 * What a plain run makes of an image's VOLUME. The engine matches it to a tmpfs at the same path
 * (an allotted root) as written, so a relative path (`../../tmp`) is never matched: its anonymous
 * volume is mounted where the runtime resolves it, over or under the launch's own mount there.
 */
function volumeFate(volume: string, writableRoots: readonly string[]): string {
  if (writableRoots.includes(volume)) return "an allotted writable root (a tmpfs over the VOLUME)";
  if (volume.startsWith("/")) return "the engine's anonymous volume (not allotted: containment.mounts)";
  return `the engine's anonymous volume at ${clip(posix.resolve("/", volume))} (a relative path: not matched to an allotted root, mounted over or under what the launch mounts there: containment.mounts, containment.writable_roots)`;
}

export function runtimeConfig(subject: Subject, image: ImageConfig): RuntimeConfig {
  const imageSignal = image.stopSignal?.trim();
  const env: Record<string, ConfigSource> = {};
  const imageEnv = image.envNames ?? [];
  for (const name of imageEnv.slice(0, SHOWN_ITEMS)) env[clip(name)] = "image";
  for (const name of Object.keys(subject.env)) env[name] = "inventory";
  const exposed = image.exposedPorts ?? [];
  const imageVolumes = image.volumes ?? [];
  const volumes: Record<string, string> = {};
  for (const v of imageVolumes.slice(0, SHOWN_ITEMS)) volumes[clip(v)] = volumeFate(v, subject.writableRoots);
  const omitted = {
    ...(imageEnv.length > SHOWN_ITEMS ? { env: imageEnv.length - SHOWN_ITEMS } : {}),
    ...(imageVolumes.length > SHOWN_ITEMS ? { volumes: imageVolumes.length - SHOWN_ITEMS } : {}),
  };
  return {
    user:
      subject.user !== undefined
        ? { value: subject.user, from: "inventory" }
        : image.user
          ? { value: clip(image.user), from: "image" }
          : { value: "root (the image has no USER)", from: "engine default" },
    entrypoint: image.entrypoint?.length
      ? { value: argv(image.entrypoint), from: "image" }
      : { value: "none", from: "engine default" },
    command: subject.command
      ? { value: argv(subject.command), from: "inventory" }
      : image.cmd?.length
        ? { value: argv(image.cmd), from: "image" }
        : { value: "none", from: "engine default" },
    workingDir: image.workingDir
      ? { value: clip(image.workingDir), from: "image" }
      : { value: "/", from: "engine default" },
    env,
    stopSignal: imageSignal
      ? { value: signalName(imageSignal) ?? imageSignal, from: "image" }
      : { value: ENGINE_STOP_SIGNAL, from: "engine default" },
    healthcheck: image.healthcheck
      ? { value: argv(image.healthcheck.test), from: "image" }
      : { value: "none", from: "engine default" },
    port: {
      value: `${subject.port}/tcp${exposed.length ? ` (the image exposes ${someOf(exposed)})` : ""}`,
      from: "inventory",
    },
    volumes,
    ...(Object.keys(omitted).length ? { omitted } : {}),
  };
}
