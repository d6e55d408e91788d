/**
 * Brand files made at build time from the logo (issue 20, decision 021): app icons (192, 512,
 * maskable 512, Apple touch 180), the web app manifest, the 1200×630 link-preview image and
 * the service worker stamped with this build's id (so a new deploy replaces the old worker and
 * its caches). Called by the Vite build (vite.config.ts) before the output is pre-compressed.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/** Design tokens (src/client/styles.css, light theme). */
export const BRAND = { primary: '#c2185b', background: '#fffafc', deep: '#6a1b4d', name: 'Fancy' };
export const TAGLINE = 'Meet people in small themed group chats instead of swiping.';
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 };

/** The heart of public/favicon.svg, in a 64×64 box. */
const HEART = 'M32 50s-17-10.3-17-22.4C15 21.2 19.6 17 25 17c3.2 0 5.6 1.6 7 4 1.4-2.4 3.8-4 7-4 5.4 0 10 4.2 10 10.6C49 39.7 32 50 32 50z';

/** The logo on a rounded tile (`any` icons) or full bleed with the heart inside the 80 % safe zone (maskable). */
/** @param {number} size @param {boolean} maskable */
function iconSvg(size, maskable) {
  const scale = maskable ? 0.62 : 1;
  const offset = (64 - 64 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
  <rect width="64" height="64" ${maskable ? '' : 'rx="14"'} fill="${BRAND.primary}"/>
  <path transform="translate(${offset} ${offset}) scale(${scale})" d="${HEART}" fill="#fff"/></svg>`;
}

function ogSvg() {
  const { width, height } = OG_IMAGE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${BRAND.primary}"/><stop offset="1" stop-color="${BRAND.deep}"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="1080" cy="90" r="220" fill="#fff" opacity="0.06"/>
  <circle cx="160" cy="600" r="180" fill="#fff" opacity="0.05"/>
  <g transform="translate(96 150)">
    <rect width="132" height="132" rx="30" fill="#fff"/>
    <path transform="translate(0 2) scale(2.0625)" d="${HEART}" fill="${BRAND.primary}"/>
  </g>
  <text x="264" y="256" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="112" fill="#fff">Fancy</text>
  <text x="100" y="400" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="44" fill="#fff">Small themed group chats. No swiping.</text>
  <text x="100" y="462" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="32" fill="#fff" opacity="0.85">Chat in a mixer of 4–8 people, then fancy someone privately.</text>
  <text x="100" y="560" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="26" fill="#fff" opacity="0.7">Adults in the UK · Friends, dating and more</text>
</svg>`;
}

export function manifest() {
  return {
    id: '/home',
    name: BRAND.name,
    short_name: BRAND.name,
    description: TAGLINE,
    start_url: '/home',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    lang: 'en-GB',
    theme_color: BRAND.primary,
    background_color: BRAND.background,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** @param {string} svg */
const png = (svg) => sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();

/** Writes icons, manifest, preview image and the stamped service worker into the build output. */
/** @param {string} outDir @param {string} swSource */
export async function writeBrandAssets(outDir, swSource) {
  await mkdir(path.join(outDir, 'icons'), { recursive: true });
  /** @type {[string, Promise<Buffer> | string][]} */
  const files = [
    ['icons/icon-192.png', png(iconSvg(192, false))],
    ['icons/icon-512.png', png(iconSvg(512, false))],
    ['icons/icon-maskable-512.png', png(iconSvg(512, true))],
    ['icons/apple-touch-icon.png', png(iconSvg(180, true))],
    ['og-image.png', png(ogSvg())],
    ['manifest.webmanifest', `${JSON.stringify(manifest(), null, 2)}\n`],
  ];
  for (const [file, body] of files) await writeFile(path.join(outDir, file), await body);
  // The worker changes with every build whose page changed: browsers then install the new one.
  const index = await readFile(path.join(outDir, 'index.html'));
  const buildId = createHash('sha256').update(index).digest('hex').slice(0, 12);
  const sw = (await readFile(swSource, 'utf8')).replace('__BUILD_ID__', buildId);
  await writeFile(path.join(outDir, 'sw.js'), sw);
}
