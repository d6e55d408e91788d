/**
 * zod compiles object schemas with `new Function` when it can, and probes for that once; our CSP
 * (script-src 'self', no 'unsafe-eval') refuses it, and the browser reports the refusal as a
 * security issue on every page. zod reads this when it makes an object schema, so main.tsx
 * imports it first (and a member page's starter sets it before any chunk runs, decision 029): the
 * client's zod validates without the probe (its forms are small). Set on the object zod keeps, in
 * case zod was loaded first.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
