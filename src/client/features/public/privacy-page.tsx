import { LegalDocument, preloadLegalDocument } from './legal-document';

/** Awaited by the route with this module (app/routes.tsx), so the text is there on the first render. */
export const preload = () => preloadLegalDocument('privacy');

export default function PrivacyPage() {
  return <LegalDocument name="privacy" fallbackTitle="Privacy Policy" />;
}
