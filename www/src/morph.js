// Patch a rendered panel in place: make a live element's children equal to those of a detached
// element rendered the same way, touching only what differs. Same-tag elements are kept (their
// attributes and children patched), text nodes get new data, the rest is replaced. The browser
// then lays out and paints only the few nodes whose text changed, not a whole new panel: a rerun
// or a cursor move redraws in a fraction of the time.
//
// Only for content without listeners or form state (a kept element keeps its old listeners).

/** Make `live`'s children equal to `next`'s (`next` is consumed). */
export function morphChildren(live, next) {
  const olds = [...live.childNodes];
  const news = [...next.childNodes];
  for (let i = 0; i < news.length; i++) {
    const o = olds[i];
    const n = news[i];
    if (!o) live.append(n);
    else if (o.nodeType !== n.nodeType || o.nodeName !== n.nodeName) live.replaceChild(n, o);
    else if (n.nodeType === Node.TEXT_NODE) { if (o.data !== n.data) o.data = n.data; }
    else if (n.nodeType === Node.ELEMENT_NODE) {
      if (o.isEqualNode(n)) continue; // unchanged: one native comparison, no walk
      morphAttributes(o, n);
      morphChildren(o, n);
    }
    else live.replaceChild(n, o);
  }
  for (let i = news.length; i < olds.length; i++) olds[i].remove();
  return live;
}

function morphAttributes(o, n) {
  const na = n.attributes;
  for (let i = 0; i < na.length; i++) {
    const { name, value } = na[i];
    if (o.getAttribute(name) !== value) o.setAttribute(name, value);
  }
  const oa = o.attributes;
  for (let i = oa.length - 1; i >= 0; i--) if (!n.hasAttribute(oa[i].name)) o.removeAttribute(oa[i].name);
}

/** Render with `draw(el)` (which fills `el`, e.g. with `replace`) into `live`, patching in place. */
export function patch(live, draw) {
  const next = document.createElement(live.tagName);
  draw(next);
  return morphChildren(live, next);
}
