import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audienceSchema } from '../../../shared/schemas/audience';
import { z } from 'zod';
import {
  adminMixerListSchema,
  adminReportListSchema,
  approveSuggestionSchema,
  campaignInputSchema,
  cancelMixerSchema,
  liftSuspensionSchema,
  metricsQuerySchema,
  mixerInputSchema,
  pageQuerySchema,
  rejectSuggestionSchema,
} from '../../../shared/schemas/admin';
import {
  demandQuerySchema,
  formationSettingsSchema,
  newTopicTemplateSchema,
  topicTemplateSchema,
} from '../../../shared/schemas/formation-admin';
import { memberIdSchema } from '../../../shared/schemas/matches';
import { decideAppealSchema, moderationActSchema } from '../../../shared/schemas/moderation';
import { requireAdmin } from '../../auth/session';
import { decideAppeal, listAppeals } from './appeals';
import { actOnReport } from './moderation-actions';
import { moderationQueue } from './moderation-queue';
import { listAudit } from './audit';
import { createCampaign, listCampaigns } from './campaigns';
import { createTopicTemplate, formationDemand, formationOverview, updateFormationSettings, updateTopicTemplate } from './formation';
import { adminMetrics } from './metrics';
import { audiencePreview } from './audience-preview';
import { cancelMixer, createMixer, listAdminMixers, updateMixer } from './mixers';
import { listIdentityChanges } from './identity-changes';
import { listReports } from './moderation';
import { liftSuspension, listSuspended } from './suspensions';
import { operatorWarnings } from '../health/service';
import { adminOverview } from './overview';
import { approveSuggestion, listSuggestions, rejectSuggestion } from './suggestions';

const uuidParams = z.object({ id: z.guid({ error: 'That link is not valid: check the id.' }) });
const memberParams = z.object({ id: memberIdSchema });

/** The signed-in admin (the scope's hook has already checked; the session is cached per request). */
const adminId = async (req: FastifyRequest) => (await requireAdmin(req)).user.id;

/**
 * /api/admin/*: every route sits in one scope whose first hook checks the role on the server
 * (401 signed out, 403 not an admin), before the body is even parsed. Actions go to the audit log.
 */
export function registerAdminRoutes(app: FastifyInstance) {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      await requireAdmin(req);
      reply.header('cache-control', 'no-store');
    });
    const db = () => app.deps.database.db;

    scope.get('/api/admin/overview', async () => adminOverview(db(), new Date(), operatorWarnings(app.deps.config)));

    scope.get('/api/admin/audit', { schema: { querystring: pageQuerySchema } }, async (req) =>
      listAudit(db(), req.query as z.output<typeof pageQuerySchema>),
    );

    // Interest suggestions
    scope.get('/api/admin/interest-suggestions', async () => listSuggestions(db()));
    scope.post('/api/admin/interest-suggestions/approve', { schema: { body: approveSuggestionSchema } }, async (req) =>
      approveSuggestion(app, await adminId(req), req.body as z.output<typeof approveSuggestionSchema>),
    );
    scope.post('/api/admin/interest-suggestions/reject', { schema: { body: rejectSuggestionSchema } }, async (req) =>
      rejectSuggestion(app, await adminId(req), req.body as z.output<typeof rejectSuggestionSchema>),
    );

    // Metrics
    scope.get('/api/admin/metrics', { schema: { querystring: metricsQuerySchema } }, async (req) =>
      adminMetrics(db(), req.query as z.output<typeof metricsQuerySchema>),
    );

    // Formation (issue 14): demand, formed mixers, settings and topic templates
    scope.get('/api/admin/formation', async () => formationOverview(db()));
    scope.get('/api/admin/formation/demand', { schema: { querystring: demandQuerySchema } }, async (req) =>
      formationDemand(db(), req.query as z.output<typeof demandQuerySchema>),
    );
    scope.put('/api/admin/formation/settings', { schema: { body: formationSettingsSchema } }, async (req) =>
      updateFormationSettings(db(), await adminId(req), req.body as z.output<typeof formationSettingsSchema>),
    );
    scope.post('/api/admin/formation/templates', { schema: { body: newTopicTemplateSchema } }, async (req, reply) =>
      reply.status(201).send(await createTopicTemplate(db(), await adminId(req), req.body as z.output<typeof newTopicTemplateSchema>)),
    );
    scope.put('/api/admin/formation/templates/:id', { schema: { params: uuidParams, body: topicTemplateSchema } }, async (req) =>
      updateTopicTemplate(db(), await adminId(req), (req.params as { id: string }).id, req.body as z.output<typeof topicTemplateSchema>),
    );

    // Mixers
    scope.get('/api/admin/mixers', { schema: { querystring: adminMixerListSchema } }, async (req) =>
      listAdminMixers(db(), req.query as z.output<typeof adminMixerListSchema>),
    );
    scope.post('/api/admin/mixers/audience-preview', { schema: { body: audienceSchema } }, async (req) =>
      audiencePreview(db(), req.body as z.output<typeof audienceSchema>),
    );
    scope.post('/api/admin/mixers', { schema: { body: mixerInputSchema } }, async (req, reply) =>
      reply.status(201).send(await createMixer(app, await adminId(req), req.body as z.output<typeof mixerInputSchema>)),
    );
    scope.put('/api/admin/mixers/:id', { schema: { params: uuidParams, body: mixerInputSchema } }, async (req) =>
      updateMixer(app, await adminId(req), (req.params as { id: string }).id, req.body as z.output<typeof mixerInputSchema>),
    );
    scope.post('/api/admin/mixers/:id/cancel', { schema: { params: uuidParams, body: cancelMixerSchema } }, async (req) =>
      cancelMixer(app, await adminId(req), (req.params as { id: string }).id, (req.body as z.output<typeof cancelMixerSchema>).reason),
    );

    // Campaigns
    scope.get('/api/admin/campaigns', async () => listCampaigns(db()));
    scope.post('/api/admin/campaigns', { schema: { body: campaignInputSchema } }, async (req, reply) =>
      reply.status(201).send(await createCampaign(db(), await adminId(req), req.body as z.output<typeof campaignInputSchema>)),
    );

    // Reports (the handled ones are listed here)
    scope.get('/api/admin/reports', { schema: { querystring: adminReportListSchema } }, async (req) =>
      listReports(db(), req.query as z.output<typeof adminReportListSchema>),
    );
    // Moderation (issue 30): the queue by severity and age, one decision per report, appeals, suspensions lifted
    scope.get('/api/admin/moderation/queue', async () => moderationQueue(app));
    scope.post('/api/admin/reports/:id/act', { schema: { params: uuidParams, body: moderationActSchema } }, async (req) =>
      actOnReport(app, await adminId(req), (req.params as { id: string }).id, req.body as z.output<typeof moderationActSchema>),
    );
    scope.get('/api/admin/appeals', async (req) => listAppeals(db(), await adminId(req)));
    scope.post('/api/admin/appeals/:id/decide', { schema: { params: uuidParams, body: decideAppealSchema } }, async (req) =>
      decideAppeal(app, await adminId(req), (req.params as { id: string }).id, req.body as z.output<typeof decideAppealSchema>),
    );
    scope.get('/api/admin/members/suspended', async (req) => ({ members: await listSuspended(db(), await adminId(req)) }));
    scope.post('/api/admin/suspensions/:id/lift', { schema: { params: uuidParams, body: liftSuspensionSchema } }, async (req) =>
      liftSuspension(
        app,
        await adminId(req),
        (req.params as { id: string }).id,
        (req.body as z.output<typeof liftSuspensionSchema>).reason,
      ),
    );
    scope.get('/api/admin/members/:id/identity-changes', { schema: { params: memberParams } }, async (req) =>
      listIdentityChanges(db(), (req.params as { id: string }).id),
    );
  });
}
