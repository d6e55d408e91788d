import { LegalDocument } from './legal-document';

export default function TermsPage() {
  return <LegalDocument name="terms" fallbackTitle="Terms & Conditions" />;
}
