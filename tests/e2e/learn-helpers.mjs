// Helpers for learn.test.mjs and embed.test.mjs (issue 7): the native `breaker analyze`, and an
// independent evaluator of the walkthrough's number expressions (see www/src/learn-steps.js).

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

/** The walkthrough's default settings, written out here on purpose (not imported from the page). */
export const DEFAULTS = { fine: 0.05, broken: 0.2, a: 0.01, b: 0.05, period: 2592000, cpm: 60 };

function breaker() {
  if (process.env.BREAKER_BIN) return [process.env.BREAKER_BIN, []];
  const bin = join(ROOT, 'target/debug/breaker');
  if (existsSync(bin)) return [bin, []];
  return ['cargo', ['run', '-q', '-p', 'breaker-cli', '--']];
}

const cache = new Map();
/** `breaker analyze <args> --format json`, parsed. */
export function analyzeNative(args) {
  const key = JSON.stringify(args);
  if (!cache.has(key)) {
    const [cmd, pre] = breaker();
    const out = execFileSync(cmd, [...pre, 'analyze', ...args, '--format', 'json'], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'],
    });
    cache.set(key, JSON.parse(out));
  }
  return cache.get(key);
}

const OPS = {
  add: (x, y) => x + y, sub: (x, y) => x - y, mul: (x, y) => x * y, div: (x, y) => x / y,
  neg: (x) => -x, abs: Math.abs, exp: Math.exp, ceil: (x) => Math.ceil(x - 1e-9),
  min: Math.min, max: Math.max, pow: (x, y) => x ** y, ln: Math.log, lt: (x, y) => (x < y ? 1 : 0),
};

function at(obj, path) {
  return path.split('.').reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), obj);
}

/**
 * Evaluate an expression: env = {c: [native reports], s: settings, sc: scenario, run: {statistical:
 * {metrics}, window: {metrics}, calls}}. Returns {value, kind}.
 */
export function evaluate(expr, env) {
  if (typeof expr === 'number') return { value: expr };
  if (typeof expr === 'string') {
    const m = /^(c(\d+)|s|sc|run):(.*)$/.exec(expr);
    if (!m) throw new Error(`bad reference ${expr}`);
    const src = m[2] !== undefined ? env.c[Number(m[2])] : env[m[1]];
    const v = at(src, m[3]);
    if (v === undefined) throw new Error(`${expr}: not in the native output`);
    if (v && typeof v === 'object' && 'kind' in v) return { value: v.value, kind: v.kind };
    return { value: v };
  }
  const [op, ...args] = expr;
  if (!OPS[op]) throw new Error(`unknown op ${op}`);
  return { value: OPS[op](...args.map((a) => evaluate(a, env).value)) };
}

/** The first number in a displayed text ("2,592,000 calls", "−0.1719 nats", "11.03%"). */
export function shownNumber(text) {
  const m = /[−+-]?[\d,]*\.?\d+(?:e[−+-]?\d+)?/.exec(text.replace(/\s/g, ' '));
  return m ? Number(m[0].replace(/,/g, '').replace(/−/g, '-')) : NaN;
}

/** Whether a and b agree to a relative `tol` (null = null: an infinite figure). */
export function close(a, b, tol = 1e-12) {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  return Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b));
}
