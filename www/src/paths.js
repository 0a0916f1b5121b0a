// Get and set values in a nested settings object by dotted path ("statistical.fine_rate",
// "dependency.1.failure_rate").

export function getPath(obj, path) {
  let o = obj;
  for (const k of path.split('.')) {
    if (o === null || o === undefined) return undefined;
    o = o[k];
  }
  return o;
}

export function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  for (let i = 0; i < keys.length - 1; i += 1) {
    const k = keys[i];
    if (o[k] === null || typeof o[k] !== 'object') o[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    o = o[k];
  }
  o[keys[keys.length - 1]] = value;
}

/** A deep copy of plain JSON data. */
export function clone(v) {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

/** Flatten to {path: leaf} (arrays by index). */
export function flatten(obj, prefix = '', out = {}) {
  if (obj !== null && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out[prefix] = obj;
  }
  return out;
}

/** Deep equality of plain JSON data. */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
