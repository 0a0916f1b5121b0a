// The main page: one playground bound to the URL.
import { mountPlayground } from './app.js';

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
// Another value (a misspelt "embed=yes") showed the whole page and said nothing.
const notice = embed !== null && embed !== '1'
  ? `This link's embed=${embed} is not embed=1: the page is shown whole, with its header and footer.` : undefined;
// Read as the custom element reads its attribute: names trimmed, empty ones skipped ("now, chart"
// and "now,,chart" are now and chart); nothing named at all is the same as no panels=.
const named = (params.get('panels') || '').split(',').map((p) => p.trim()).filter(Boolean);
const panels = named.length ? named : undefined;
window.playground = mountPlayground(root, { url: true, panels, notice, onRun: () => { hook.runs += 1; } });
Object.defineProperty(hook, 'ready', { get: () => Boolean(window.playground.state.loaded) });
