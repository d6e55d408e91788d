import { chromium } from 'playwright-core';
const B = 'http://localhost:3200';
const BM = 'daafce4e-ebee-49a4-ac11-2e910235a50c', AM = 'd3937708-d29a-4033-9896-21e50d394ed0';
const plan = [
  ['kieran-walsh', [['home', '/home'], ['mixer-held', `/mixers/${BM}`], ['profile', '/profile']]],
  ['maya-okafor', [['home', '/home'], ['after', `/mixers/${AM}/after`], ['settings', '/settings'], ['admin-formation', '/admin/formation']]],
  ['priya-sharma', [['mixer-joined', `/mixers/${BM}`]]],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const errors = [];
for (const [who, pages] of plan) {
  for (const width of [1280, 375]) {
    const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 } });
    const r = await ctx.request.post(`${B}/api/auth/login`, { headers: { Origin: B }, data: { email: `${who}@demo.fancy.test`, password: 'mixer-demo-2026' } });
    if (!r.ok()) console.log('login fail', who, r.status());
    const page = await ctx.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${who} ${width} ${page.url()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${who} ${width} PAGEERROR ${e.message}`));
    for (const [name, path] of pages) {
      await page.goto(B + path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(700);
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      if (sw > width) console.log('HORIZONTAL OVERFLOW', who, name, width, sw);
      await page.screenshot({ path: `/tmp/shots/qa/${who}-${name}-${width}.png`, fullPage: true });
    }
    await ctx.close();
  }
}
console.log(errors.join('\n'));
await browser.close();
