// Play, pause, step one call, next event, restart, speed and the time scrubber, with keyboard
// shortcuts: space (play/pause), → (step one call), ← (back one call), n (next event),
// r (restart); on the focused time slider the arrows move the slider instead. The owner supplies the actions; this module only draws and routes.
// A checkbox turns the keys off (see `singleKeys` in dom.js).

import { h, uniqueId, singleKeys, setSingleKeys, onSingleKeys } from './dom.js';
import { clock } from './format.js';

export const SPEEDS = [[1, '1×'], [10, '10×'], [60, '1 min/s'], [600, '10 min/s'], [3600, '1 h/s'], [86400, '1 d/s']];

export function createTransport(root, actions) {
  const sid = uniqueId('speed');
  const rid = uniqueId('scrub');
  const play = h('button', { type: 'button', class: 'primary', text: '▶ Play', attrs: { 'aria-keyshortcuts': 'Space' }, on: { click: () => actions.togglePlay() } });
  const step = h('button', { type: 'button', text: 'Step one call', attrs: { 'aria-keyshortcuts': 'ArrowRight' }, on: { click: () => actions.step() } });
  const next = h('button', { type: 'button', text: 'Next event', attrs: { 'aria-keyshortcuts': 'N' }, on: { click: () => actions.nextEvent() } });
  const restart = h('button', { type: 'button', text: 'Restart', attrs: { 'aria-keyshortcuts': 'R' }, on: { click: () => actions.restart() } });
  const speed = h('select', { id: sid, on: { change: () => actions.speed(Number(speed.value)) } },
    SPEEDS.map(([v, l]) => h('option', { value: String(v), text: l })));
  const scrub = h('input', { id: rid, type: 'range', min: '0', max: '1', step: 'any', value: '0', attrs: { 'aria-valuetext': '0:00.00' } });
  scrub.addEventListener('input', () => actions.seek(Number(scrub.value)));
  // While the thumb is held, the cursor's replies (one behind the pointer) must not move it back;
  // otherwise the thumb follows the cursor, focused or not (a step, a restart, the next event
  // after a click on the scrubber used to leave the thumb where it was clicked).
  let held = false;
  scrub.addEventListener('pointerdown', () => { held = true; });
  const release = () => { held = false; };
  window.addEventListener('pointerup', release);
  window.addEventListener('pointercancel', release);
  const keysBox = h('input', { type: 'checkbox', checked: singleKeys(), on: { change: () => setSingleKeys(keysBox.checked) } });
  const keyed = [[play, 'Space'], [step, 'ArrowRight'], [next, 'N'], [restart, 'R']];
  const showKeys = (on) => {
    keysBox.checked = on;
    for (const [el, k] of keyed) { if (on) el.setAttribute('aria-keyshortcuts', k); else el.removeAttribute('aria-keyshortcuts'); }
  };
  showKeys(singleKeys());
  const stopKeys = onSingleKeys(showKeys);
  const time = h('output', { class: 'time', attrs: { for: rid, 'aria-live': 'off' }, text: '0:00.00' });
  const of = h('span', { class: 'time muted' });
  root.replaceChildren(
    h('div', { class: 'buttons', attrs: { role: 'group', 'aria-label': 'Playback' } }, play, step, next, restart,
      h('label', { for: sid, class: 'inline', text: 'Speed ' }), speed),
    h('div', { class: 'scrubrow' }, h('label', { for: rid, class: 'sr-only', text: 'Time' }), scrub, time, of),
    h('p', { class: 'help keys' },
      h('label', { class: 'inline' }, keysBox, ' Keyboard shortcuts'),
      h('span', { class: 'keys-list', text: ': space play/pause · → step one call · ← one call back · n next event · r restart' })));

  const isControl = (el) => el && (el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName));
  const isTyping = (el) => isControl(el) && el.type !== 'range' && el.type !== 'checkbox';
  // In a shadow root (the custom element), a key pressed on the element's own controls is seen
  // there first, before the host page's listeners on the document (they would run before this
  // one's); null on the page itself.
  const shadow = typeof ShadowRoot !== 'undefined' && root.getRootNode() instanceof ShadowRoot ? root.getRootNode() : null;
  const onKey = (e) => {
    // The element the key went to: inside a custom element's shadow root, document.activeElement
    // is only the host, and a field of an embedded playground's settings lost its typing (space,
    // n, r, the arrows) to the shortcuts.
    const target = (e.composedPath && e.composedPath()[0]) || document.activeElement;
    const el = target && target.nodeType === 1 ? target : document.activeElement;
    // A key typed into the element's own field, list, checkbox or time slider is that control's:
    // a host page whose shortcuts look only at the event's target sees the element there, not
    // the control, and must not act on it too. (mdBook 0.5.4 looks into the shadow root itself,
    // `composedPath()[0]`, so it already left these keys alone; its page turned on a key the
    // element's buttons handle, stopped below.) Escape, Tab and keys with Ctrl, Alt or Meta type
    // nothing: they go on to the host (its search on Ctrl+K, an overlay closed by Escape).
    if (shadow && e.currentTarget === shadow && isControl(el) && !e.ctrlKey && !e.altKey && !e.metaKey
      && e.key !== 'Escape' && e.key !== 'Tab') e.stopPropagation();
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (isTyping(el)) return;
    if (!singleKeys() || !actions.keysActive()) return;
    const k = e.key;
    // On the time slider the arrows move the slider (as on any slider), not a call at a time.
    if ((k === 'ArrowRight' || k === 'ArrowLeft') && el && el.tagName === 'INPUT' && el.type === 'range') return;
    if (k === ' ' || k === 'Spacebar') {
      // Let a focused control act on its own space: a button, a checkbox, a <summary> (which
      // opens its section), a link.
      if (el && (['BUTTON', 'SUMMARY', 'A'].includes(el.tagName) || el.getAttribute('role') === 'button'
        || (el.tagName === 'INPUT' && el.type === 'checkbox'))) return;
      actions.togglePlay();
    } else if (k === 'ArrowRight') actions.step();
    else if (k === 'ArrowLeft') actions.back();
    else if (k === 'n' || k === 'N') actions.nextEvent();
    else if (k === 'r' || k === 'R') actions.restart();
    else return;
    e.preventDefault();
    // Handled inside a custom element: the host page's own keys do not act on it too (mdBook
    // turns the page on the arrows, whatever the key's default was). A key pressed elsewhere on
    // the host page and handled by the document listener goes on as it was.
    if (shadow && e.currentTarget === shadow) e.stopPropagation();
  };
  document.addEventListener('keydown', onKey);
  if (shadow) shadow.addEventListener('keydown', onKey);

  return {
    setPlaying(p) {
      // The name says what a press does; no aria-pressed beside it (a toggle whose name also
      // changes was read as "Pause, pressed": pressed meant playing, the name said pause).
      play.textContent = p ? '❚❚ Pause' : '▶ Play';
    },
    setRange(end) {
      scrub.max = String(end > 0 ? end : 1);
      of.textContent = `of ${clock(end)}`;
    },
    setTime(t) {
      if (!held) scrub.value = String(t);
      const c = clock(t);
      time.textContent = c;
      scrub.setAttribute('aria-valuetext', c);
    },
    setSpeed(v) { speed.value = String(v); },
    setEnabled(on) {
      for (const el of [play, step, next, restart, scrub]) el.disabled = !on;
    },
    /** Focus on Play (where the progress row's Cancel hands it when the row goes). */
    focus() { play.focus(); },
    destroy() {
      document.removeEventListener('keydown', onKey);
      if (shadow) shadow.removeEventListener('keydown', onKey);
      stopKeys();
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
    },
  };
}
