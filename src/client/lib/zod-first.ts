import { z } from 'zod';

/**
 * What `loadParser` imports first, so that zod is evaluated in a task of its own. One name, read
 * statically: `import('zod')` itself would be its whole namespace, and the build would then keep
 * every export behind it (64 locales, JSON Schema) in the chunk every member page loads.
 */
export const zodString = z.string;
