/**
 * The second face-description model issue 31 asks to compare: `@vladmandic/face-api`'s ResNet-34
 * `face_recognition_model` (a descriptor like dlib's; lower distance = closer), with its SSD
 * MobileNet detector and 68 landmarks, on the same WASM backend (one thread) with the weights that
 * ship inside the package. A dev dependency: only this bench uses it (decision 031).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';

const require = createRequire(import.meta.url);

interface FaceApi {
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet', { loadFromDisk(dir: string): Promise<void> }>;
  SsdMobilenetv1Options: new (o: { minConfidence: number }) => unknown;
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): {
    withFaceLandmarks(): {
      withFaceDescriptors(): Promise<{ detection: { score: number }; descriptor: Float32Array }[]>;
    };
  };
}

/** SSD's confidence floor: at 0.3 it missed most of the grid's small crops (decision 031). */
const MIN_CONFIDENCE = 0.1;

/** Each picture's descriptor (the surest face), or null when none is found; and the time per picture. */
export async function faceApiDescriptors(pictures: Buffer[]): Promise<{ descriptors: (Float32Array | null)[]; msPerPicture: number }> {
  const tf = require('@tensorflow/tfjs');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  const faceapi: FaceApi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  // The WASM binary and the weights are files of their packages, read through fetch.
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) =>
    String(url).startsWith('file://') ? new Response(readFileSync(new URL(String(url)))) : realFetch(url, init);
  try {
    wasm.setWasmPaths(`file://${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`, true);
    wasm.setThreadsCount?.(1);
    await tf.setBackend('wasm');
    await tf.ready();
    const models = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '../model');
    for (const net of ['ssdMobilenetv1', 'faceLandmark68Net', 'faceRecognitionNet'] as const) await faceapi.nets[net].loadFromDisk(models);
    const descriptors: (Float32Array | null)[] = [];
    const t0 = performance.now();
    for (const picture of pictures) {
      const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const tensor = tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
      const found = await faceapi
        .detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE }))
        .withFaceLandmarks()
        .withFaceDescriptors();
      tensor.dispose();
      found.sort((a, b) => b.detection.score - a.detection.score);
      descriptors.push(found[0]?.descriptor ?? null);
    }
    return { descriptors, msPerPicture: (performance.now() - t0) / pictures.length };
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** face-api's distance (euclidean); its documentation's threshold is 0.6. */
export const faceApiDistance = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += (a[k] - b[k]) ** 2;
  return Math.sqrt(s);
};
