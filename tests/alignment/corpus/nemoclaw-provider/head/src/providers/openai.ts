import { register } from "./registry.js";

export function setup(): void {
  console.log("provider ready: openai"); // alignment: allow (start-up banner the operators grep for)
  register({ name: "openai", complete: async (p) => p });
  console.debug("registered openai"); // alignment: allow
}
