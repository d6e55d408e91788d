/**
 * Verified members (issue 21, decision 022): the on-server check's time and throughput on this
 * machine, and the chat's p99 while ten verifications run in the server's own process.
 *
 * One check = the frames of a challenge (5 × 640×480 JPEG) + the member's main photo, analysed
 * by the worker pool (VERIFY_WORKERS, default 1) exactly as POST /api/verification/check does.
 * The faces are the test fixtures (cut from the sample picture in @vladmandic/human).
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createFaceEngine, type FaceEngine } from '../src/server/modules/verification/engine';
import { face } from '../tests/fixtures/faces';
import { chatWithAndWithout } from './chat-fanout';

const VERDICT_GOAL_MS = 3000;

/** A webcam-sized frame (640×480) with the face in the middle, like a laptop camera sends. */
async function webcamFrame(mirror: boolean): Promise<Buffer> {
  const f = await sharp(await face('A1', { mirror }))
    .resize(300, 300)
    .toBuffer();
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#6b6358' } })
    .composite([{ input: f, left: 170, top: 90 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function oneCheck(engine: FaceEngine, images: Buffer[]): Promise<number> {
  const t0 = performance.now();
  await engine.analyse(images);
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchVerification(): Promise<Record<string, unknown>> {
  const frames = [
    await webcamFrame(false),
    await webcamFrame(true),
    await webcamFrame(false),
    await webcamFrame(true),
    await webcamFrame(false),
  ];
  const photo = await sharp(await face('A3'))
    .resize(800, 800)
    .jpeg()
    .toBuffer();
  const images = [...frames, photo];

  const engine = createFaceEngine(1);
  let rows: Record<string, Record<string, unknown>>;
  try {
    const cold = await oneCheck(engine, images);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push(await oneCheck(engine, images));
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const done = await Promise.all(Array.from({ length: 10 }, () => engine.analyse(images)));
    const cpu = process.cpuUsage(cpu0);
    const tenMs = performance.now() - t0;
    // What the checks cost the server's own process (normal priority), against the model process's time.
    const serverCpuPerCheck = Math.round((cpu.user + cpu.system) / 1000 / 10);
    const modelMsPerCheck = Math.round(done.reduce((sum, d) => sum + d.ms, 0) / 10);
    rows = {
      first_check: { measure: 'first check (loads the models)', ms: Math.round(cold), goal: '—' },
      check: {
        measure: 'one check, median of 5 (5 frames + main photo, 1 worker)',
        ms: Math.round(median(warm)),
        goal: `≤ ${VERDICT_GOAL_MS} ms`,
        ok: median(warm) <= VERDICT_GOAL_MS,
      },
      ten: {
        measure: 'ten checks at once (queued on 1 worker)',
        ms: Math.round(tenMs),
        goal: `${Math.round((10 / tenMs) * 60_000)} checks/min`,
      },
      server_cpu: {
        measure: `server-process CPU per check (the models ran ${modelMsPerCheck} ms per check in the model process, nice 19)`,
        ms: serverCpuPerCheck,
        goal: 'near 0: chat keeps its CPU',
        ok: serverCpuPerCheck <= 0.1 * modelMsPerCheck,
      },
    };
  } finally {
    await engine.close();
  }

  // Chat p99 with ten verifications queued again and again in the server's own pool. The
  // machine is shared, so alone/with runs alternate twice (A B A B) and the ratio is taken over
  // both pairs: drift in the other load cancels instead of landing on one side.
  let checksDone = 0;
  const background = (app: Parameters<Parameters<typeof chatWithAndWithout>[0]>[0]) => {
    let running = true;
    const loops = Array.from({ length: 10 }, async () => {
      while (running) {
        await app.faces.analyse(images);
        checksDone++;
      }
    });
    return async () => {
      running = false;
      await Promise.all(loops);
    };
  };
  const shape = { mixers: 25, membersPerMixer: 8, seconds: 15 };
  const pairs = [await chatWithAndWithout(background, shape), await chatWithAndWithout(background, shape)];
  const p99 = (r: Record<string, unknown>) => Number(r.p99_ms);
  const alone = pairs.map((c) => p99(c.without));
  const withChecks = pairs.map((c) => p99(c.with));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const ratio = Math.round((sum(withChecks) / Math.max(1, sum(alone))) * 100) / 100;
  rows.chat_alone = {
    measure: 'chat p99, 200 sockets × 1 msg/s (runs 1 and 3)',
    ms: Math.max(...alone),
    goal: alone.join(' / '),
    losses: sum(pairs.map((c) => Number(c.without.losses))),
  };
  rows.chat_with = {
    measure: `chat p99 with 10 verifications running (runs 2 and 4; ${ratio}× alone over both pairs)`,
    ms: Math.max(...withChecks),
    goal: `${withChecks.join(' / ')}; unchanged: ≤ 1.2× alone (or ≤ 100 ms)`,
    ok: ratio <= 1.2 || Math.max(...withChecks) <= 100,
    losses: sum(pairs.map((c) => Number(c.with.losses))),
    checks_done: checksDone,
  };
  // The machine is shared: the load average says how much else ran at the time.
  rows.machine = {
    measure: `load average (1, 5, 15 min) at the end, ${cpus().length} cores`,
    ms: Number.NaN,
    goal: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchVerification());
}
