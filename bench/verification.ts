/**
 * Verified members (issue 21, decisions 022 and 031): the on-server check's time and throughput
 * on this machine, and the chat's p99 while ten verifications run in the server's own process;
 * the liveness attack sets and how many pass; the face match on the labelled faces we ship.
 *
 * One check = a continuous capture (3 steps × 2 s at 5 frames a second, 320 px JPEGs, rendered
 * from a shipped face turned in 3D) + the member's main photo, analysed by the worker pool
 * (VERIFY_WORKERS, default 1) exactly as POST /api/verification/check does (the description
 * models on 5 frames, angles and eyes on the rest). The faces are the test fixtures (cut from
 * the sample picture in @vladmandic/human).
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createFaceEngine, type FaceEngine, faceSimilarity } from '../src/server/modules/verification/engine';
import {
  AUTO_VERIFY_SIMILARITY,
  DUPLICATE_SIMILARITY,
  fullFrames,
  judge,
  MATCH_SIMILARITY,
} from '../src/server/modules/verification/rules';
import {
  type Capture,
  type Issued,
  liveCapture,
  otherChallenge,
  photoAndMirrorCapture,
  stillCapture,
  turnedPrintCapture,
} from '../tests/fixtures/face-captures';
import { face, gridFaces, gridPair } from '../tests/fixtures/faces';
import { faceApiDescriptors, faceApiDistance } from './face-api';
import { chatWithAndWithout } from './chat-fanout';

const VERDICT_GOAL_MS = 3000;
/** Issue 31: a check's CPU time in the model process (all its threads), whatever the machine's load. */
const CPU_GOAL_MS = 2000;

async function oneCheck(engine: FaceEngine, images: Buffer[], light: number[] = []): Promise<{ ms: number; cpu: number }> {
  const t0 = performance.now();
  const { cpuMs } = await engine.analyse(images, { light });
  return { ms: performance.now() - t0, cpu: cpuMs ?? Number.NaN };
}

const ISSUED: Issued = { steps: ['straight', 'left', 'right'], blinkAtMs: 600 };

/** A capture judged as the check judges it (the time since the challenge is taken as a minute). */
async function verdictOf(engine: FaceEngine, c: Capture, photo: Buffer, issued = ISSUED) {
  const capture = c.capture.map(([step, t]) => ({ step, t }));
  const full = fullFrames(capture, issued);
  const light = c.frames.map((_, i) => i).filter((i) => !full.includes(i));
  const { images } = await engine.analyse([...c.frames, photo], { light });
  const hashes = c.frames.map((f) => createHash('sha256').update(f).digest('hex'));
  return judge(issued, images.slice(0, -1), capture, full, hashes, 60_000, images.at(-1) ?? null);
}

/**
 * Issue 31's attack sets against the rules, and the genuine captures that must pass: one row
 * each, with the verdict. Goal: no attack passes, every genuine capture does.
 */
export async function benchLiveness(engine: FaceEngine): Promise<Record<string, Record<string, unknown>>> {
  const photo = await face('C');
  const sets: [string, () => Promise<Capture>, boolean][] = [
    ['genuine C (rendered in 3D, blinks)', () => liveCapture(engine, 'C', ISSUED), true],
    ['genuine B (rendered in 3D, blinks)', () => liveCapture(engine, 'B', ISSUED), true],
    ['still photo repeated', () => stillCapture('C', ISSUED), false],
    ['photo and its mirror', () => photoAndMirrorCapture('C', ISSUED, 'right'), false],
    ...[0.3, 0.6, 0.9, 1.2].map((a): [string, () => Promise<Capture>, boolean] => [
      `print turned to ${a} rad`,
      () => turnedPrintCapture('C', ISSUED, a),
      false,
    ]),
    ['replay of another challenge', () => liveCapture(engine, 'C', otherChallenge(ISSUED)), false],
    ['no blink', () => liveCapture(engine, 'C', ISSUED, { blink: false }), false],
    ['turns that jump between two poses', () => liveCapture(engine, 'C', ISSUED, { jumps: true }), false],
  ];
  const rows: Record<string, Record<string, unknown>> = {};
  for (const [name, make, genuine] of sets) {
    const own = name.includes('genuine B') ? await face('B') : photo;
    const v = await verdictOf(engine, await make(), own);
    const passed = v.result !== 'failed';
    rows[name] = {
      kind: genuine ? 'genuine' : 'attack',
      verdict: v.result === 'failed' ? `failed: ${v.reason}` : v.result,
      ok: genuine ? passed : !passed,
    };
  }
  return rows;
}

/**
 * Scores of every pair of grid faces, each straight and with the second face mirrored: the labelled
 * ones as the same person or different people, the rest as not known.
 */
function labelledScores(n: number, score: (i: number, j: number, mirrored: boolean) => number | null) {
  const same: number[] = [];
  const different: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const label = gridPair(i, j);
      for (const mirrored of [false, true]) {
        const x = score(i, j, mirrored);
        if (x !== null) (label === 'same' ? same : label === 'different' ? different : unknown).push(x);
      }
    }
  return { same, different, unknown };
}

/**
 * One model at one threshold: `accepts` says whether a score is a match. Goal: no different-person
 * pair accepted; the same-person acceptance is reported beside it (issue 31's goal: 90 %).
 */
function matchRow(
  model: string,
  threshold: number,
  s: { same: number[]; different: number[]; unknown: number[] },
  accepts: (x: number) => boolean,
  what: string,
) {
  const falseAccepts = s.different.filter(accepts).length;
  const sameAccepted = s.same.filter(accepts).length;
  return {
    model,
    threshold,
    pairs: `${s.same.length} same / ${s.different.length} different / ${s.unknown.length} not known`,
    false_accepts: falseAccepts,
    false_rejects: s.same.length - sameAccepted,
    same_accepted: `${((100 * sameAccepted) / (s.same.length || 1)).toFixed(1)} %`,
    // Pairs whose people the labels do not name, mostly two different women: a guide to the false
    // accepts the labelled pairs cannot show.
    not_known_accepted: s.unknown.filter(accepts).length,
    spread: what,
    ok: falseAccepts === 0,
  };
}

/**
 * Human's own similarity (face/match.ts: the euclidean distance of the descriptions mapped to 0..1),
 * the check's until 2026-11-30; measured beside the angle the check now reads (decision 031).
 */
function humanSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  const dist = Math.round(100 * 25 * sum) / 100;
  return dist === 0 ? 1 : Math.round(100 * Math.max(Math.min((1 - Math.sqrt(dist) / 100 - 0.2) / 0.6, 1), 0)) / 100;
}

const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/**
 * Issue 31's face-match table: FaceRes (the model the check uses) and face-api's ResNet-34, on every
 * labelled pair of the shipped grid (tests/fixtures/faces.ts `gridPair`: 108 faces, each pair
 * straight and with one side mirrored). FaceRes at the two thresholds the check uses, and each model
 * at the threshold where it accepts no different-person pair; the age estimate's spread.
 */
export async function benchFaceMatch(engine: FaceEngine): Promise<Record<string, Record<string, unknown>>> {
  const [straight, mirrored] = await Promise.all([gridFaces(), gridFaces({ mirror: true })]);
  const n = straight.length;
  const t0 = performance.now();
  const { images } = await engine.analyse([...straight, ...mirrored]);
  const faceResMs = (performance.now() - t0) / (2 * n);
  const one = (k: number) => (images[k].faces.length === 1 ? images[k].faces[0] : null);
  const faceRes = labelledScores(n, (i, j, m) => {
    const [a, b] = [one(i), one(m ? n + j : j)];
    return a && b ? faceSimilarity(a.embedding, b.embedding) : null;
  });
  const read = images.slice(0, n).filter((_, i) => one(i)).length;
  const closestDifferent = Math.max(...faceRes.different);
  const faceResName = `FaceRes (@vladmandic/human, WASM), ${read} of ${n} faces read, ~${Math.round(faceResMs)} ms a face`;
  const rows: Record<string, Record<string, unknown>> = {
    verifies_alone: matchRow(
      faceResName,
      AUTO_VERIFY_SIMILARITY,
      faceRes,
      (x) => x >= AUTO_VERIFY_SIMILARITY,
      `verifies on its own from here; same ${range(faceRes.same)}, different ${range(faceRes.different)}`,
    ),
    to_a_person: {
      ...matchRow(
        faceResName,
        MATCH_SIMILARITY,
        faceRes,
        (x) => x >= MATCH_SIMILARITY,
        `from here to ${AUTO_VERIFY_SIMILARITY} a person compares; under it the check fails. ${
          faceRes.different.filter((x) => x >= MATCH_SIMILARITY).length
        } different-person pairs would reach a person, none verified`,
      ),
      // Not accepts: a person decides these.
      false_accepts: '—',
      ok: true,
    },
    faceres_zero: matchRow(
      'FaceRes, lowest threshold with no false accept',
      Math.round((closestDifferent + 0.01) * 100) / 100,
      faceRes,
      (x) => x > closestDifferent,
      `the closest different-person pair scored ${closestDifferent.toFixed(2)}`,
    ),
  };
  const flagged = (xs: number[]) => xs.filter((x) => x >= DUPLICATE_SIMILARITY).length;
  rows.duplicates = {
    model: 'FaceRes, two accounts flagged to admins as one face',
    threshold: DUPLICATE_SIMILARITY,
    pairs: `${faceRes.same.length} same / ${faceRes.different.length} different / ${faceRes.unknown.length} not known`,
    spread: `flags ${flagged(faceRes.same)} same-person, ${flagged(faceRes.different)} different-person and ${flagged(faceRes.unknown)} not-known pairs (a person looks at each)`,
  };
  // The same descriptions scored by Human's own similarity, as the check did until 2026-11-30.
  const human = labelledScores(n, (i, j, m) => {
    const [a, b] = [one(i), one(m ? n + j : j)];
    return a && b ? humanSimilarity(a.embedding, b.embedding) : null;
  });
  const oldBar = 0.78;
  rows.faceres_distance = matchRow(
    "FaceRes scored by Human's own similarity (euclidean), at the bar that verified on its own until 2026-11-30",
    oldBar,
    human,
    (x) => x >= oldBar,
    `same ${range(human.same)}, different ${range(human.different)}`,
  );

  const api = await faceApiDescriptors([...straight, ...mirrored]);
  const d = api.descriptors;
  const faceApi = labelledScores(n, (i, j, m) => {
    const [a, b] = [d[i], d[m ? n + j : j]];
    return a && b ? faceApiDistance(a, b) : null;
  });
  const nearestDifferent = Math.min(...faceApi.different);
  const faceApiName = `face-api ResNet-34 (@vladmandic/face-api, WASM), ${d.slice(0, n).filter(Boolean).length} of ${n} faces read, ~${Math.round(api.msPerPicture)} ms a face`;
  rows.faceapi_documented = matchRow(
    faceApiName,
    0.6,
    faceApi,
    (x) => x <= 0.6,
    `its documented threshold (distance, lower = closer); same ${range(faceApi.same)}, different ${range(faceApi.different)}`,
  );
  rows.faceapi_zero = matchRow(
    'face-api, highest threshold with no false accept',
    Math.floor((nearestDifferent - 0.005) * 1000) / 1000,
    faceApi,
    (x) => x < nearestDifferent,
    `the nearest different-person pair was ${nearestDifferent.toFixed(3)}`,
  );

  // The age estimate on every face we ship (issue 31): no true ages exist for them, so this is the
  // spread, and how many would be asked to the challenge-age review (the rule: under 25).
  const ages = images
    .slice(0, n)
    .flatMap((_, i) => (one(i) ? [one(i)?.age ?? 0] : []))
    .sort((a, b) => a - b);
  const man = images.slice(0, 18).flatMap((_, i) => (one(i) ? [one(i)?.age ?? 0] : []));
  rows.age = {
    model: 'FaceRes age estimate, every face of the grid read',
    threshold: 25,
    pairs: `${ages.length} faces`,
    spread: `${ages[0]?.toFixed(1)}–${ages.at(-1)?.toFixed(1)}, median ${ages[Math.floor(ages.length / 2)]?.toFixed(1)}; ${ages.filter((a) => a < 25).length} under 25 (to review); the one man of the first row: ${range(man)}`,
  };
  return rows;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchVerification(): Promise<Record<string, unknown>> {
  const setup = createFaceEngine(1);
  const capture = await liveCapture(setup, 'C', ISSUED);
  await setup.close();
  const full = fullFrames(
    capture.capture.map(([step, t]) => ({ step, t })),
    ISSUED,
  );
  const light = capture.frames.map((_, i) => i).filter((i) => !full.includes(i));
  const photo = await sharp(await face('C'))
    .resize(800, 800)
    .jpeg()
    .toBuffer();
  const images = [...capture.frames, photo];

  const engine = createFaceEngine(1);
  let rows: Record<string, Record<string, unknown>>;
  try {
    const cold = (await oneCheck(engine, images, light)).ms;
    const runs: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < 5; i++) runs.push(await oneCheck(engine, images, light));
    const warm = runs.map((r) => r.ms);
    const cpuPerCheck = median(runs.map((r) => r.cpu));
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const done = await Promise.all(Array.from({ length: 10 }, () => engine.analyse(images, { light })));
    const cpu = process.cpuUsage(cpu0);
    const tenMs = performance.now() - t0;
    // What the checks cost the server's own process (normal priority), against the model process's time.
    const serverCpuPerCheck = Math.round((cpu.user + cpu.system) / 1000 / 10);
    const modelMsPerCheck = Math.round(done.reduce((sum, d) => sum + d.ms, 0) / 10);
    rows = {
      first_check: { measure: 'first check (loads the models)', ms: Math.round(cold), goal: '—' },
      check: {
        measure: `one check, median of 5 (a ${capture.frames.length}-frame capture + main photo, 1 worker)`,
        ms: Math.round(median(warm)),
        goal: `≤ ${VERDICT_GOAL_MS} ms`,
        ok: median(warm) <= VERDICT_GOAL_MS,
      },
      check_cpu: {
        measure: `CPU per check in the model process, median of 5 (${full.length + 1} of ${images.length} pictures described)`,
        ms: Math.round(cpuPerCheck),
        goal: `≤ ${CPU_GOAL_MS} ms`,
        ok: cpuPerCheck <= CPU_GOAL_MS,
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
        await app.faces.analyse(images, { light });
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

/** The liveness and face-match tables alone (`node --import tsx bench/verification.ts --tables`): no chat run. */
export async function benchVerificationTables() {
  const engine = createFaceEngine(1);
  try {
    return { liveness: await benchLiveness(engine), faceMatch: await benchFaceMatch(engine) };
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv.includes('--tables')) console.table(await benchVerification());
  const tables = await benchVerificationTables();
  console.log('Liveness attack sets (goal: no attack passes, every genuine capture does)');
  console.table(tables.liveness);
  console.log('Face match on every pair of the shipped grid (goal: no labelled different-person pair accepted)');
  console.table(tables.faceMatch);
}
