// A visible banner for panics and uncaught errors, and a polite notice line.

import { h } from './dom.js';

/** The error banner: shows every distinct message, with a close button. */
export function createBanner(root) {
  const list = h('ul');
  // `seen`: the messages listed now (one line each); a dismissed message shows again if it
  // happens again.
  const seen = new Set();
  const close = h('button', { type: 'button', class: 'small', text: 'Dismiss', on: { click: () => { root.hidden = true; list.replaceChildren(); seen.clear(); } } });
  root.replaceChildren(h('strong', { text: 'Something went wrong. ' }), list, close);
  root.hidden = true;
  root.setAttribute('role', 'alert');
  return {
    show(message) {
      const text = String(message || 'unknown error');
      if (seen.has(text)) return;
      seen.add(text);
      list.append(h('li', { text }));
      root.hidden = false;
    },
  };
}

/** Send uncaught errors and rejections of this window to `banner`. */
export function catchUncaught(banner) {
  window.addEventListener('error', (e) => banner.show(e.message || String(e.error)));
  window.addEventListener('unhandledrejection', (e) => {
    const r = e.reason;
    banner.show(r && r.message ? r.message : String(r));
  });
}
