/** Types of module-loops.mjs (a plain script, run by `npm run lint:deps`). */
export function domainGraph(): Map<string, Map<string, string>>;
export function loops(graph: Map<string, Map<string, string>>): string[][];
