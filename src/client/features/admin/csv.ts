import { saveBlob } from '../../lib/download';
/** CSV text (RFC 4180): fields with commas, quotes or line breaks are quoted; formula-like text is defused. */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const cell = (v: string | number) => {
    let s = String(v);
    // Spreadsheet apps run cells starting with = + - @ as formulas; campaign names come from URLs.
    if (typeof v === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Saves text as a file through a temporary Blob link. */
export function downloadCsv(filename: string, csv: string) {
  saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
}
