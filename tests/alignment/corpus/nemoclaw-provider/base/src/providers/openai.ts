import { register } from "./registry.js";

export function setup(): void {
  register({ name: "openai", complete: async (p) => p });
  console.log("provider ready: openai"); // alignment: allow (start-up banner the operators grep for)
}
