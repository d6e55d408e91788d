import { Check, Copy, Download, Heart, Printer, QrCode } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CAMPAIGN_PARAMS } from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { CAMPAIGN_PARAM_LABELS, type CampaignValues, campaignLink, campaignQuery, pickCampaign } from './campaign-params';
import { PublicLayout, PageHeader } from './public-layout';
import { saveBlob } from '../../lib/download';
import { usePageTitle } from '../../lib/use-page-title';

/** Quiet zone around the code, in modules (the QR standard asks for 4). */
const MARGIN = 4;

interface Matrix {
  size: number;
  /** One SVG path drawing every dark module, in module units, quiet zone included. */
  path: string;
  isDark(row: number, col: number): boolean;
}

function makeMatrix(text: string): Matrix {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  let path = '';
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) {
      if (qr.isDark(r, c)) path += `M${c + MARGIN} ${r + MARGIN}h1v1h-1z`;
    }
  }
  return { size: count + MARGIN * 2, path, isDark: (r, c) => qr.isDark(r, c) };
}

function svgMarkup(m: Matrix, title: string): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${m.size} ${m.size}" width="${m.size * 10}" height="${m.size * 10}" shape-rendering="crispEdges"><title>${esc(title)}</title><rect width="100%" height="100%" fill="#ffffff"/><path d="${m.path}" fill="#000000"/></svg>
`;
}

function pngBlob(m: Matrix): Promise<Blob> {
  const scale = Math.max(8, Math.floor(1200 / m.size));
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = m.size * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('Canvas is not available'));
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  const count = m.size - MARGIN * 2;
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) if (m.isDark(r, c)) ctx.fillRect((c + MARGIN) * scale, (r + MARGIN) * scale, scale, scale);
  }
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG export failed'))), 'image/png'));
}

const fileStem = (v: CampaignValues) =>
  `fancy-campaign-${
    (v.code || v.utm_campaign || v.label || 'link')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'link'
  }`;

/** A printable QR code for a campaign link, built from this page's own query string. */
export default function CampaignQrPage() {
  usePageTitle('Campaign QR code');
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => pickCampaign(params), [params]);
  const link = campaignLink(window.location.origin, values);
  const matrix = useMemo(() => makeMatrix(link), [link]);
  const [draft, setDraft] = useState<CampaignValues>(values);
  useEffect(() => setDraft(values), [values]);
  const [copied, setCopied] = useState(false);
  const hasParams = Object.keys(values).length > 0;

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setParams(new URLSearchParams(campaignQuery(draft)), { replace: true });
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      toast({ title: 'Link copied', description: 'The campaign link is on your clipboard.' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the link and copy it yourself.', variant: 'destructive' });
    }
  };

  const downloadPng = async () => {
    try {
      saveBlob(await pngBlob(matrix), `${fileStem(values)}.png`);
    } catch {
      toast({ title: 'Download failed', description: 'Your browser could not make the PNG. Try the SVG instead.', variant: 'destructive' });
    }
  };

  const downloadSvg = () =>
    saveBlob(new Blob([svgMarkup(matrix, `QR code for ${link}`)], { type: 'image/svg+xml' }), `${fileStem(values)}.svg`);

  return (
    <PublicLayout>
      <PageHeader
        icon={QrCode}
        eyebrow="Campaigns"
        title="Campaign QR code"
        lead="Put this code on posters, flyers and stands. Anyone who scans it lands on Fancy's welcome page, and their sign-up is credited to this campaign."
        className="print:hidden"
      />

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-5 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:py-12 lg:gap-12 print:block print:p-0">
        <Card className="flex flex-col items-center p-6 text-center sm:p-10 print:border-0 print:shadow-none">
          <p className="flex items-center gap-2 font-display text-2xl font-extrabold">
            <span className="flex size-8 items-center justify-center rounded-xl bg-primary text-primary-foreground">
              <Heart className="size-4 fill-current" aria-hidden />
            </span>
            Scan to join Fancy
          </p>
          {values.label && <p className="mt-1 text-muted-foreground">{values.label}</p>}
          <svg
            viewBox={`0 0 ${matrix.size} ${matrix.size}`}
            role="img"
            aria-labelledby="qr-title"
            shapeRendering="crispEdges"
            className="mt-6 aspect-square w-full max-w-[20rem] rounded-xl bg-white ring-1 ring-border print:max-w-[12cm] print:ring-0"
            data-testid="campaign-qr"
          >
            <title id="qr-title">QR code for {link}</title>
            <rect width="100%" height="100%" fill="#ffffff" />
            <path d={matrix.path} fill="#000000" />
          </svg>
          <p className="mt-6 w-full text-sm font-medium text-muted-foreground print:text-black">Campaign link</p>
          <p
            className="mt-1 w-full break-all rounded-xl bg-muted px-3 py-2 font-mono text-sm print:bg-transparent"
            data-testid="campaign-link"
          >
            {link}
          </p>
          <div className="mt-5 flex flex-wrap justify-center gap-2 print:hidden">
            <Button variant="outline" size="sm" onClick={() => void copy()}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy link'}
            </Button>
            <Button size="sm" onClick={() => void downloadPng()}>
              <Download aria-hidden /> Download PNG
            </Button>
            <Button variant="secondary" size="sm" onClick={downloadSvg}>
              <Download aria-hidden /> Download SVG
            </Button>
            <Button variant="ghost" size="sm" onClick={() => window.print()}>
              <Printer aria-hidden /> Print
            </Button>
          </div>
        </Card>

        <div className="grid content-start gap-6 print:hidden">
          <Card className="p-5 sm:p-8">
            <h2 className="font-display text-2xl font-extrabold">Campaign details</h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {hasParams
                ? 'These are carried through to registration, so you can see which campaign brought each member.'
                : 'This code points at the plain welcome page. Add details to see which campaign brought each member.'}
            </p>
            <form onSubmit={apply} className="mt-6 grid gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                {CAMPAIGN_PARAMS.map((key) => (
                  <Field key={key} id={`qr-${key}`} label={CAMPAIGN_PARAM_LABELS[key]} hint={<code>{key}</code>}>
                    <Input
                      id={`qr-${key}`}
                      value={draft[key] ?? ''}
                      maxLength={100}
                      aria-describedby={`qr-${key}-hint`}
                      onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                    />
                  </Field>
                ))}
              </div>
              <div>
                <Button type="submit">Update QR code</Button>
              </div>
            </form>
          </Card>
          <section className="rounded-2xl bg-accent/60 p-5 text-sm text-accent-foreground">
            <h2 className="font-semibold">Printing tips</h2>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              <li>Print at least 3 cm wide, with the white border left around the code.</li>
              <li>Use the SVG for large posters: it stays sharp at any size.</li>
              <li>Scan a test print with your phone before you print the batch.</li>
            </ul>
          </section>
        </div>
      </div>
    </PublicLayout>
  );
}
