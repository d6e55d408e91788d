// Taps before the app takes a server-rendered member page over (issue 33, decision 038). Loaded
// in the head with theme-init (one blocking, cached file), so it listens before the first paint.
//
// While `#root` has `data-waiting-for-app` (set by the server, removed at the take-over):
// - a link is a real `<a href>`: its tap goes to the browser, which navigates;
// - a text field takes focus and keys as usual; what it holds is handed to the app at take-over;
// - a tap on anything else (Join, Fancy, a tab, the account menu…) is held: nothing sees it now,
//   and the app gets it once, when it has taken over. Two taps on one control before then are one.
//   A press whose release comes after the take-over is given to the app then, as a press;
// - a form's submit waits too and goes once, at take-over; so does Enter in a chat composer
//   (`data-enter-sends`), which the app turns into a send.
(() => {
  const WAITING = 'data-waiting-for-app';
  const FIELD =
    'textarea, select, [contenteditable=""], [contenteditable="true"], input:not([type=button]):not([type=submit]):not([type=reset]):not([type=checkbox]):not([type=radio]):not([type=image]):not([type=file])';
  const CONTROL =
    'button, input, select, textarea, label, summary, [role=button], [role=tab], [role=switch], [role=checkbox], [role=radio], [role=menuitem], [role=option], [role=combobox], [contenteditable=""], [contenteditable="true"], [data-tap]';
  /** Held taps and submits, in order: `{ kind, path, node, submitter? }`. */
  const held = [];
  /** Fields typed into before take-over: path → { node, value }. */
  const typed = new Map();

  const root = () => document.getElementById('root');
  const waitingRoot = (target) => {
    const r = root();
    return r?.hasAttribute(WAITING) && target instanceof Node && r.contains(target) ? r : null;
  };
  /** Where a node is under #root (child indexes; an id when it has one), to find it again should the app have replaced it. */
  const pathOf = (node, r) => {
    if (node.id) return `#${node.id}`;
    const steps = [];
    for (let n = node; n && n !== r; n = n.parentElement) steps.unshift(Array.prototype.indexOf.call(n.parentElement.children, n));
    return steps.join('/');
  };
  const find = (entry) => {
    if (entry.node.isConnected) return entry.node;
    const r = root();
    if (!r) return null;
    if (entry.path.startsWith('#')) return document.getElementById(entry.path.slice(1));
    let n = r;
    for (const i of entry.path.split('/')) n = n?.children[Number(i)];
    return n ?? null;
  };
  /** What a tap on `target` is for: 'link' (the browser's), 'field' (typing), or the control it reached. */
  const aimOf = (target) => {
    const el = target instanceof Element ? target : target.parentElement;
    const link = el?.closest('a[href]');
    const control = el?.closest(CONTROL);
    if (link && !(control && link.contains(control) && control !== link)) return 'link';
    if (control?.matches(FIELD)) return 'field';
    return control ?? el;
  };

  const hold = (entry) => {
    if (held.some((h) => h.kind === entry.kind && h.node === entry.node)) return;
    held.push(entry);
  };
  /**
   * A press kept from the page whose click has not come yet: should the take-over fall between the
   * two, the click reaches the app but the press never did, and a control that acts on the press
   * (a menu, a tab) would do nothing. The press is given to the app at take-over instead.
   */
  let pressed = null;

  // The pointer's other events are kept from the page too: the app, half there, must not act on a
  // press whose click it gets later.
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'touchstart', 'touchend']) {
    window.addEventListener(
      type,
      (e) => {
        if (!waitingRoot(e.target)) return;
        const aim = aimOf(e.target);
        if (aim === 'link' || aim === 'field' || !aim) return;
        e.stopImmediatePropagation();
        if (type === 'pointerdown' || type === 'touchstart')
          pressed = { node: aim, path: pathOf(aim, root()), pointerType: e.pointerType ?? 'touch' };
      },
      { capture: true, passive: true },
    );
  }
  window.addEventListener(
    'click',
    (e) => {
      const r = waitingRoot(e.target);
      if (!r || e.button !== 0) return;
      const aim = aimOf(e.target);
      if (aim === 'link' || aim === 'field' || !aim) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      pressed = null;
      hold({ kind: 'tap', node: aim, path: pathOf(aim, r) });
    },
    true,
  );
  window.addEventListener(
    'submit',
    (e) => {
      const r = waitingRoot(e.target);
      if (!r) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      hold({ kind: 'submit', node: e.target, path: pathOf(e.target, r), submitter: e.submitter ?? null });
    },
    true,
  );
  window.addEventListener(
    'keydown',
    (e) => {
      const r = waitingRoot(e.target);
      if (!r || e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
      const form = e.target instanceof HTMLTextAreaElement && e.target.hasAttribute('data-enter-sends') ? e.target.form : null;
      if (!form) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      hold({ kind: 'submit', node: form, path: pathOf(form, r), submitter: null });
    },
    true,
  );
  window.addEventListener(
    'input',
    (e) => {
      const r = waitingRoot(e.target);
      if (!r || !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement)) return;
      const path = pathOf(e.target, r);
      typed.set(path, { node: e.target, path, value: e.target.value });
    },
    true,
  );

  /** A tap as a finger makes it: press, release, click (menus open on the press, buttons act on the click). */
  const tap = (el) => {
    const init = {
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
      button: 0,
      buttons: 1,
      pointerType: 'touch',
      isPrimary: true,
    };
    el.dispatchEvent(new PointerEvent('pointerdown', init));
    el.dispatchEvent(new MouseEvent('mousedown', init));
    el.dispatchEvent(new PointerEvent('pointerup', { ...init, buttons: 0 }));
    el.dispatchEvent(new MouseEvent('mouseup', { ...init, buttons: 0 }));
    el.click();
  };

  /** The press alone, for a tap whose release and click come after the take-over. */
  const press = (el, pointerType) => {
    const init = { bubbles: true, cancelable: true, composed: true, view: window, button: 0, buttons: 1, pointerType, isPrimary: true };
    el.dispatchEvent(new PointerEvent('pointerdown', init));
    el.dispatchEvent(new MouseEvent('mousedown', init));
  };

  /** Called by the app once it has the page (src/client/app/root-layout.tsx). */
  window.__fancyTakeOver = () =>
    setTimeout(() => {
      root()?.removeAttribute(WAITING);
      // Text first: a field's value is given to the app as if typed now (its own setter is set to
      // empty first so React sees the change), then the held taps and submits, each once.
      for (const entry of typed.values()) {
        const field = find(entry);
        if (!field || !('value' in field)) continue;
        field.value = '';
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, entry.value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      typed.clear();
      const tapped = new Set(held.map((entry) => entry.node));
      for (const entry of held.splice(0)) {
        const node = find(entry);
        if (!node) continue;
        if (entry.kind === 'submit') {
          const submitter = entry.submitter?.isConnected && entry.submitter.form === node ? entry.submitter : undefined;
          node.requestSubmit?.(submitter);
        } else tap(node);
      }
      // Two taps on one control before the take-over are one: a press after a held tap is dropped.
      const half = pressed && !tapped.has(pressed.node) && find(pressed);
      if (half) press(half, pressed.pointerType);
      pressed = null;
    });
})();
