import { createContext, useContext } from 'react';

export interface ToastInput {
  title?: string;
  description?: string;
  /** `celebration`: "It's a match!", in the app's warmest colours. */
  variant?: 'default' | 'destructive' | 'celebration';
  duration?: number;
  /**
   * One button in the toast, e.g. "Open" for a notice that leads somewhere; with `href`, a link
   * to it (opened by `onSelect`, which navigates within the app).
   */
  action?: { label: string; onSelect: () => void; href?: string };
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

/** What a toaster (components/ui/toaster.tsx) needs to render the queue. */
export interface ToastQueue {
  items: ToastItem[];
  dismiss(id: number): void;
  /** Counts the mounted Radix viewports; returns the unregister function. */
  addViewport(): () => void;
}

/**
 * The toast viewport's place on screen (Radix's and the stand-in's): bottom right, or at the top
 * while a chat composer is on screen (`body[data-composer]`, issue 29): a toast never covers it.
 */
export const TOAST_VIEWPORT_CLASS =
  'print:hidden fixed bottom-20 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:bottom-0 md:max-w-[420px] [body[data-composer]_&]:bottom-auto [body[data-composer]_&]:top-14 md:[body[data-composer]_&]:top-0';

export const ToastQueueContext = createContext<ToastQueue | null>(null);
export const useToastQueue = () => useContext(ToastQueueContext);
