// The engine surface suites, commands and the pipeline use: the public methods of the Docker API
// adapter, without its dockerode client. Every provider offers exactly this (docs/providers.md).
import type { DockerEngine, EngineFacts } from "./providers/docker/engine.js";

export type Engine = Omit<DockerEngine, "docker">;
export type { EngineFacts };
