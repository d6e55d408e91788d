/**
 * What other modules use of admin (DESIGN §3, decision 027): the audit log. Admin's own files
 * (routes, moderation, metrics…) are reached only through its routes.
 */
export { recordAudit } from './audit';
