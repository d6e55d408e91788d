import type { OperatorWarning } from '../../../shared/schemas/admin';
import type { Config } from '../../config';

/**
 * Things an operator chose that leave Fancy working but not fully (decision 020): shown on the
 * admin overview and in the readiness check, so they are never silent.
 */
export function operatorWarnings(config: Pick<Config, 'mailMode'>): OperatorWarning[] {
  const warnings: OperatorWarning[] = [];
  if (config.mailMode === 'outbox-only') {
    warnings.push({
      code: 'mail_outbox_only',
      title: 'Mail is not being sent',
      text: 'MAIL_OUTBOX_ONLY is on and SMTP_URL is not set, so verification, password-reset and notification e-mails stay in the outbox. New members cannot confirm their address until SMTP_URL is set.',
    });
  }
  return warnings;
}
