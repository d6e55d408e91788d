// Face analysis off the event loop (docs/decisions/022): one child process holds the models of
// @vladmandic/human on the TensorFlow.js WASM backend, loaded from the npm package's own files
// (no network, no native download). The server sends image bytes over IPC; this process answers
// numbers only (boxes, angles, scores, a 1024-value face description). Nothing is written to disk.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

// The models take whatever CPU chat leaves: every thread of this process runs at the lowest
// scheduling priority — the main thread and the ones V8 and libuv started already (garbage
// collection, WASM compilation); threads started later inherit it. Linux's setpriority accepts a
// thread id; elsewhere the process keeps the normal priority.
function lowestPriority() {
  try {
    for (const tid of readdirSync('/proc/self/task')) os.setPriority(Number(tid), 19);
  } catch {
    try {
      os.setPriority(19);
    } catch {
      // Not allowed: run at the normal priority.
    }
  }
}
lowestPriority();

const require = createRequire(process.argv[2] ?? import.meta.url);
// Both packages' main files are in their dist/ folder (their exports maps hide package.json).
const humanDir = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
const wasmDir = path.resolve(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..');
const { Human } = require(path.join(humanDir, 'dist/human.node-wasm.js'));
const sharp = require('sharp');
// One thread for the models (and for sharp): the other core stays with chat (decision 022).
require('@tensorflow/tfjs-backend-wasm').setThreadsCount?.(1);
sharp.concurrency(1);

// The models are files of the package: the library reads them through fetch, answered here.
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const u = String(url);
  if (u.startsWith('file://')) return new Response(readFileSync(new URL(u)));
  if (realFetch) return realFetch(url, init);
  throw new Error(`no network: ${u}`);
};

/** Longest side an image is analysed at: enough for a face filling part of a webcam frame. */
const MAX_SIDE = 640;

const human = new Human({
  backend: 'wasm',
  modelBasePath: `file://${humanDir}/models/`,
  wasmPath: `file://${wasmDir}/dist/`,
  debug: false,
  warmup: 'none',
  face: {
    enabled: true,
    detector: { rotation: true, maxDetected: 3, minConfidence: 0.3, return: false },
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true },
    // Not used by any rule (the challenge is head turns): one model less per picture.
    emotion: { enabled: false },
    antispoof: { enabled: true },
    liveness: { enabled: true },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
});

let loaded;
const load = () => {
  loaded ??= human.load().then(() => human.tf.ready());
  return loaded;
};

async function analyse(bytes) {
  let raw;
  try {
    // sharp's default failOn ('warning'): a damaged or truncated picture is unreadable, not half grey.
    raw = await sharp(Buffer.from(bytes), { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: false })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return { unreadable: true, faces: [] };
  }
  const { data, info } = raw;
  if (info.channels !== 3) return { unreadable: true, faces: [] };
  // Brightness and colourfulness over every 4th pixel (decision 030: "more light, please").
  let luma = 0;
  let chroma = 0;
  let n = 0;
  for (let i = 0; i + 2 < data.length; i += 12) {
    const r = data[i];
    const g = data[i + 1];
    const b = data[i + 2];
    luma += 0.299 * r + 0.587 * g + 0.114 * b;
    chroma += Math.max(r, g, b) - Math.min(r, g, b);
    n++;
  }
  const light = n ? luma / n : 0;
  const colour = n ? chroma / n : 0;
  const tensor = human.tf.tensor4d(new Int32Array(data), [1, info.height, info.width, 3], 'int32');
  let result;
  try {
    result = await human.detect(tensor);
  } finally {
    tensor.dispose();
  }
  const faces = result.face
    .filter((f) => f.score >= 0.5)
    .map((f) => ({
      score: f.score,
      // Share of the image's width the face covers: tiny faces are not "clear".
      size: f.box[2] / info.width,
      yaw: f.rotation?.angle.yaw ?? 0,
      pitch: f.rotation?.angle.pitch ?? 0,
      real: f.real ?? 0,
      live: f.live ?? 0,
      age: f.age ?? 0,
      embedding: Array.from(f.embedding ?? []),
    }));
  return { unreadable: false, light, colour, faces };
}

process.on('message', async (msg) => {
  try {
    await load();
    const t0 = performance.now();
    const images = [];
    for (const bytes of msg.images) images.push(await analyse(bytes));
    process.send({ id: msg.id, images, ms: performance.now() - t0, version: human.version });
  } catch (err) {
    process.send({ id: msg.id, error: String(err?.message ?? err) });
  }
});
// The server went away: so does this process.
process.on('disconnect', () => process.exit(0));
