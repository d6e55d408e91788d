import { constants } from 'node:fs';
import { access, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSafeKey, type Storage } from './storage';

const TYPES: Record<string, string> = { '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg' };

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    kind: 'local',
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      try {
        const data = await readFile(path.join(root, key));
        return { data, contentType: TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    async removeFolder(prefix) {
      const folder = prefix.replace(/\/+$/, '');
      if (!/^[A-Za-z0-9_-]+$/.test(folder)) throw new Error(`unsafe storage folder: ${prefix}`);
      await rm(path.join(root, folder), { recursive: true, force: true });
    },
    async list(prefix) {
      const folder = path.join(root, prefix);
      const out: string[] = [];
      const walk = async (dir: string, rel: string) => {
        let entries: import('node:fs').Dirent[];
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          if (e.isDirectory()) await walk(path.join(dir, e.name), `${rel}${e.name}/`);
          else out.push(`${rel}${e.name}`);
        }
      };
      await walk(folder, prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`);
      // A write interrupted before its rename leaves a `.tmp` file: not an object.
      return out.filter((key) => !key.endsWith('.tmp'));
    },
    async ping() {
      await mkdir(root, { recursive: true });
      await access(root, constants.R_OK | constants.W_OK);
    },
    close() {},
  };
}
