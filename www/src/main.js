// The main page: one playground bound to the URL.
import { mountPlayground } from './app.js';

const root = document.getElementById('playground');
const params = new URLSearchParams(location.search);
if (params.get('embed') === '1') document.documentElement.classList.add('embed');
const panels = params.get('panels') ? params.get('panels').split(',') : undefined;
window.playground = mountPlayground(root, { url: true, panels });
