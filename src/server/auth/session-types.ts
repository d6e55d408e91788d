/** The signed-in member of a request, as better-auth returns it (auth/session.ts) and the session cache keeps it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image?: string | null;
  role?: string | null;
  onboardingComplete?: boolean | null;
  banned?: boolean | null;
  createdAt: Date;
}

export interface CurrentSession {
  user: SessionUser;
  session: { id: string; expiresAt: Date; token: string };
}
