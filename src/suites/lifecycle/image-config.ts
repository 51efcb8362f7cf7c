// The image as it will run: every runtime field of its configuration, and for each where the value
// the subject runs with comes from (the inventory, the image, or the engine's default when neither
// says). A plain run on any engine, and compose, take USER, ENTRYPOINT, CMD, WORKDIR, ENV,
// STOPSIGNAL, HEALTHCHECK, EXPOSE and VOLUME from the image; the launch does too, unless the
// inventory says otherwise, and lifecycle.create reports the whole table.
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

export type ConfigSource = "inventory" | "image" | "engine default";

export interface RuntimeField {
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
}

/** The signal the engine sends to stop the subject: the image's STOPSIGNAL, else SIGTERM. */
export const ENGINE_STOP_SIGNAL = "SIGTERM";

const argv = (words: readonly string[]) => JSON.stringify(words);

export function runtimeConfig(subject: Subject, image: ImageConfig): RuntimeConfig {
  const imageSignal = image.stopSignal?.trim();
  const env: Record<string, ConfigSource> = {};
  for (const name of image.envNames ?? []) env[name] = "image";
  for (const name of Object.keys(subject.env)) env[name] = "inventory";
  const exposed = image.exposedPorts ?? [];
  const volumes: Record<string, string> = {};
  for (const v of image.volumes ?? [])
    volumes[v] = subject.writableRoots.includes(v)
      ? "an allotted writable root (a tmpfs over the VOLUME)"
      : "the engine's anonymous volume (not allotted: containment.mounts)";
  return {
    user:
      subject.user !== undefined
        ? { value: subject.user, from: "inventory" }
        : image.user
          ? { value: image.user, from: "image" }
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
      ? { value: image.workingDir, from: "image" }
      : { value: "/", from: "engine default" },
    env,
    stopSignal: imageSignal
      ? { value: signalName(imageSignal) ?? imageSignal, from: "image" }
      : { value: ENGINE_STOP_SIGNAL, from: "engine default" },
    healthcheck: image.healthcheck
      ? { value: argv(image.healthcheck.test), from: "image" }
      : { value: "none", from: "engine default" },
    port: {
      value: `${subject.port}/tcp${exposed.length ? ` (the image exposes ${exposed.join(", ")})` : ""}`,
      from: "inventory",
    },
    volumes,
  };
}
