// The main page: one playground bound to the URL.
import { mountPlayground, analysisRequest } from './app.js';

// Test hook (tests/e2e): every uncaught error, unhandled rejection and console.error of this page,
// whether the first run is on screen, and how many runs have been computed and shown (rewound).
// Read-only for the page; the tests only look at it.
const hook = { errors: [], ready: false, runs: 0 };
window.__playground = hook;
window.addEventListener('error', (e) => hook.errors.push(`error: ${e.message || e.error}`));
window.addEventListener('unhandledrejection', (e) => hook.errors.push(`unhandled rejection: ${e.reason && e.reason.message ? e.reason.message : e.reason}`));
const consoleError = console.error.bind(console);
console.error = (...args) => { hook.errors.push(`console.error: ${args.map(String).join(' ')}`); consoleError(...args); };

const root = document.getElementById('playground');
const params = new URLSearchParams(location.search);
const embed = params.get('embed');
if (embed === '1') document.documentElement.classList.add('embed');
// Embedded in a frame: the page's height, posted to the host page whenever it changes, so that it
// can size the iframe to fit (README, Embedding: a page sized to its iframe scrolled inside it,
// beside the host page's own scrolling). Only a number goes out, to any host.
if (embed === '1' && window.parent !== window && typeof ResizeObserver !== 'undefined') {
  let posted = 0;
  // The root element's box is the page's content (its body's margins too), not the frame's height.
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== posted) window.parent.postMessage({ breakerPlaygroundHeight: (posted = height) }, '*');
  }).observe(document.documentElement);
}
// Another value (a misspelt "embed=yes") showed the whole page and said nothing.
const notice = embed !== null && embed !== '1'
  ? `This link's embed=${embed} is not embed=1: the page is shown whole, with its header and footer.` : undefined;
// Read as the custom element reads its attribute: names trimmed, empty ones skipped ("now, chart"
// and "now,,chart" are now and chart); nothing named at all is the same as no panels=.
const named = (params.get('panels') || '').split(',').map((p) => p.trim()).filter(Boolean);
const panels = named.length ? named : undefined;
// "How it works" opens on the settings shown here (it opened on its defaults, and the reader
// typed the rates in again): its fine, broken, a, b (fractions), period (seconds) and cpm, the
// traffic one breaker sees, as the analysis curves take it (callers that do not share state
// each see their share; a replayed trace, its own). Settings outside the walkthrough's ranges
// are refused there, with a notice, as any link's are.
const learnLink = document.querySelector('header.site a[href^="./learn.html"]');
function learnQuery(sc, derived) {
  const st = sc.statistical;
  const q = new URLSearchParams({
    fine: st.fine_rate, broken: st.broken_rate, a: st.trial_wrongly_opens, b: st.trial_wrongly_closes,
    period: st.false_alarm_period, cpm: analysisRequest(sc, derived).what.calls_per_minute,
  });
  return `./learn.html?${q}`;
}
const onRun = (state) => {
  hook.runs += 1;
  // The run's own derived numbers only when they are of the settings shown.
  if (learnLink && state.scenario) learnLink.href = learnQuery(state.scenario, state.shownScenario === state.scenario ? state.derived : null);
};
window.playground = mountPlayground(root, { url: true, panels, notice, onRun });
Object.defineProperty(hook, 'ready', { get: () => Boolean(window.playground.state.loaded) });
