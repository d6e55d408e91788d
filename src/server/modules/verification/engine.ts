import { type ChildProcess, fork } from 'node:child_process';
import { workerFile } from '../../infra/worker-file';

/** One face found in an image, as the worker reports it (numbers only). */
export interface FaceFound {
  score: number;
  /** Share of the image's width the face box covers. */
  size: number;
  /** Centre of the face box, in image widths from the left and top edges. */
  cx?: number;
  cy?: number;
  /** Eye openness from the mesh (lid gap over eye width, both eyes averaged): drops in a blink. */
  eye?: number;
  yaw: number;
  pitch: number;
  /** Anti-spoof model: 1 = a real face, 0 = a print or a screen. */
  real: number;
  /** Liveness model: 1 = live. */
  live: number;
  age: number;
  /** Apparent gender (FaceRes) and its confidence: a near-threshold match across them goes to a person. */
  gender?: string;
  genderScore?: number;
  /** Empty for frames analysed for position and angles only. */
  embedding: number[];
  /** The 468 mesh points [x, y, z] in image widths, only when asked for (the tests render faces from them). */
  mesh?: number[][];
}

export interface ImageAnalysis {
  unreadable: boolean;
  /** Mean brightness of the decoded picture, 0–255 (Rec. 601 luma). */
  light?: number;
  /** Mean colourfulness, 0–255 (the largest difference between the channels, averaged): ~0 for black and white. */
  colour?: number;
  /** The picture as a 32 × 24 greyscale thumbnail (liveness.ts compares frames by it). */
  thumb?: number[];
  faces: FaceFound[];
}

export interface AnalyseOptions {
  /** Images (by index) that need only the face's position, angles and eyes: no description or spoof models. */
  light?: number[];
  /** Also answer the mesh points and the mesh's triangles (for the tests' face renderer). */
  mesh?: boolean;
}

export interface Analysis {
  images: ImageAnalysis[];
  ms: number;
  /** CPU time the model process spent on the job (all its threads), ms. */
  cpuMs?: number;
  version: string;
  /** Vertex indexes of the mesh's triangles, when `mesh` was asked for. */
  triangulation?: number[];
}

export interface FaceEngine {
  analyse(images: Buffer[], options?: AnalyseOptions): Promise<Analysis>;
  /** Jobs waiting for a worker (not counting the ones running). */
  queued(): number;
  close(): Promise<void>;
}

/**
 * A check that takes longer than this is abandoned and its worker replaced. A check is a whole
 * capture (~35 pictures, decision 031): at nice 19 on a loaded machine that has taken over a minute.
 */
const JOB_TIMEOUT_MS = 180_000;

interface Job {
  id: number;
  timer?: NodeJS.Timeout;
  images: Buffer[];
  options: AnalyseOptions;
  resolve: (v: Analysis) => void;
  reject: (e: Error) => void;
}

/**
 * A small pool of model processes (default one: the machine has two cores and chat keeps the
 * other). Each is a child process whose every thread runs at the lowest CPU priority: its own
 * V8 platform threads (garbage collection, WASM compilation) and libuv/libvips threads included,
 * which a worker thread would share with the server at normal priority (decision 022: measured,
 * about half of a check's CPU ran there). Processes start on first use, so a server that never
 * verifies never loads the models. Jobs queue in order; each process takes one at a time.
 */
export function createFaceEngine(size = 1, priority: 'lowest' | 'normal' = 'lowest'): FaceEngine {
  const workers: { child: ChildProcess; busy: Job | null }[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  // An idle process never keeps the server alive; a busy one does (its caller is waiting).
  const hold = (child: ChildProcess, on: boolean) => {
    if (on) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  };

  const spawn = () => {
    const child = fork(workerFile(import.meta.url, 'verification', 'face-worker.mjs'), [import.meta.url, priority], {
      serialization: 'advanced',
      // Garbage collected on the worker's own thread: V8's helper threads collecting in parallel
      // cost ~100 ms more CPU a check (decision 031, "CPU per check"). The readings cannot
      // change: only which thread collects does.
      execArgv: ['--single-threaded-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const slot = { child, busy: null as Job | null };
    child.on('message', (msg: Partial<Analysis> & { id: number; error?: string }) => {
      const job = slot.busy;
      slot.busy = null;
      if (job?.timer) clearTimeout(job.timer);
      hold(child, false);
      if (job && job.id === msg.id) {
        if (msg.error) job.reject(new Error(msg.error));
        else
          job.resolve({
            images: msg.images ?? [],
            ms: msg.ms ?? 0,
            cpuMs: msg.cpuMs,
            version: msg.version ?? '',
            triangulation: msg.triangulation,
          });
      }
      pump();
    });
    const fail = (err: Error) => {
      if (!workers.includes(slot)) return;
      if (slot.busy?.timer) clearTimeout(slot.busy.timer);
      slot.busy?.reject(err);
      slot.busy = null;
      workers.splice(workers.indexOf(slot), 1);
      if (!closed) pump();
    };
    child.on('error', fail);
    child.on('exit', (code, signal) => fail(new Error(`face worker exited (${code ?? signal})`)));
    hold(child, false);
    workers.push(slot);
    return slot;
  };

  const pump = () => {
    while (queue.length) {
      let slot = workers.find((w) => !w.busy);
      if (!slot && workers.length < size) slot = spawn();
      if (!slot) return;
      const job = queue.shift() as Job;
      slot.busy = job;
      const busySlot = slot;
      job.timer = setTimeout(() => busySlot.child.kill('SIGKILL'), JOB_TIMEOUT_MS);
      job.timer.unref();
      hold(slot.child, true);
      slot.child.send({
        id: job.id,
        images: job.images,
        light: job.options.light,
        mesh: job.options.mesh,
      });
    }
  };

  return {
    analyse(images, options = {}) {
      if (closed) return Promise.reject(new Error('face engine closed'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, images, options, resolve, reject });
        pump();
      });
    },
    queued: () => queue.length,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('face engine closed'));
      await Promise.all(
        workers.splice(0).map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
              w.child.once('exit', () => resolve());
              w.child.ref(); // until it has gone
              w.child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

/**
 * How alike two face descriptions are: the cosine of their angle, 0..1 (opposite or unrelated
 * descriptions are 0). Not Human's own similarity (face/match.ts, a euclidean distance mapped to
 * 0..1): FaceRes's descriptions differ in length from picture to picture, and the distance counted
 * that as a difference of face. On the labelled faces we ship, at the lowest bar no different-person
 * pair reaches, the angle lets ~2/3 of the same person's pairs through, the distance ~1 in 20
 * (decision 031, amended 2026-11-30; `npm run bench` measures both).
 */
export function faceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (!a.length || a.length !== b.length) return 0;
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  if (!aa || !bb) return 0;
  return Math.round(100 * Math.min(1, Math.max(0, dot / Math.sqrt(aa * bb)))) / 100;
}
