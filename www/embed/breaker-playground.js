// <breaker-playground>: the playground as a custom element, for documentation pages.
//
//   <script type="module" src="/playground/embed/breaker-playground.js"></script>
//   <breaker-playground preset="quiet-service"></breaker-playground>
//
// One script tag (this module, from the built files: `cargo xtask dist` -> www/dist/embed/) defines
// the element. Attributes (read when the element starts, and again when one changes after):
//   preset    a preset name (`breaker presets`; default the first, recovery-warmup);
//   scenario  a scenario as JSON text (the simulator's Scenario JSON; overrides preset);
//   panels    comma-separated panels to show: now, chart, verdict, trace, metrics, derived,
//             analysis, controls (default "now,chart");
//   controls  present: also show the settings form (same as listing `controls` in panels);
//   label     the name screen readers give the element's region (default "Breaker playground:
//             <the preset shown>", or the scenario's name, else "custom scenario"): two
//             elements of one preset, or of scenarios, told apart.
// Each element renders into its own shadow root (the page's styles and the playground's do not
// mix), and starts work only when it first comes within 200 px of the viewport
// (IntersectionObserver, and a look once a second beside it): then it loads
// the styles, starts its own worker with its own wasm instance and computes its run. Several on
// one page are independent. An attribute changed after the element started (a framework's
// re-render, a script) starts it over with the new attributes: a new run and a new
// `element.playground`. While starting and after, the host's `data-state` is "idle",
// "loading" or "ready" ("error", with a `breaker-playground-error` event, when the simulator
// could not start), and a `breaker-playground-ready` event fires after each run; `element.playground` is the handle (`seek(t)`, `load(scenario)`, `state`).
// The built files may be on another origin if served with CORS: the worker is then started from
// a `blob:` URL of the page's own origin (README, "Embedding it").

import { mountPlayground } from '../src/app.js';
import { parseExact } from '../src/whole.js';

const BASE = new URL('../', import.meta.url);
const PANELS = ['now', 'chart'];
/** How near the viewport (px) an element starts. */
const NEAR = 200;
let sheet = null;

/**
 * The page's style sheet with `:root` rules applied to the host, fetched once per page, as one
 * constructed sheet that every element adopts: no inline `<style>`, which a host page's
 * Content-Security-Policy (`style-src` without 'unsafe-inline') would block, leaving the element
 * unstyled.
 */
function styles() {
  if (!sheet) {
    sheet = fetch(new URL('style.css', BASE))
      .then((r) => (r.ok ? r.text() : ''))
      .catch(() => '')
      .then((css) => {
        // The page's one-column layout below 53.75em of window (860 px) is the element's below
        // 860 px of its own width, whatever the window's (a docs page's column is narrower).
        const text = fixedRem(css.replaceAll(':root', ':host').replace('@media (max-width: 53.75em)', '@container (max-width: 860px)') + EXTRA);
        // A browser without constructed sheets (Safari before 16.4) gets the text, for a
        // <style> of each element's own.
        try {
          const s = new CSSStyleSheet();
          s.replaceSync(text);
          return s;
        } catch {
          return text;
        }
      });
  }
  return sheet;
}

/**
 * `css` with each `rem` length in the element's own size, 15 px (EXTRA's `:host`; the page's
 * `:root` is 93.75%, 15 px at a browser's usual 16 px, which in the host would follow the host
 * page's text): in a shadow root `rem` is the host document's, and under mdBook's
 * `font-size: 62.5%` the element's help text, labels and buttons were 8.5-9 px beside its 15 px
 * text.
 */
function fixedRem(css) {
  return css.replace(/(?<![\w.-])(-?(?:\d+\.?\d*|\.\d+))rem\b/g, 'calc($1 * 15px)');
}

const EXTRA = `
:host { display: block; background: var(--bg); border: 1px solid var(--border); border-radius: 8px; margin: 1rem 0; contain: content; font-size: 15px; }
.playground { padding: .5rem .75rem .75rem; max-width: none; container-type: inline-size; }
.topbar { display: none; }
.stage { gap: .6rem; }
.sticky { position: static; }
.panel { padding: .5rem .7rem; }
.placeholder { padding: 1rem; color: var(--muted); margin: 0; }
`;

/** The attributes the element reads (when it starts). */
const ATTRIBUTES = ['preset', 'scenario', 'panels', 'controls', 'label'];

export class BreakerPlayground extends HTMLElement {
  static get observedAttributes() { return ATTRIBUTES; }

  /**
   * An attribute changed: once started, start over with the new attributes. Before that there is
   * nothing to do (an idle element, or one loading its styles, reads them when it starts).
   */
  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (!this.playground) {
      // Idle, waiting to come into view: its placeholder names the preset it will show.
      if (this.observer && name === 'preset') this.placeholder();
      return;
    }
    this.playground.destroy();
    this.playground = null;
    this.start();
  }

  connectedCallback() {
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' });
    // Started, watching, or loading its styles (a move within the page: the start goes on).
    if (this.playground || this.observer || this.starting) return;
    this.dataset.state = 'idle';
    this.placeholder();
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.begin();
    }, { rootMargin: `${NEAR}px` });
    this.observer.observe(this);
    // Beside the observer, a look once a second (a layout read, while the element is idle):
    // headless Firefox has twice left an element scrolled into view idle for a minute late in a
    // long test session, its observer not reporting the change. Its first report (out of view,
    // at once on observing) would be no proof that it reports the next, so the look stays.
    this.look = setInterval(() => { if (this.near()) this.begin(); }, 1000);
  }

  /** What an idle element shows until it starts (text only). */
  placeholder() {
    const p = document.createElement('p');
    p.className = 'placeholder';
    p.textContent = `Breaker playground${this.getAttribute('preset') ? ` (${this.getAttribute('preset')})` : ''}: starts when scrolled into view.`;
    this.shadowRoot.replaceChildren(p);
  }

  disconnectedCallback() {
    this.stopWatching();
    // Put back later, it starts over: idle until in view again.
    if (this.playground) { this.playground.destroy(); this.playground = null; this.dataset.state = 'idle'; }
  }

  stopWatching() {
    if (this.observer) { this.observer.disconnect(); this.observer = null; }
    if (this.look) { clearInterval(this.look); this.look = null; }
  }

  /** Start once, whichever of the observer and the look sees the element first. */
  begin() {
    if (!this.observer && !this.look) return;
    this.stopWatching();
    this.start();
  }

  /** Whether the element is shown and within NEAR px of the viewport (as the observer's margin). */
  near() {
    const r = this.getBoundingClientRect();
    return (r.width > 0 || r.height > 0)
      && r.bottom >= -NEAR && r.top <= innerHeight + NEAR && r.right >= -NEAR && r.left <= innerWidth + NEAR;
  }

  /** The options from the attributes (text only; nothing here becomes HTML). */
  options() {
    // In any case, as the page reads them (mountPlayground); an unknown one is named as written.
    const list = (this.getAttribute('panels') || '').split(',').map((s) => s.trim()).filter(Boolean);
    const panels = list.length ? list : PANELS;
    const opts = {
      panels,
      controls: this.hasAttribute('controls') || panels.some((p) => p.toLowerCase() === 'controls'),
      embedded: true,
      preset: this.getAttribute('preset') || undefined,
    };
    const sc = this.getAttribute('scenario');
    // Present but blank (a template's empty value, or `scenario` alone) ran the preset with no
    // notice, as if the attribute were absent.
    if (sc !== null && !sc.trim()) opts.error = 'The scenario attribute is empty, not an object of settings';
    else if (sc) {
      try {
        // JSON.parse would round a seed past 2^53 - 1 to another seed: such a number is refused
        // naming its field, as the simulator refuses a value out of range (whole.js).
        const r = parseExact(sc);
        if (!r.ok) opts.error = `The scenario's settings are not valid (${r.message})`;
        else opts.scenario = r.value;
        // JSON's null, 0, false or "" would read as no scenario at all: say so, as for text that
        // is not JSON (a list or another number gets the simulator's own message).
        const v = r.ok ? opts.scenario : {};
        if (v === null || (typeof v !== 'object' && !v)) {
          delete opts.scenario;
          opts.error = `The scenario attribute is ${v === null ? 'null' : JSON.stringify(v)}, not an object of settings`;
        }
      } catch (e) {
        opts.error = `The scenario attribute is not JSON: ${e.message}`;
      }
    }
    return opts;
  }

  async start() {
    this.dataset.state = 'loading';
    this.starting = true;
    const styleSheet = await styles();
    this.starting = false;
    // Taken out of the page while the styles loaded: start again when put back (a move within
    // the page puts it back before this, and it goes on).
    if (!this.isConnected) { this.dataset.state = 'idle'; return; }
    const uplot = document.createElement('link');
    uplot.rel = 'stylesheet';
    uplot.href = new URL('vendor/uPlot.min.css', BASE).href;
    const root = document.createElement('div');
    root.className = 'playground embed';
    // One named region per element: the host page's landmarks hold it, named by the `label`
    // attribute, else by what it shows once run (an unknown preset or a scenario that does not
    // validate shows another preset; two of one preset, or of scenarios, need a label each).
    const label = this.getAttribute('label')?.trim();
    const name = (shown) => label || `Breaker playground${shown === undefined ? '' : `: ${shown || 'custom scenario'}`}`;
    root.setAttribute('role', 'region');
    root.setAttribute('aria-label', name());
    if (typeof styleSheet === 'string') {
      const style = document.createElement('style');
      style.textContent = styleSheet;
      this.shadowRoot.replaceChildren(uplot, style, root);
    } else {
      this.shadowRoot.adoptedStyleSheets = [styleSheet];
      this.shadowRoot.replaceChildren(uplot, root);
    }
    const opts = this.options();
    const notice = (text) => {
      const banner = document.createElement('p');
      banner.className = 'banner';
      banner.setAttribute('role', 'status');
      banner.textContent = text;
      root.before(banner);
    };
    this.playground = mountPlayground(root, {
      ...opts,
      keysOnHover: false,
      onNotice: notice,
      onStartError: (message) => {
        this.dataset.state = 'error';
        this.dispatchEvent(new CustomEvent('breaker-playground-error', { bubbles: true, composed: true, detail: { message } }));
      },
      onRun: (state) => {
        root.setAttribute('aria-label', name(state.info ? state.info.name : ''));
        this.dataset.state = 'ready';
        this.dispatchEvent(new CustomEvent('breaker-playground-ready', { bubbles: true, composed: true, detail: { name: state.info && state.info.name } }));
      },
    });
    if (opts.error) notice(`${opts.error}; showing the preset instead.`);
  }
}

if (!customElements.get('breaker-playground')) customElements.define('breaker-playground', BreakerPlayground);
