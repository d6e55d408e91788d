/**
 * A fake socket's `send`, as `ws` reads its arguments: a string, or a Buffer with `binary: false`,
 * goes as a text frame; anything else as a binary frame, which a member's browser would read as a
 * Blob, not an event. A binary frame throws; a text frame's text goes to `onText`.
 */
export const textFrames =
  (onText: (text: string) => unknown) =>
  (data: string | Buffer, options?: { binary?: boolean }): void => {
    if (options?.binary ?? typeof data !== 'string') throw new Error('sent as a binary frame: members read events as text');
    onText(data.toString());
  };
