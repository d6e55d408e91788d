import { writeFileSync } from 'node:fs';

/**
 * A still picture as a short YUV4MPEG2 video (what Chromium's fake camera reads from
 * `--use-file-for-fake-video-capture`): 4:2:0 full-range (`C420jpeg`) planes, one frame repeated.
 * Written here so the browser tests need no video tool installed.
 */
export function writeStillY4m(file: string, rgb: Buffer, width: number, height: number, frames: number, fps = 10) {
  if (width % 2 || height % 2) throw new Error('y4m 4:2:0 needs even dimensions');
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc(u.length);
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      y[row * width + col] = clamp(0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2]);
    }
  }
  for (let row = 0; row < height; row += 2) {
    for (let col = 0; col < width; col += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dr, dc] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ]) {
        const i = ((row + dr) * width + col + dc) * 3;
        r += rgb[i] / 4;
        g += rgb[i + 1] / 4;
        b += rgb[i + 2] / 4;
      }
      const k = (row / 2) * (width / 2) + col / 2;
      u[k] = clamp(-0.168736 * r - 0.331264 * g + 0.5 * b + 128);
      v[k] = clamp(0.5 * r - 0.418688 * g - 0.081312 * b + 128);
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
