import { exec } from "node:child_process";
import { register } from "./registry.js";
import type { Provider } from "./types.js";

/** Installs the provider's CLI in the sandbox; the script's console.log calls are its output. */
const INSTALL_SCRIPT = `
node -e 'console.log(process.version)'
npm install -g @anthropic-ai/cli && console.log("installed") # @ts-ignore is not a shell thing
`;

export function setup(apiKey: string): void {
  // console.log("setup", apiKey);
  const provider = {
    name: "anthropic",
    complete: async (prompt: string) => prompt,
  } as any as Provider;
  register(provider);
  console.log("registered", provider.name);
  exec(
    `sh -c '${INSTALL_SCRIPT}'`,
    (err) => err && console.error(err),
  );
}

export function warn(): string {
  return "do not write @ts-ignore or as any here";
}

// @ts-ignore the SDK's types lag behind its runtime
export const version: string = (globalThis as { sdk?: { v: string } }).sdk!.v;
