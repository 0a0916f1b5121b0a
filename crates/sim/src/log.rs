//! A breaker's state changes during a run: append-only, in time order, and cheap to clone.
//!
//! The simulator keeps checkpoints (clones of the whole run) to seek and zoom; with the events in
//! one `Vec`, every checkpoint held a copy of all the events before it, `O(checkpoints x events)`
//! of memory: 1.7 GB for a month of a window that flaps (370,000 changes, 198 checkpoints). Here
//! full chunks of [`CHUNK`] events are frozen and shared between clones; a clone copies only the
//! chunk being filled.

use std::sync::Arc;

use crate::output::Event;

/// Events per shared chunk.
const CHUNK: usize = 1024;

/// The state changes of one breaker (its copies' together, with a copy per caller) after which a
/// run stops: 2^20, 48 MiB of events. The run is cut short at its next call
/// ([`RunResult::cut_at_s`]); the changes of results and deadlines due before that call are
/// kept too, so a log ends a little past this. A month-long outage with 1 ms waits changes
/// state about once a call, 43 million times for both breakers: 2 GB of events (the CLI took
/// 20 GB with its output), more than a page's wasm memory holds. Realistic settings stay far
/// below (a month of a flapping window: 370,000).
///
/// [`RunResult::cut_at_s`]: crate::RunResult::cut_at_s
pub const MAX_EVENTS: usize = CHUNK * 1024;

/// Append-only events whose clones share every full chunk.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    /// Full chunks, each exactly [`CHUNK`] events.
    chunks: Vec<Arc<Vec<Event>>>,
    /// The chunk being filled (fewer than [`CHUNK`] events).
    tail: Vec<Event>,
}

impl EventLog {
    pub(crate) fn push(&mut self, e: Event) {
        self.tail.push(e);
        if self.tail.len() == CHUNK {
            // The Vec moves into the Arc as it is (an `Arc<[Event]>` would copy it: more code).
            self.chunks.push(Arc::new(std::mem::take(&mut self.tail)));
        }
    }

    /// How many events.
    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK + self.tail.len()
    }

    /// Whether the log holds [`MAX_EVENTS`] events or more: the run stops before its next call.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.chunks.len() >= MAX_EVENTS / CHUNK
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Event `i` (0 = the first).
    pub fn get(&self, i: usize) -> Option<&Event> {
        let (c, k) = (i / CHUNK, i % CHUNK);
        match self.chunks.get(c) {
            Some(chunk) => chunk.get(k),
            None if c == self.chunks.len() => self.tail.get(k),
            None => None,
        }
    }

    /// The last event, if any.
    pub fn last(&self) -> Option<&Event> {
        self.tail
            .last()
            .or_else(|| self.chunks.last().and_then(|c| c.last()))
    }

    /// The events in order.
    pub fn iter(&self) -> impl Iterator<Item = &Event> + Clone {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
    }

    /// The events as slices, in order: what the simulator's own readers loop over (nested loops
    /// over slices are less code in the page's wasm than a chained iterator, by about 1 KB).
    pub fn parts(&self) -> Vec<&[Event]> {
        let mut v: Vec<&[Event]> = Vec::with_capacity(self.chunks.len() + 1);
        for c in &self.chunks {
            v.push(c);
        }
        v.push(&self.tail);
        v
    }

    /// How many events this log holds in chunks it shares with `other` (the same allocation):
    /// what a clone saves.
    #[cfg(test)]
    pub(crate) fn shared_with(&self, other: &EventLog) -> usize {
        self.chunks
            .iter()
            .zip(&other.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count()
            * CHUNK
    }

    /// A copy of every event, as one `Vec`.
    pub fn to_vec(&self) -> Vec<Event> {
        let mut v = Vec::with_capacity(self.len());
        for c in &self.chunks {
            v.extend_from_slice(c);
        }
        v.extend_from_slice(&self.tail);
        v
    }
}

impl<'a> IntoIterator for &'a EventLog {
    type Item = &'a Event;
    type IntoIter = Box<dyn Iterator<Item = &'a Event> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::BreakerKind;
    use breaker::{Reason, State};

    fn event(i: usize) -> Event {
        Event {
            t_s: i as f64,
            breaker: BreakerKind::Window,
            caller: 0,
            from: State::Closed,
            to: State::Open,
            generation: i as u64,
            reason: Reason::WaitElapsed { wait: 1.0 },
        }
    }

    /// Every length around the chunk edges: the same events, in order, by index, by iteration
    /// and as a Vec; a clone goes on independently of the original and shares its full chunks.
    #[test]
    fn log_reads_back_what_was_pushed() {
        let mut log = EventLog::default();
        let mut plain = Vec::new();
        for i in 0..3 * CHUNK + 7 {
            assert_eq!(log.len(), plain.len());
            assert_eq!(log.to_vec(), plain);
            if i % 97 == 0 || i % CHUNK < 2 || i % CHUNK > CHUNK - 2 {
                assert!(log.iter().eq(plain.iter()));
                assert!((&log).into_iter().eq(plain.iter()));
                assert_eq!(log.last(), plain.last());
                for (j, e) in plain.iter().enumerate() {
                    assert_eq!(log.get(j), Some(e));
                }
                assert_eq!(log.get(plain.len()), None);
                assert_eq!(log.get(plain.len() + CHUNK), None);
                // The start of the chunk after the one being filled: not the filling one's.
                assert_eq!(log.get((plain.len() / CHUNK + 1) * CHUNK), None);
                assert_eq!(log.parts().concat(), plain);
            }
            log.push(event(i));
            plain.push(event(i));
        }
        let copy = log.clone();
        assert!(
            Arc::ptr_eq(&copy.chunks[0], &log.chunks[0]),
            "full chunks are shared"
        );
        log.push(event(1_000_000));
        assert_eq!(copy.len() + 1, log.len());
        assert_eq!(copy.to_vec(), plain);
        assert!(!log.is_empty() && EventLog::default().is_empty());
    }
}
