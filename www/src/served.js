// A classic script, not a module: it runs where the page's modules may not. Chromium loads
// modules and WebAssembly only over http(s), so a page opened from disk (file://) said "Loading
// the simulator…" for good; if the page has not started a moment later, this says why and what
// to do, in its place. (A browser that runs the modules from disk starts the page instead.)
if (location.protocol === 'file:') {
  setTimeout(() => {
    for (const el of document.querySelectorAll('.loading')) {
      el.className = 'banner';
      el.textContent = 'Opened as a file, this page has not started: browsers load its modules and WebAssembly only from a server. Serve the built page (cargo xtask serve, or any static server of www/dist, such as python3 -m http.server run there) and open the address it gives.';
    }
  }, 2000);
}
