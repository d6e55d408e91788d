// Decodes iPhone photos (HEIC/HEIF, HEVC-coded) to RGBA pixels off the main thread (heic.ts).
// heic-decode is libheif compiled to WebAssembly: no native download, the same on every platform.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

// Resolved from the app's code, so the bundle in dist/server finds the package like the sources do.
const require = createRequire(workerData?.resolveFrom ?? import.meta.url);
const decode = require('heic-decode');

parentPort.on('message', async ({ id, buffer, maxPixels }) => {
  let images;
  try {
    images = await decode.all({ buffer: new Uint8Array(buffer) });
    // The primary image comes first; its size is known before any pixel is decoded.
    const first = images[0];
    if (!first) throw new Error('no image in the file');
    if (first.width * first.height > maxPixels) {
      parentPort.postMessage({ id, tooBig: true, width: first.width, height: first.height });
      return;
    }
    const { width, height, data } = await first.decode();
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    parentPort.postMessage({ id, width, height, pixels }, [pixels.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  } finally {
    // The decoder's WebAssembly memory is freed by hand.
    images?.dispose();
  }
});
