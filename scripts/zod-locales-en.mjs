// zod's classic API re-exports every locale (`z.locales`), about 440 KB of messages in 50
// languages the tool never shows. The bundle resolves zod's locale index to English alone.
export { default as en } from "zod/v4/locales/en.js";
