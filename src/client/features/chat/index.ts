/** The chat feature's public surface: the report dialog for a line (issue 30), shared by mixer and private chats. */
export { type ReportableLine, ReportLineDialog, type ReportRoom, useReportLine } from './report-line-dialog';
