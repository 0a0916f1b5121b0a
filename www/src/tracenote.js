// What a replayed trace's latencies say against the call timeout, as `breaker run --trace`
// says it (crates/cli/src/run.rs, `timeout_line`): how many calls not recorded as timeouts took
// the call timeout or longer (each is replayed as a timeout at the call timeout), with a hint
// when half or more did: a log's latencies in milliseconds, written bare, read as seconds
// (`0.2,200,120` is a 2-minute call), turn a healthy trace into one long outage.
//
// Read from the trace text the run replayed (so it has parsed: every row is a call): a row is a
// line whose first field is a number; its outcome is a timeout if written `timeout` (any case)
// or as the status 408 (`+408`, `0408`); its latency is read as the simulator reads durations (units.js).

import { parseDuration } from './units.js';

/** `{calls, reach}` of a trace text that replays, against `timeout` seconds. */
export function reachTimeout(trace, timeout) {
  let calls = 0;
  let reach = 0;
  for (const line of String(trace).split('\n')) {
    const f = line.split(',');
    const t = f[0].replace(/^\uFEFF/, '').trim();
    if (f.length < 3 || t === '' || !Number.isFinite(Number(t))) continue;
    calls += 1;
    const o = f[1].trim().toLowerCase();
    // 408 as the simulator reads a status (a u16: "+408" and "0408" too).
    if (o === 'timeout' || /^\+?0*408$/.test(o)) continue;
    const d = parseDuration(f[2]);
    if (d.ok && d.value >= timeout) reach += 1;
  }
  return { calls, reach };
}

/** The note under the metrics, or null when no call reached the timeout. */
export function timeoutNote(trace, timeout) {
  const { calls, reach } = reachTimeout(trace, timeout);
  if (!reach) return null;
  const hint = reach * 2 >= calls ? ': bare latencies are seconds; if these are milliseconds, give them a unit (120ms)' : '';
  return `${reach} of ${calls} calls in the trace, not recorded as timeouts, took the call timeout (${timeout} s) or longer and are replayed as timeouts${hint}.`;
}

/**
 * What a replay is judged against, said beside its metrics: the settings' phases that are not
 * fine (the outage metrics are measured from them) and those with a capacity (calls over it are
 * shed as overloads, recorded successes included), as they fall within the trace's run
 * [0, end]. A trace pasted on a preset's page (recovery-warmup: an outage from 8 s to 30 s, a
 * capacity from 30 s to 40 s) was judged against the preset's invented outage, unsaid.
 * Null when no phase is either.
 */
export function phasesNote(dependency, end, fmtTime = (t) => `${t} s`) {
  const phases = (dependency || []).map((p, i, all) => ({ ...p, from: p.start || 0, to: i + 1 < all.length ? (all[i + 1].start || 0) : Infinity }))
    .filter((p) => p.from <= end);
  const span = (p) => (p.to >= end ? `from ${fmtTime(p.from)} on` : `from ${fmtTime(p.from)} to ${fmtTime(p.to)}`);
  const marked = phases.filter((p) => p.condition && p.condition !== 'fine').map((p) => `${p.condition} ${span(p)}`);
  const capped = phases.filter((p) => p.capacity > 0).map((p) => `a capacity of ${p.capacity} calls/s ${span(p)}`);
  if (!marked.length && !capped.length) return null;
  const parts = [];
  if (marked.length) parts.push(`the dependency counts as ${marked.join(', ')}, not fine (no opening there is a false alarm; the times to open and close are measured from its outages)`);
  if (capped.length) parts.push(`${capped.join(', ')} ${capped.length > 1 ? 'shed' : 'sheds'} the calls over it as overloads, recorded successes too`);
  return `This replay is judged by the phases in the settings (a trace records no health of its own): ${parts.join('; ')}. Where they are not the trace's own outages, set them so, with capacity 0.`;
}

/**
 * When a tenth or more of a breaker's admitted calls have no result by the end of a replay (it
 * ends at the trace's last call), as `breaker run --trace` says it (run.rs `in_flight_line`):
 * 10,000 calls at one instant moved nothing, unsaid. `m`: the page's metrics. Null otherwise.
 */
export function inFlightNote(m) {
  const t = (k) => (m && m[k] && m[k].totals) || {};
  const [s, w] = [t('statistical'), t('window')];
  const many = (x) => x.in_flight_at_end > 0 && x.in_flight_at_end * 10 >= Math.max(1, x.admitted);
  if (!many(s) && !many(w)) return null;
  return `The run ends at the trace's last call: ${s.in_flight_at_end} of the statistical breaker's ${s.admitted} admitted calls and ${w.in_flight_at_end} of the window breaker's ${w.admitted} had no result by then: no breaker heard them (“in flight at the end” counts them; rows that count a call as it is admitted, such as calls that ended in a timeout, do too).`;
}
