// A classic script, not a module: it runs where the page's modules cannot. Browsers load
// modules and WebAssembly only over http(s), so a page opened from disk (file://) would say
// "Loading the simulator…" for good; this says why, and what to do, in its place.
if (location.protocol === 'file:') {
  for (const el of document.querySelectorAll('.loading')) {
    el.className = 'banner';
    el.textContent = 'Opened as a file, this page cannot start: browsers load its modules and WebAssembly only from a server. Serve this folder (cargo xtask serve, or python3 -m http.server in it) and open the address it gives.';
  }
}
