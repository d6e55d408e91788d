/** "Save and complete later" (spec §4): a browser flag that lets the member past the gate. */
const KEY = 'onboarding_deferred';

export function isOnboardingDeferred(): boolean {
  try {
    return localStorage.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

export function setOnboardingDeferred(deferred: boolean) {
  try {
    if (deferred) localStorage.setItem(KEY, 'true');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private mode): the gate simply shows the wizard again.
  }
}

/** "Continue setting up": clears the flag and reloads Home, where the gate opens the wizard where it was left. */
export function resumeOnboarding() {
  setOnboardingDeferred(false);
  window.location.assign('/home');
}
