import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface A11yViolation {
  id: string;
  impact: Impact | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

export interface A11yOptions {
  /** Impacts that count as failures; serious and critical unless given. */
  impacts?: Impact[];
  /** Rule ids to switch off (say why in the calling test). */
  disableRules?: string[];
  /** Rule ids axe leaves off by default to switch on, e.g. `label-content-name-mismatch` (WCAG 2.5.3, experimental in axe). */
  enableRules?: string[];
  /** CSS selectors of elements to leave out (say why in the calling test). */
  exclude?: string[];
}

/**
 * Injects axe-core into the page (once) and returns its violations of the given impacts.
 * The app's Content-Security-Policy refuses inline scripts, so when the script tag is
 * blocked the same file is evaluated through the DevTools protocol instead.
 */
export async function axeViolations(page: Page, opts: A11yOptions = {}): Promise<A11yViolation[]> {
  const impacts = opts.impacts ?? ['serious', 'critical'];
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: AXE_PATH }).catch(() => undefined);
    if (!(await page.evaluate(() => 'axe' in window))) {
      axeSource ??= readFileSync(AXE_PATH, 'utf8');
      await page.evaluate(axeSource);
    }
  }
  const rules = Object.fromEntries([
    ...(opts.enableRules ?? []).map((id) => [id, { enabled: true }]),
    ...(opts.disableRules ?? []).map((id) => [id, { enabled: false }]),
  ]);
  const violations = await page.evaluate(
    async ({ runRules, exclude }) => {
      const axe = (window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: A11yViolation[] }> } }).axe;
      const context = exclude.length ? { include: [['html']], exclude: exclude.map((sel) => [sel]) } : document;
      const result = await axe.run(context, { resultTypes: ['violations'], rules: runRules });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html, failureSummary: n.failureSummary })),
      }));
    },
    { runRules: rules, exclude: opts.exclude ?? [] },
  );
  return violations.filter((v) => v.impact && impacts.includes(v.impact));
}

/** A readable list of violations for an assertion message or a report. */
export function describeViolations(violations: A11yViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `    - ${n.target.join(' ')}: ${n.html.slice(0, 160)}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, ' ')}` : ''}`,
        )
        .join('\n');
      const more = v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : '';
      return `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
}

/**
 * Fails when axe-core finds serious or critical accessibility violations on the page as it
 * is now. Wait for the content you want checked before calling it.
 */
export async function checkA11y(page: Page, opts: A11yOptions = {}): Promise<void> {
  const violations = await axeViolations(page, opts);
  if (violations.length) {
    throw new Error(`Accessibility violations on ${page.url()}:\n${describeViolations(violations)}`);
  }
}
