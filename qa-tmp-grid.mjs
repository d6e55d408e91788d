import { chromium } from 'playwright-core';
const B = 'http://localhost:3200';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const errors = [];
async function ctxFor(who, width) {
  const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 } });
  await ctx.request.post(`${B}/api/auth/login`, { headers: { Origin: B }, data: { email: `${who}@demo.fancy.test`, password: 'mixer-demo-2026' } });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${who} ${width} ${page.url()}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${who} ${width} PAGEERROR ${e.message}`));
  return { ctx, page };
}
for (const width of [1280, 375]) {
  let { ctx, page } = await ctxFor('gareth-hughes', width);
  await page.goto(B + '/home', { waitUntil: 'networkidle' }); await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots/qa/gareth-home-${width}.png`, fullPage: true });
  await page.goto(B + '/profile', { waitUntil: 'networkidle' }); await page.waitForTimeout(500);
  const sec = page.getByRole('heading', { name: /When you.re free/i });
  console.log('free heading', await sec.count());
  const region = page.locator('section, div').filter({ has: sec }).last();
  const edit = region.getByRole('button', { name: /edit/i }).first();
  if (await edit.count()) { await edit.click(); await page.waitForTimeout(500); }
  await page.screenshot({ path: `/tmp/shots/qa/gareth-profile-edit-${width}.png`, fullPage: true });
  // keyboard: tab 60 times, log focused elements
  const seen = [];
  for (let i = 0; i < 70; i++) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => { const e = document.activeElement; return e ? `${e.tagName}:${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30)}` : 'none'; }));
  }
  console.log(width, 'TAB ORDER', seen.join(' | '));
  await ctx.close();
  ({ ctx, page } = await ctxFor('kieran-walsh', width));
  await page.goto(B + '/home', { waitUntil: 'networkidle' }); await page.waitForTimeout(500);
  const acc = page.getByRole('button', { name: /^Accept$/ }).first();
  if (await acc.count()) { await acc.click(); await page.waitForTimeout(1200); }
  await page.screenshot({ path: `/tmp/shots/qa/kieran-home-unfit-accept-${width}.png`, fullPage: true });
  const see = page.getByRole('link', { name: /See the mixer/ }).first();
  if (await see.count()) { await see.click(); await page.waitForTimeout(1200); }
  await page.screenshot({ path: `/tmp/shots/qa/kieran-mixer-unfit-${width}.png`, fullPage: true });
  await ctx.close();
  ({ ctx, page } = await ctxFor('maya-okafor', width));
  await page.goto(B + '/profile', { waitUntil: 'networkidle' }); await page.waitForTimeout(500);
  console.log('maya reliability text on profile:', await page.getByText(/lovely to have you|You came to/).count());
  await page.goto(B + '/settings', { waitUntil: 'networkidle' }); await page.waitForTimeout(500);
  const notif = page.getByText(/Invitations|After a mixer/).first();
  if (await notif.count()) await notif.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/qa/maya-settings-notif-${width}.png` });
  await ctx.close();
}
console.log(errors.join('\n'));
await browser.close();
