export declare const BRAND: { primary: string; background: string; deep: string; name: string };
export declare const TAGLINE: string;
export declare const OG_IMAGE: { path: string; width: number; height: number };
export declare function manifest(): Record<string, unknown>;
export declare function writeBrandAssets(outDir: string, swSource: string): Promise<void>;
