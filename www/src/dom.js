// Tiny DOM helpers. Text is only ever set with textContent: nothing user-supplied becomes HTML.

/**
 * Create an element. `props` keys: class, text, attrs (object), on (object of listeners),
 * dataset, and any plain DOM property (id, type, value, ...). Children are nodes or strings
 * (strings become text nodes).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'for') el.htmlFor = v;
    else if (k === 'attrs') for (const [a, av] of Object.entries(v)) { if (av !== false && av != null) el.setAttribute(a, av === true ? '' : String(av)); }
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el[k] = v;
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replace all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
/** A document-unique id with a readable prefix (several playgrounds may share a page). */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** Debounce: call `fn` once, `ms` after the last call. */
export function debounce(fn, ms) {
  let t = 0;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

/** What a number field says of a comma typed or pasted into it (`refuseComma`). */
export const COMMA = 'A comma is not read here: write a decimal with a point (2.5), and a number without separators (60000).';

/**
 * Refuse a comma typed, pasted or dropped into the number input `input`: Chromium drops it
 * without a word ("2,5" read 25, "0,5" read 5), Firefox empties the value. The field is emptied
 * instead (typing on would have made 25), and `say(COMMA)` tells the reader why.
 */
export function refuseComma(input, say) {
  input.addEventListener('beforeinput', (e) => {
    const text = e.data ?? (e.dataTransfer ? e.dataTransfer.getData('text/plain') : '');
    if (!text || !text.includes(',')) return;
    e.preventDefault();
    input.value = '';
    say(COMMA);
  });
}

// Single-key shortcuts (space, n, r on the playground; n, p on the walkthrough) can be turned
// off (WCAG 2.1.4: speech input users dictate words whose letters would fire them). The choice
// is the page's, kept for the next visit where storage is allowed, and every playground on the
// page follows it.
const KEYS_STORE = 'breaker-playground.single-keys';
let keysOn = true;
try { keysOn = localStorage.getItem(KEYS_STORE) !== 'off'; } catch { /* storage refused: on */ }
const keysListeners = new Set();

// Turned off or on in another tab (of this page or the walkthrough): followed here too.
try {
  window.addEventListener('storage', (e) => {
    if (e.key !== KEYS_STORE) return;
    keysOn = e.newValue !== 'off';
    for (const fn of keysListeners) fn(keysOn);
  });
} catch { /* no window (a worker, node): nothing to follow */ }

/** Whether single-key shortcuts are on. */
export function singleKeys() { return keysOn; }

/** Turn single-key shortcuts on or off for the page (and its next visits, where allowed). */
export function setSingleKeys(on) {
  keysOn = Boolean(on);
  try { localStorage.setItem(KEYS_STORE, keysOn ? 'on' : 'off'); } catch { /* not kept */ }
  for (const fn of keysListeners) fn(keysOn);
}

/** Call `fn(on)` whenever the setting changes; returns the function that stops it. */
export function onSingleKeys(fn) {
  keysListeners.add(fn);
  return () => keysListeners.delete(fn);
}
