import { Worker } from 'node:worker_threads';
import { workerFile } from '../../infra/worker-file';

/** The decoded primary image of a HEIC/HEIF file: RGBA, 4 bytes a pixel. */
export type HeicPixels = { width: number; height: number; pixels: Buffer } | { tooBig: true; width: number; height: number };

/** A decode that takes longer than this is abandoned and its worker replaced. */
const DECODE_TIMEOUT_MS = 60_000;

type Reply = { id: number; error?: string; tooBig?: boolean; width?: number; height?: number; pixels?: Uint8Array };

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
/** One decode at a time: a 12 MP photo holds ~50 MB of pixels, and the machine's other core serves chat. */
let queue: Promise<unknown> = Promise.resolve();

function spawn(): Worker {
  const w = new Worker(workerFile(import.meta.url, 'profiles', 'heic-worker.mjs'), { workerData: { resolveFrom: import.meta.url } });
  w.on('message', (msg: Reply) => {
    const job = waiting.get(msg.id);
    if (!job) return;
    waiting.delete(msg.id);
    clearTimeout(job.timer);
    if (!waiting.size) w.unref();
    job.resolve(msg);
  });
  const fail = (err: Error) => {
    if (worker === w) worker = null;
    for (const [id, job] of waiting) {
      clearTimeout(job.timer);
      job.reject(err);
      waiting.delete(id);
    }
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`heic worker exited (${code})`)));
  // An idle worker never keeps the process alive.
  w.unref();
  return w;
}

function run(buffer: Buffer, maxPixels: number): Promise<Reply> {
  worker ??= spawn();
  const w = worker;
  const id = nextId++;
  return new Promise<Reply>((resolve, reject) => {
    const timer = setTimeout(() => void w.terminate(), DECODE_TIMEOUT_MS);
    timer.unref();
    waiting.set(id, { resolve, reject, timer });
    w.ref();
    // A copy: the upload's own buffer stays with the caller.
    const copy = new Uint8Array(buffer);
    w.postMessage({ id, buffer: copy, maxPixels }, [copy.buffer]);
  });
}

/**
 * Decodes the primary image of a HEIC/HEIF photo in a worker thread (heic-decode, libheif as
 * WebAssembly), so a 12 MP iPhone photo never stalls the event loop. Images over `maxPixels`
 * are refused from their header, before any pixel is decoded. libheif applies the file's own
 * rotation and mirroring (irot/imir), so the pixels come upright.
 */
export function decodeHeic(buffer: Buffer, maxPixels: number): Promise<HeicPixels> {
  const job = queue.then(() => run(buffer, maxPixels));
  queue = job.catch(() => undefined);
  return job.then((reply) => {
    if (reply.error) throw new Error(reply.error);
    if (reply.tooBig) return { tooBig: true, width: reply.width ?? 0, height: reply.height ?? 0 };
    const pixels = reply.pixels;
    if (!pixels || !reply.width || !reply.height) throw new Error('heic worker gave no pixels');
    return { width: reply.width, height: reply.height, pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength) };
  });
}

/** Stops the worker (tests, shutdown); the next decode starts a new one. */
export async function closeHeicDecoder(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
