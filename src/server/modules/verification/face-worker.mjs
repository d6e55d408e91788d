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
// The test suites ask for the normal priority (VERIFY_WORKER_PRIORITY): beside their own busy
// processes a check at nice 19 could wait minutes for the CPU.
if (process.argv[3] !== 'normal') lowestPriority();

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
  // Every picture is read afresh: no reuse of an earlier frame's result (Human's video caching;
  // decision 031 measured its face tracking, which would skip the detector, reading turns ~half as far).
  cacheSensitivity: 0,
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

/** The thumbnail the liveness rules compare frames by (liveness.ts: THUMB_W × THUMB_H, greyscale). */
const THUMB_W = 32;
const THUMB_H = 24;
function thumbnail(data, width, height) {
  const sums = new Float64Array(THUMB_W * THUMB_H);
  const counts = new Uint32Array(THUMB_W * THUMB_H);
  for (let y = 0; y < height; y++) {
    const ty = Math.min(THUMB_H - 1, Math.floor((y * THUMB_H) / height));
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const k = ty * THUMB_W + Math.min(THUMB_W - 1, Math.floor((x * THUMB_W) / width));
      sums[k] += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      counts[k]++;
    }
  }
  return Array.from(sums, (v, k) => Math.round((v / (counts[k] || 1)) * 10) / 10);
}

/** Eye openness from the 468 mesh points: each eye's lid gap over its width, averaged. */
function eyeOpenness(mesh) {
  if (!mesh || mesh.length < 468) return 0;
  const d = (a, b) => Math.hypot(mesh[a][0] - mesh[b][0], mesh[a][1] - mesh[b][1]);
  const right = (d(159, 145) + d(158, 153)) / 2 / (d(33, 133) || 1);
  const left = (d(386, 374) + d(385, 380)) / 2 / (d(263, 362) || 1);
  return (right + left) / 2;
}

/** What a pass runs: `full` adds the description, age, gender, anti-spoof and liveness models. */
const pass = (full) => ({
  face: { description: { enabled: full }, antispoof: { enabled: full }, liveness: { enabled: full } },
});

/**
 * The picture as the int32 values the model's tensor is made from, in one buffer kept for the
 * process: the backend copies them into its own memory when the tensor is made. A new 4.9 MB array
 * for each of a check's 34 pictures kept the garbage collector busy: ~15 % of a check's CPU.
 */
let int32 = new Int32Array(0);
function int32Of(data) {
  if (int32.length < data.length) int32 = new Int32Array(data.length);
  const view = int32.subarray(0, data.length);
  view.set(data);
  return view;
}

async function analyse(bytes, { full = true, mesh = false } = {}) {
  let raw;
  try {
    // sharp's default failOn ('warning'): a damaged or truncated picture is unreadable, not half grey.
    raw = await sharp(Buffer.from(bytes), { limitInputPixels: 40_000_000 })
      .rotate()
      // Enlarged too: a 320 px webcam frame read at its own size would cost a third less, but the
      // models read turns and small faces differently there (decision 031, "CPU per check").
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
  // Brightness and colourfulness over every 4th pixel (decision 031: "more light, please").
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
  const tensor = human.tf.tensor4d(int32Of(data), [1, info.height, info.width, 3], 'int32');
  let result;
  try {
    result = await human.detect(tensor, pass(full));
  } finally {
    tensor.dispose();
  }
  const faces = result.face
    .filter((f) => f.score >= 0.5)
    .map((f) => ({
      score: f.score,
      // Share of the image's width the face covers: tiny faces are not "clear".
      size: f.box[2] / info.width,
      // Centre of the face box, in image widths (a face that jumps across the frame is another picture).
      cx: (f.box[0] + f.box[2] / 2) / info.width,
      cy: (f.box[1] + f.box[3] / 2) / info.width,
      eye: eyeOpenness(f.mesh),
      yaw: f.rotation?.angle.yaw ?? 0,
      pitch: f.rotation?.angle.pitch ?? 0,
      real: f.real ?? 0,
      live: f.live ?? 0,
      age: f.age ?? 0,
      gender: f.gender ?? 'unknown',
      genderScore: f.genderScore ?? 0,
      embedding: full ? Array.from(f.embedding ?? []) : [],
      // In image widths, like cx/cy (the picture was resized to MAX_SIDE for the models).
      ...(mesh ? { mesh: f.mesh.map((p) => p.slice(0, 3).map((v) => v / info.width)) } : {}),
    }));
  return { unreadable: false, light, colour, thumb: thumbnail(data, info.width, info.height), faces };
}

process.on('message', async (msg) => {
  try {
    await load();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const images = [];
    // `light`: indexes of the images that need only the face's position, angles and eyes (most
    // frames of a capture); the others also get the description and the spoof models.
    const light = new Set(msg.light ?? []);
    for (const [i, bytes] of msg.images.entries()) images.push(await analyse(bytes, { full: !light.has(i), mesh: msg.mesh === true }));
    const cpu = process.cpuUsage(cpu0);
    const extra = msg.mesh === true ? { triangulation: Array.from(human.faceTriangulation ?? []) } : {};
    process.send({
      id: msg.id,
      images,
      ms: performance.now() - t0,
      cpuMs: (cpu.user + cpu.system) / 1000,
      version: human.version,
      ...extra,
    });
  } catch (err) {
    process.send({ id: msg.id, error: String(err?.message ?? err) });
  }
});
// The server went away: so does this process.
process.on('disconnect', () => process.exit(0));
