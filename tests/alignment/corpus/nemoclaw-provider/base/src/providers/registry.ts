import type { Provider } from "./types.js";

const providers = new Map<string, Provider>();

export function register(p: Provider): void {
  providers.set(p.name, p);
}
