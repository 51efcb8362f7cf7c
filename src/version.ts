import pkg from "../package.json" with { type: "json" };

export const TOOL_NAME = "docker-acceptance";
export const TOOL_VERSION: string = pkg.version;
