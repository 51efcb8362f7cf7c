// The inventory names environment variables in two fields: build secrets (`build.secrets`, id ->
// variable) and a prebuilt image's ID pin (`imageId: "env:NAME"`). The runner's environment holds
// the job's credentials, so those names must come from a maintainer: the base's inventory in a
// pull request (base.ts takes both fields from it), or the checkout's own outside one. When the
// inventory can only be read from the pull request itself, nothing is read from the environment.
// A value read is never quoted anywhere; a secret is registered so every output masks it.
import { registerSecret } from "../errors.js";

/** Whether the inventory's references to the environment are read, and why not. */
export type EnvironmentAccess = { read: true } | { read: false; why: string };

export const READ_ENVIRONMENT: EnvironmentAccess = { read: true };

type EnvValue = { value: string } | { unset: true } | { refused: string };

/**
 * A build secret's value from the variable the (maintainer's) inventory names, registered as a
 * secret for the rest of the run before anything can print it.
 */
export function readSecret(access: EnvironmentAccess, variable: string): EnvValue {
  if (!access.read) return { refused: access.why };
  if (!secretIsSet(variable)) return { unset: true };
  const value = process.env[variable]!;
  registerSecret(value);
  return { value };
}

/**
 * Whether a build secret's variable is set (an empty value is a value, as for the build), looked
 * at without reading it: the load-time check (secrets.ts) and the build agree on "unset".
 */
export function secretIsSet(variable: string): boolean {
  return process.env[variable] !== undefined;
}

/** An image ID pin from the environment: only a `sha256:` digest is ever handed back. */
export function readImageIdPin(access: EnvironmentAccess, variable: string): EnvValue | { invalid: true } {
  if (!access.read) return { refused: access.why };
  const value = process.env[variable]?.trim();
  if (!value) return { unset: true };
  // Anything else is not shown: the variable may hold something other than an ID.
  return /^sha256:[0-9a-f]{64}$/.test(value) ? { value } : { invalid: true };
}
