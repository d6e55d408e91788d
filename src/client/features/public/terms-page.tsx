import { LegalDocument, preloadLegalDocument } from './legal-document';

/** Awaited by the route with this module (app/routes.tsx), so the text is there on the first render. */
export const preload = () => preloadLegalDocument('terms');

export default function TermsPage() {
  return <LegalDocument name="terms" fallbackTitle="Terms & Conditions" />;
}
