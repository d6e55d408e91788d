/**
 * zod compiles object schemas with `new Function` when it can, and probes for that once; our CSP
 * (script-src 'self', no 'unsafe-eval') refuses it, and the browser reports the refusal as a
 * security issue on every page. zod reads this before any schema is made, so main.tsx imports it
 * first: the client's zod validates without the probe (its forms are small).
 */
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };
