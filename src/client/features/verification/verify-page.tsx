import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, BadgeCheck, Camera, RefreshCw, ShieldCheck } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BLINK_TEXT, type ChallengeStep, STEP_TEXT } from '../../../shared/verification';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { usePageTitle } from '../../lib/use-page-title';
import { APPEALABLE, type Challenge, type CheckResult, startChallenge, submitCheck, useVerification, verificationKey } from './api';

type Phase =
  | { name: 'consent' }
  | { name: 'camera' }
  | { name: 'challenge'; step: ChallengeStep; index: number; total: number; blink: boolean }
  | { name: 'checking' }
  | { name: 'result'; result: CheckResult }
  | { name: 'error'; message: string };

const ARROW: Record<ChallengeStep, string> = { straight: '●', left: '←', right: '→' };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One unmirrored JPEG of the current video frame, at most 320 px wide (~15 KB: a capture is ~35 of them). */
function grab(video: HTMLVideoElement): Promise<Blob> {
  const scale = Math.min(1, 320 / (video.videoWidth || 640));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round((video.videoWidth || 640) * scale);
  canvas.height = Math.round((video.videoHeight || 480) * scale);
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no frame'))), 'image/jpeg', 0.85));
}

/**
 * Films the challenge (decision 031): each step for `stepMs` at `fps`, every frame with its time
 * since filming started; "Blink now" shows `blinkAtMs` into the first step, for a moment.
 */
async function film(
  video: HTMLVideoElement,
  challenge: Challenge,
  show: (index: number, blink: boolean) => void,
): Promise<{ frames: Blob[]; capture: [number, number][] }> {
  const frames: Blob[] = [];
  const capture: [number, number][] = [];
  const start = performance.now();
  const every = 1000 / challenge.fps;
  for (const index of challenge.steps.keys()) {
    show(index, false);
    const stepStart = performance.now();
    let blinkShown = false;
    for (let n = 0; performance.now() - stepStart < challenge.stepMs; n++) {
      const into = performance.now() - stepStart;
      const blink = index === 0 && into >= challenge.blinkAtMs && into < challenge.blinkAtMs + 900;
      if (blink !== blinkShown) {
        blinkShown = blink;
        show(index, blink);
      }
      frames.push(await grab(video));
      capture.push([index, Math.round(performance.now() - start)]);
      await wait(Math.max(0, stepStart + (n + 1) * every - performance.now()));
    }
  }
  return { frames, capture };
}

export default function VerifyPage() {
  usePageTitle('Get verified');
  const status = useVerification();
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ name: 'consent' });
  const [consent, setConsent] = useState(false);
  const [keep, setKeep] = useState(false);
  const [appeal, setAppeal] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);

  const stopCamera = useCallback(() => {
    for (const t of streamRef.current?.getTracks() ?? []) t.stop();
    streamRef.current = null;
  }, []);
  useEffect(() => stopCamera, [stopCamera]);

  const openCamera = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 640 } }, audio: false });
      streamRef.current = stream;
      setPhase({ name: 'camera' });
    } catch {
      setPhase({ name: 'error', message: 'We couldn’t open your camera. Allow camera access for Fancy in your browser, then try again.' });
    }
  };

  // Attach the stream once the video element is on the page.
  useEffect(() => {
    if ((phase.name === 'camera' || phase.name === 'challenge') && videoRef.current && streamRef.current) {
      if (videoRef.current.srcObject !== streamRef.current) {
        videoRef.current.srcObject = streamRef.current;
        void videoRef.current.play().catch(() => {});
      }
    }
  }, [phase.name]);

  const run = async () => {
    const video = videoRef.current;
    if (!video) return;
    try {
      const challenge = await startChallenge(keep, appeal);
      const total = challenge.steps.length;
      const { frames, capture } = await film(video, challenge, (index, blink) =>
        setPhase({ name: 'challenge', step: challenge.steps[index], index, total, blink }),
      );
      setPhase({ name: 'checking' });
      stopCamera();
      const result = await submitCheck(challenge.id, frames, capture);
      setPhase({ name: 'result', result });
      await qc.invalidateQueries({ queryKey: verificationKey });
    } catch (err) {
      stopCamera();
      setPhase({ name: 'error', message: (err as Error).message || 'Something went wrong. Please try again.' });
    }
  };

  const restart = () => {
    setPhase({ name: 'consent' });
    setConsent(false);
    setAppeal(false);
  };
  const askPerson = () => {
    setPhase({ name: 'consent' });
    setConsent(false);
    setAppeal(true);
    setKeep(true);
  };

  const already = status.data?.state === 'verified';

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:px-6 md:py-10">
      <Link to="/profile" className="inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Back to your profile
      </Link>
      <h1 className="mt-3 flex items-center gap-2 font-display text-3xl font-extrabold sm:text-4xl">
        <ShieldCheck className="size-8 text-primary" aria-hidden /> Get verified
      </h1>

      <div aria-live="polite" className="mt-6">
        {already && phase.name === 'consent' ? (
          <Card className="flex items-center gap-3 p-5">
            <BadgeCheck className="size-7 text-primary" aria-hidden />
            <p className="font-semibold">You’re verified. Your badge shows wherever your name appears.</p>
          </Card>
        ) : phase.name === 'consent' ? (
          <Card className="grid gap-4 p-5">
            <p>
              A short live selfie shows other members that you are real, that you look like your main profile photo and that you are an
              adult. It takes under a minute.
            </p>
            <div>
              <h2 className="font-semibold">What we check</h2>
              <ul className="mt-1 list-disc pl-5 text-sm text-muted-foreground">
                <li>That a live face looks straight, blinks when asked and turns each way (so a photo, a print or a replay can’t pass)</li>
                <li>That it matches your main profile photo</li>
                <li>An age estimate: 25 or over confirms your date of birth; under 25 we ask for one more check</li>
                <li>That the same face isn’t on another account</li>
              </ul>
            </div>
            <div>
              <h2 className="font-semibold">What we keep</h2>
              <p className="mt-1 text-sm text-muted-foreground">
                The check runs on Fancy’s own server — nothing is sent to anyone else. We keep no video and no picture: only the result,
                when, how it was checked, and a face template (numbers, not an image), encrypted, used only to re-check a new main photo and
                to spot the same face on two accounts. It is deleted when you delete your account.
              </p>
            </div>
            <label className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                className="mt-1 size-4 accent-primary"
                checked={consent}
                onChange={(e) => setConsent(e.target.checked)}
              />
              <span>I agree that Fancy processes my face (biometric data) for this check as described above.</span>
            </label>
            {appeal && (
              <p className="rounded-xl bg-accent/60 p-3 text-sm">
                This time, if the check says no again, a member of our team will look at your pictures and decide. They are deleted as soon
                as it is decided.
              </p>
            )}
            <label className="flex items-start gap-3 text-sm">
              <input type="checkbox" className="mt-1 size-4 accent-primary" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
              <span className="text-muted-foreground">
                {appeal
                  ? 'Keep my pictures for that review only, deleted as soon as it is decided (needed for a person to look).'
                  : 'Optional: if a person needs to confirm my age or compare my selfie with my main photo, keep my pictures for that review only, deleted as soon as it is decided.'}
              </span>
            </label>
            {status.data?.state === 'unverified' && status.data.attemptsLeft < 3 && (
              <p className="text-sm text-muted-foreground">Tries left today: {status.data.attemptsLeft}</p>
            )}
            <Button className="justify-self-start" disabled={!consent || (appeal && !keep)} onClick={() => void openCamera()}>
              <Camera className="size-4" aria-hidden /> Open my camera
            </Button>
          </Card>
        ) : phase.name === 'camera' || phase.name === 'challenge' ? (
          <Card className="grid gap-4 p-5">
            <div className="relative mx-auto aspect-[4/3] w-full max-w-md overflow-hidden rounded-2xl bg-black">
              {/* Mirrored like a mirror; the frames sent are taken unmirrored. */}
              <video ref={videoRef} className="size-full -scale-x-100 object-cover" muted playsInline aria-label="Your camera" />
              {phase.name === 'challenge' && (
                <div className="absolute inset-x-0 bottom-0 bg-black/60 p-3 text-center text-white">
                  <span className="mr-2 text-2xl" aria-hidden>
                    {ARROW[phase.step]}
                  </span>
                  <span className="text-lg font-semibold">{STEP_TEXT[phase.step]}</span>
                </div>
              )}
              {phase.name === 'challenge' && phase.blink && (
                <div className="absolute inset-x-0 top-0 bg-primary p-3 text-center text-2xl font-extrabold text-primary-foreground">
                  {BLINK_TEXT}
                </div>
              )}
            </div>
            {phase.name === 'camera' ? (
              <>
                <p className="text-sm text-muted-foreground">
                  Put your face in the middle of the picture, in good light, with the camera at eye level. When you start, follow the
                  instructions: look straight and blink when the screen says “Blink now”, then turn your head slowly each way and back. Each
                  step lasts about two seconds.
                </p>
                <Button className="justify-self-start" onClick={() => void run()}>
                  Start the check
                </Button>
              </>
            ) : (
              <p role="status" className="text-center font-semibold">
                Step {phase.index + 1} of {phase.total}: {phase.blink ? BLINK_TEXT : STEP_TEXT[phase.step]}
              </p>
            )}
          </Card>
        ) : phase.name === 'checking' ? (
          <Card className="flex items-center gap-3 p-5" role="status">
            <Spinner /> Checking… this takes a few seconds.
          </Card>
        ) : phase.name === 'result' ? (
          <Card className="grid gap-3 p-5">
            {phase.result.outcome === 'verified' ? (
              <p className="flex items-center gap-2 text-lg font-semibold">
                <BadgeCheck className="size-6 text-primary" aria-hidden /> Verified
              </p>
            ) : (
              <p className="text-lg font-semibold">{phase.result.outcome === 'review' ? 'Almost there' : 'Not verified yet'}</p>
            )}
            <p>{phase.result.message}</p>
            {phase.result.outcome === 'failed' && (
              <>
                <p className="text-sm text-muted-foreground">Tries left today: {phase.result.attemptsLeft}</p>
                {phase.result.attemptsLeft > 0 && (
                  <div className="flex flex-wrap gap-2">
                    <Button onClick={restart}>
                      <RefreshCw className="size-4" aria-hidden /> Try again
                    </Button>
                    {APPEALABLE.includes(phase.result.reason) && (
                      <Button variant="outline" onClick={askPerson}>
                        Try again with a person to look
                      </Button>
                    )}
                  </div>
                )}
              </>
            )}
            <Link to="/profile" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Back to your profile
            </Link>
          </Card>
        ) : (
          <Card className="grid gap-3 p-5" role="alert">
            <p>{phase.message}</p>
            <Button variant="outline" className="justify-self-start" onClick={restart}>
              Start again
            </Button>
          </Card>
        )}
      </div>
    </div>
  );
}
